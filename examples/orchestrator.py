#!/usr/bin/env python3
"""A minimal orchestrator in Python: run an adapter, answer its questions, take its plan.

    examples/orchestrator.py [--answer TEXT] [--] [ADAPTER [ARG]...]

Runs ADAPTER (default: examples/adapter.py) with pipes, reads its stdout
with read_signals (binary, bounded memory, plain lines ignored), answers each
QUESTION through a QuestionTracker (``--answer``, default "yes"), reads the
plan a PLAN_READY hands over with read_plan (only under .sdd/ of the working
directory), and checks the run ended with a terminal signal. One summary line
on stderr. Exit status: 0 COMPLETED, 1 FAILED, 3 no terminal signal.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

try:
    import bernstein_signals as bs
except ImportError:  # running from a checkout: the binding is in generated/python
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generated" / "python"))
    import bernstein_signals as bs

DEFAULT_ADAPTER = [sys.executable, str(Path(__file__).resolve().parent / "adapter.py")]


def orchestrate(command: list[str], answer: str, workdir: Path) -> int:
    tracker = bs.QuestionTracker(enforce_options=False)
    seen: list[bs.StreamSignal] = []
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=workdir
    ) as proc:
        assert proc.stdin is not None
        assert proc.stdout is not None
        for record in bs.read_signals(proc.stdout):
            signal = record.signal
            seen.append(signal)
            if tracker.feed(signal) is not None:  # a QUESTION: answer it at once
                question_id = signal.payload.get(bs.QUESTION_ID)
                reply = tracker.answer(answer, question_id)
                print(
                    f"orchestrator: {signal.payload[bs.QUESTION_TEXT]!r} -> {answer!r}",
                    file=sys.stderr,
                )
                try:
                    proc.stdin.write(reply.encode() + b"\n")
                    proc.stdin.flush()
                except BrokenPipeError:  # the adapter stopped reading: its output tells the rest
                    pass
            elif signal.kind == bs.SignalKind.PLAN_READY:
                plan = bs.read_plan(workdir, signal)
                first = plan.splitlines()[0] if plan else ""
                print(
                    f"orchestrator: plan {signal.payload[bs.PLAN_READY_PATH]} ({first!r})",
                    file=sys.stderr,
                )
        proc.stdin.close()
        status = proc.wait()
    warning = bs.check_terminal_signal(seen, run_id=" ".join(command))
    if warning is not None:
        print(f"orchestrator: {warning} (adapter exit {status})", file=sys.stderr)
        return 3
    terminal = next(signal for signal in seen if signal.is_terminal)
    print(f"orchestrator: run ended {terminal.kind} (adapter exit {status})", file=sys.stderr)
    return 0 if terminal.kind == bs.SignalKind.COMPLETED else 1


def main(argv: list[str]) -> int:
    answer = "yes"
    if argv[:1] == ["--answer"] and len(argv) >= 2:
        answer, argv = argv[1], argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    return orchestrate(argv or DEFAULT_ADAPTER, answer, Path.cwd())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
