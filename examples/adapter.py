#!/usr/bin/env python3
"""A complete adapter in Python, using the generated binding (standard library only).

    examples/adapter.py [--fail]

It drafts a plan, asks the orchestrator whether to apply it, writes the plan
under .sdd/ (PLAN_READY), and ends with COMPLETED or FAILED whatever happens:
an exception, a declined plan or ``--fail`` end FAILED with a reason. Each
signal is built by its typed constructor and written by ``emit`` (one write,
flushed, so the orchestrator sees a QUESTION before the adapter waits). stdout
carries the signals; the orchestrator writes reply lines such as
{"in_reply_to":"q-apply","answer":"yes"} to stdin.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import bernstein_signals as bs
except ImportError:  # running from a checkout: the binding is in generated/python
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generated" / "python"))
    import bernstein_signals as bs

PLAN_PATH = ".sdd/plans/example.md"


def work(fail: bool) -> str | None:
    """The adapter's job; the reason it failed, or None."""
    plan = "# Plan\n- step 1: analyse the repo\n- step 2: apply the fix\n"
    bs.emit(bs.plan_draft(plan, path=PLAN_PATH))  # a typed signal, written and flushed
    answer = bs.ask("Apply the plan?", options=["yes", "no"], id="q-apply", timeout=60)
    if answer != "yes":
        return f"plan declined ({answer})"
    Path(PLAN_PATH).parent.mkdir(parents=True, exist_ok=True)
    Path(PLAN_PATH).write_text(plan, encoding="utf-8")
    bs.emit(bs.plan_ready(PLAN_PATH))
    print("applying the fix...", flush=True)  # plain output is fine between signals
    return "the fix did not apply" if fail else None


def main(argv: list[str]) -> int:
    try:
        reason = work(fail="--fail" in argv)
    except Exception as exc:  # any failure still ends the run with FAILED
        reason = f"{type(exc).__name__}: {exc}"
    if reason is None:
        bs.emit(bs.completed())
        return 0
    bs.emit(bs.failed(reason=reason))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
