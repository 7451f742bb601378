"""A real adapter for the runtime tests: asks two questions, writes a plan, ends as told.

Usage: python_adapter.py MODE, MODE one of completed, failed, none, killed,
hang, binary, bigline. It writes its plan under ./.sdd of the working directory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bernstein_signals import SignalKind, ask, emit


def main(mode: str) -> int:
    migrate = ask("Apply migration?", options=["yes", "no"], id="q-1", timeout=60)
    branch = ask("Which branch?", timeout=60)
    plan = Path(".sdd/plans/fix.md")
    plan.parent.mkdir(parents=True, exist_ok=True)
    markdown = f"# Plan\n- migrate: {migrate}\n- branch: {branch}\n"
    emit(SignalKind.PLAN_DRAFT, {"markdown": markdown, "path": str(plan)})
    plan.write_text(markdown, encoding="utf-8")
    emit(SignalKind.PLAN_READY, {"path": str(plan)})
    print(f"answers: {migrate} {branch}", flush=True)
    if mode == "completed":
        emit(SignalKind.COMPLETED)
    elif mode == "failed":
        emit(SignalKind.FAILED, {"reason": "tests failed"})
        return 1
    elif mode == "killed":
        os.kill(os.getpid(), signal.SIGKILL)
    elif mode == "hang":  # a grandchild too: the timeout must kill the whole group
        sleeper = subprocess.Popen(["sleep", "3600"], stdin=subprocess.DEVNULL)
        Path(".sdd/sleeper.pid").write_text(str(sleeper.pid))
        time.sleep(3600)
    elif mode == "binary":
        sys.stdout.buffer.write(bytes(range(256)) * 4 + b"\xff\xfe no newline")
        sys.stdout.buffer.flush()
        return 3
    elif mode == "bigline":
        sys.stdout.buffer.write(b"BERNSTEIN:PLAN_DRAFT " + b"x" * (10 << 20) + b"\n")
        sys.stdout.flush()
        emit(SignalKind.COMPLETED)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
