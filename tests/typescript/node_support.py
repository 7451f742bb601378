"""Running the generated TypeScript binding from Python tests: node, tsc and one harness.

The Node test tools come from the root package-lock.json (``npm ci``, which
``make test`` runs); their absence is a failure that says how to install them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

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
        self._process = subprocess.Popen(
            [node(), str(HERE / "harness.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment(binding),
            cwd=ROOT,
        )

    def ask(self, **request: Any) -> dict[str, Any]:
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        data = json.dumps(request, ensure_ascii=True) + "\n"
        self._process.stdin.write(data.encode("ascii"))
        self._process.stdin.flush()
        answer: dict[str, Any] = json.loads(self._process.stdout.readline())
        return answer

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)
        if self._process.stdout is not None:
            self._process.stdout.close()


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
