"""Running generated code in a scratch folder and checking that nothing injected ran.

Hostile source texts try to create a file named :data:`SENTINEL` in the working
folder; the Python and TypeScript bindings' import checks share this one run.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

__all__ = ["SENTINEL", "assert_runs_cleanly"]

SENTINEL = "PWNED"
"""The file a hostile text would create if the generated code ran it."""


def assert_runs_cleanly(command: list[str], scratch: Path, what: str) -> None:
    """Run ``command`` in ``scratch``: it must create no :data:`SENTINEL`, exit 0 and
    print exactly "ok"; ``what`` names the step in the failure."""
    result = subprocess.run(
        command,
        cwd=scratch,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    assert not (scratch / SENTINEL).exists(), f"{what} ran injected code"
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == "ok\n", result.stdout
