"""A fenced adapter (issue 17): its agent prints a hostile file, then it emits its real signals.

Usage: fenced_python_adapter.py HOSTILE_FILE. Started under ``conform --fence``
or ``wrap --fence``, ``bernstein_signals`` takes the key at import, so every
line ``emit``/``ask`` write is marked and the agent inherits no key. It asks
one question (id ``q-1``), emits BLOCKED (keeping a copy in ``.sdd/own.log``),
runs the agent (``fenced_agent.sh``) on the hostile file and that copy (a
replay), and ends COMPLETED when the answer is ``yes``, else FAILED.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

from bernstein_signals import SignalKind, ask, emit

AGENT = Path(__file__).with_name("fenced_agent.sh")


def main(hostile: str) -> int:
    answer = ask("Apply the migration?", options=["yes", "no"], id="q-1", timeout=60)
    own = io.StringIO()
    with contextlib.redirect_stdout(own):  # emit marks what goes to sys.stdout only
        emit(SignalKind.BLOCKED, {"reason": "waiting for the agent"})
    Path(".sdd").mkdir(exist_ok=True)
    Path(".sdd/own.log").write_text(own.getvalue(), encoding="utf-8")
    sys.stdout.write(own.getvalue())
    sys.stdout.flush()
    agent = ["sh", str(AGENT), ".sdd/agent.txt", hostile, ".sdd/own.log"]
    subprocess.run(agent, stdin=subprocess.DEVNULL, check=True)
    if answer == "yes":
        emit(SignalKind.COMPLETED)
        return 0
    emit(SignalKind.FAILED, {"reason": f"answer {answer}"})
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
