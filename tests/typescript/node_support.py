"""Running the generated TypeScript binding from Python tests: node, tsc and one harness.

The Node test tools come from the root package-lock.json (``npm ci``, which
``make test`` runs); their absence is a failure that says how to install them.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from node_oracle_support import NodeOracle
from scratch_support import assert_runs_cleanly

ROOT = Path(__file__).resolve().parents[2]
BINDING = ROOT / "generated" / "typescript"
HERE = Path(__file__).resolve().parent
NODE_MODULES = ROOT / "node_modules"


def node() -> str:
    found = shutil.which("node")
    assert found is not None, "the TypeScript tests need Node.js >= 18 on PATH"
    return found


def tool(name: str) -> Path:
    path = NODE_MODULES / ".bin" / name
    assert path.exists(), (
        f"{path} is missing: run `npm ci` (make test does) to install the lockfile"
    )
    return path


def environment(binding: Path = BINDING) -> dict[str, str]:
    return {**os.environ, "BERNSTEIN_TS_BINDING": str(binding)}


class Harness:
    """tests/typescript/harness.mjs in one Node process: a request in, an answer out."""

    def __init__(self, binding: Path = BINDING) -> None:
        script = HERE / "harness.mjs"
        self._node = NodeOracle(node(), script, env=environment(binding), cwd=ROOT)

    def ask(self, **request: Any) -> dict[str, Any]:
        return self._node.ask(request)

    def close(self) -> None:
        self._node.close()


def check_typescript(package: Path, schema_dir: Path, facts: dict[str, str], scratch: Path) -> None:
    """Import a generated TypeScript package in ``scratch`` and round-trip every example
    through its constructor (check_package.mjs); no injected code may run."""
    command = [
        node(),
        str(HERE / "check_package.mjs"),
        str(package),
        str(schema_dir),
        json.dumps(facts),
    ]
    assert_runs_cleanly(command, scratch, "importing the TypeScript binding")
