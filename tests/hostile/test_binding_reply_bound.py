"""ask() skips an over-long reply line in bounded memory, with a timeout or without.

With a timeout, the reader once joined the pieces of a line until its newline
came, so a pipe holding 40 MiB without one became a 40 MiB line in memory.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES

_HUGE = 40 << 20
_PEAK_LIMIT = 8 * DEFAULT_MAX_LINE_BYTES
"""A few line limits of room: the reader holds at most about two of them at a time."""

_ADAPTER = textwrap.dedent(
    """
    import sys, tracemalloc
    from bernstein_signals import QuestionAborted, ask
    tracemalloc.start()
    try:
        answer = ask("Go?", stdin={stream}, timeout={timeout})
    except QuestionAborted:
        answer = "aborted"
    print("answer:", answer, tracemalloc.get_traced_memory()[1], flush=True)
    """
)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("timeout", ["None", "60"])
@pytest.mark.parametrize("stream", ["sys.stdin", "sys.stdin.buffer"])
@pytest.mark.parametrize("ending", [b"\n", b""], ids=["then-newline", "no-newline-yet"])
def test_an_over_long_reply_line_is_skipped_in_bounded_memory(
    timeout: str, stream: str, ending: bytes
) -> None:
    """The reply after the long line is still found; without a newline the reply is part
    of the long line, skipped with it, and the end of input aborts the wait."""
    reply = b'{"answer":"ok","in_reply_to":null}\n'
    done = subprocess.run(
        [sys.executable, "-c", _ADAPTER.format(stream=stream, timeout=timeout)],
        input=b"x" * _HUGE + ending + reply,
        capture_output=True,
        timeout=150,
        check=False,
    )
    err = done.stderr.decode(errors="replace")
    note = f"skipped a line longer than {DEFAULT_MAX_LINE_BYTES} bytes"
    assert done.returncode == 0, err
    answer, peak = done.stdout.decode().splitlines()[-1].split()[1:]
    assert answer == ("ok" if ending else "aborted")
    assert int(peak) < _PEAK_LIMIT, f"peak {peak} bytes for a {_HUGE}-byte line"
    assert err.count(note) == 1, err
