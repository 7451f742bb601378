"""A long-running ``node`` oracle: one JSON request per line in, one JSON answer out.

The differential tests of the ECMA-262 regex translation and of the canonical
form, and the TypeScript binding's harness, each ask a script of their own; the
process (and the oracles' fixture) are this one.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = ["NodeOracle", "running_oracle"]


class NodeOracle:
    """One ``node`` process running ``script``, answering requests line by line."""

    def __init__(
        self,
        executable: str,
        script: Path,
        *,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self._process = subprocess.Popen(
            [executable, str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=env,
            cwd=cwd,
        )

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The script's answer to ``request`` (ASCII JSON: lone surrogates travel as
        \\udXXX escapes, which JSON.parse keeps)."""
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        answer: dict[str, Any] = json.loads(self._process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        self._process.stdin.close()
        self._process.wait(timeout=30)
        self._process.stdout.close()


def running_oracle(script: Path) -> Iterator[NodeOracle]:
    """The body of a module-scoped fixture: the oracle, closed after the module. Without
    node the test fails in CI (it is required there) and is skipped elsewhere."""
    executable = shutil.which("node")
    if executable is None:
        message = "node is not installed (run scripts/ensure-test-shells as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    oracle = NodeOracle(executable, script)
    yield oracle
    oracle.close()
