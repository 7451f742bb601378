"""ask() on real pipes: nothing the caller or a later reader needs is lost (issue 10 items 13, 14).

Each case runs an adapter in a subprocess with a real pipe as its stdin,
so the interpreter's own ``sys.stdin`` buffering is what is tested.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

_ADAPTER_PRELUDE = """
import sys
from bernstein_signals import QuestionTimeout, ask
"""


def _run(script: str, stdin_data: bytes, *, env: dict[str, str] | None = None) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", _ADAPTER_PRELUDE + textwrap.dedent(script)],
        input=stdin_data,
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout.decode(), done.stderr.decode()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("timeout", ["None", "30"])
def test_input_then_ask_with_both_lines_already_in_the_pipe(timeout: str) -> None:
    out, _ = _run(
        f"""
        name = input()
        answer = ask("Go?", timeout={timeout})
        rest = sys.stdin.readline()
        print("got", name, answer, rest.strip())
        """,
        b'alice\n{"answer":"yes","in_reply_to":null}\nafter\n',
    )
    assert out.splitlines()[-1] == "got alice yes after"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("stream", ["sys.stdin", "sys.stdin.buffer"])
@pytest.mark.parametrize("encoding", ["utf-8", "ascii:surrogateescape"])
def test_a_reply_that_is_not_utf8_is_skipped_with_a_note(stream: str, encoding: str) -> None:
    out, err = _run(
        f"""
        print("answer:", ask("Go?", stdin={stream}, timeout=30))
        """,
        b'{"answer":"caf\xe9","in_reply_to":null}\n{"answer":"ok","in_reply_to":null}\n',
        env={"PYTHONIOENCODING": encoding},
    )
    assert out.splitlines()[-1] == "answer: ok"
    assert "not UTF-8" in err
    assert len(err.splitlines()) == 1


@pytest.mark.timeout(120)
def test_a_half_reply_at_the_timeout_is_kept_for_the_next_ask() -> None:
    """Half a reply, a stall past the timeout, then the rest: the next ask() gets it whole."""
    script = _ADAPTER_PRELUDE + textwrap.dedent(
        """
        try:
            ask("First?", timeout=0.5)
        except QuestionTimeout:
            print("timed out", flush=True)
        print("answer:", ask("First?", timeout=30), flush=True)
        print("then:", sys.stdin.readline().strip(), flush=True)
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as adapter:
        assert adapter.stdin is not None
        assert adapter.stdout is not None
        try:
            assert adapter.stdout.readline().startswith(b"BERNSTEIN:QUESTION")
            adapter.stdin.write(b'{"answer":"ha')
            adapter.stdin.flush()
            assert adapter.stdout.readline() == b"timed out\n"
            time.sleep(0.2)
            out, err = adapter.communicate(b'lf","in_reply_to":null}\nlater line\n', timeout=60)
        finally:
            adapter.kill()
    assert adapter.returncode == 0, err
    assert out.decode().splitlines()[-2:] == ["answer: half", "then: later line"]
