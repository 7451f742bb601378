"""bernstein_emit, bernstein_run and bernstein_ask."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from shell_support import (
    LIBRARY,
    SHELLS,
    UTF8,
    Result,
    helper_format,
    reference_format,
    run,
    shell_command,
)


def test_emit_sorts_keys_and_takes_raw_json(shell: str) -> None:
    body = """set -eu
bernstein_emit COMPLETED summary='3 files changed' tokens:=1520 \\
  a_1:='{"z": [1, -2.5e+3, true, false, null, "\\u00e9"]}' a:=null a_:='"x"'
bernstein_emit PLAN_READY path=.sdd/p.md steps:=4
bernstein_emit COMPLETED"""
    result = run(shell, body)
    assert result.stderr == b""
    # key:=JSON is written in canonical form, not copied (issue 15): format_signal's bytes.
    assert result.lines == [
        reference_format(
            "COMPLETED",
            {
                "a": None,
                "a_": "x",
                "a_1": {"z": [1, -2500, True, False, None, "\u00e9"]},
                "summary": "3 files changed",
                "tokens": 1520,
            },
        ),
        reference_format("PLAN_READY", {"path": ".sdd/p.md", "steps": 4}),
        b"BERNSTEIN:COMPLETED",
    ]


@pytest.mark.parametrize(
    "args",
    [
        "",
        "completed",
        "'COMPLETED X'",
        "1ABC",
        "X k",
        "X '=v'",
        "X Key=v",
        "X k-1=v",
        "X k=1 k=2",
        "X k:=",
        "X k:='{'",
        "X k:='[1,]'",
        "X k:='{\"a\":1,}'",
        "X k:='{\"a\" 1}'",
        "X k:='[1 2]'",
        "X k:='01'",
        "X k:='1.'",
        "X k:='-'",
        "X k:='1e'",
        "X k:='tru'",
        "X k:='\"a'",
        "X k:='\"\\x\"'",
        "X k:='\"\\u12\"'",
        "X k:='[1]]'",
        "X k:='{}}'",
        "X k:='{1:2}'",
        "X k:='1 2'",
        "X k:=\"$(printf '[1,\\n2]')\"",
        'X k:="$(printf \'"a\\tb"\')"',
    ],
)
def test_emit_refuses(shell: str, args: str) -> None:
    result = run(shell, f"bernstein_emit {args}\necho status=$? >&2")
    assert result.stdout == b""
    assert b"status=2" in result.stderr


def test_emit_accepts_json_whitespace_and_nesting(shell: str) -> None:
    raw = '{ "a" : [ [ ] , { } , "\\"\\\\\\/\\b\\f\\n\\r\\t\\ud83d\\ude00" ] ,\t"b":0.5E-2 }'
    result = run(shell, 'bernstein_emit X "k:=$1"', raw)
    assert result.lines == [reference_format("X", {"k": json.loads(raw)})]


def test_run_reports_success_and_failure(shell: str) -> None:
    body = """set -eu
bernstein_run echo hello
bernstein_run sh -c 'printf partial; exit 3' || echo " status=$?"
bernstein_run false || echo "status=$?"
"""
    result = run(shell, body)
    assert result.lines == [
        b"hello",
        helper_format("COMPLETED"),
        b"partial" + helper_format("FAILED", {"reason": "exit 3"}),
        b" status=3",
        helper_format("FAILED", {"reason": "exit 1"}),
        b"status=1",
    ]


def test_run_under_set_e_stops_the_script_after_failed(shell: str) -> None:
    result = run(shell, "set -eu\nbernstein_run sh -c 'exit 4'\necho not reached")
    assert result.lines == [helper_format("FAILED", {"reason": "exit 4"})]
    assert result.status == 4


# -- bernstein_ask ----------------------------------------------------------------


def _ask(shell: str, replies: bytes, *args: str, after: str = 'printf "[%s]" "$A" >&2') -> Result:
    call = "bernstein_ask --var A " + " ".join(f"'{a}'" for a in args)
    return run(shell, f"set -eu\nA=unset\n{call}\n{after}", stdin=replies)


def test_ask_emits_the_question_and_stores_the_answer(shell: str) -> None:
    replies = (
        b'{"in_reply_to":"q-0","answer":"other"}\n'
        b'{ "answer" :\t"y\\u00e9s\\n\\ud83d\\ude00 %s \\\\ \\" \\/ \\t\\b\\f\\r $(x) `y`",'
        b' "in_reply_to" : "q-1" }\r\n'
        b'{"in_reply_to":"q-1","answer":"too late"}\n'
    )
    result = _ask(shell, replies, "Apply?", "--options", "yes", "--id", "q-1")
    assert result.lines == [
        reference_format("QUESTION", {"question": "Apply?", "options": ["yes"], "id": "q-1"})
    ]
    assert result.stderr.endswith('[yés\n😀 %s \\ " / \t\b\f\r $(x) `y`]'.encode())
    assert b"skipping a reply" in result.stderr
    assert result.status == 0


def test_ask_without_id_takes_the_first_null_reply(shell: str) -> None:
    replies = b'{"in_reply_to":"q-9","answer":"no"}\n{"answer":"","in_reply_to":null}\n'
    result = _ask(shell, replies, "Go?")
    assert result.lines == [reference_format("QUESTION", {"question": "Go?"})]
    assert result.stderr.endswith(b"[]")


def test_ask_default_variable_and_no_answer_on_stdout(shell: str) -> None:
    body = 'out=$(bernstein_ask "Go?" --id x)\nprintf "%s|%s" "$out" "$BERNSTEIN_ANSWER" >&2'
    result = run(shell, body, stdin=b'{"in_reply_to":"x","answer":"secret"}\n')
    assert result.stdout == b""
    assert result.stderr == b'BERNSTEIN:QUESTION {"id":"x","question":"Go?"}|'
    body = 'bernstein_ask "Go?" --id x\nprintf "[%s]" "$BERNSTEIN_ANSWER" >&2'
    result = run(shell, body, stdin=b'{"in_reply_to":"x","answer":"secret"}\n')
    assert b"secret" not in result.stdout
    assert result.stderr == b"[secret]"


@pytest.mark.parametrize(
    ("replies", "message"),
    [
        (b"", b"end of input"),
        (b'{"in_reply_to":"other","answer":"x"}\n', b"end of input"),
    ],
)
def test_ask_failures(shell: str, replies: bytes, message: bytes) -> None:
    result = _ask(shell, replies, "Q", "--id", "q", after="")
    assert result.status == 1
    assert message in result.stderr


NOT_REPLIES = [
    b"not json",
    b"",
    b"   ",
    b'{"in_reply_to":"q","answer":"a\\u0000b"}',
    b'{"in_reply_to":"q","answer":"\\ud800"}',
    b'{"in_reply_to":"q","answer":"\\udc00"}',
    b'{"in_reply_to":"q","answer":1}',
    b'{"in_reply_to":"q"}',
    b'{"in_reply_to":"q","answer":"a","x":1}',
    b'{"in_reply_to":"q","answer":"a","answer":"b"}',
    b'{"in_reply_to":"","answer":"a"}',
    b'{"in_reply_to":"q","answer":"a"} x',
    b'{"in_reply_to":"q","answer":"a\tb"}',
    b"x" * 200 + b"\x01",
]


@pytest.mark.parametrize("line", NOT_REPLIES)
def test_ask_skips_a_line_that_is_not_a_reply_with_one_note(shell: str, line: bytes) -> None:
    """Issue 16 item 2: as Python's ask() does, each such line is noted and skipped."""
    replies = line + b'\n{"in_reply_to":"q","answer":"ok"}\n'
    result = _ask(shell, replies, "Q", "--id", "q")
    assert result.status == 0
    notes = result.stderr.split(b"\n")
    assert notes[0].startswith(b"bernstein_ask: skipping a line that is not a reply: ")
    shown = notes[0].removeprefix(b"bernstein_ask: skipping a line that is not a reply: ")
    text = line.decode()
    assert shown == json.dumps(text[:80], ensure_ascii=False).encode() + (
        b"..." if len(text) > 80 else b""
    )
    assert notes[1:] == [b"[ok]"]


def test_ask_takes_a_last_line_without_newline(shell: str) -> None:
    result = _ask(shell, b'{"in_reply_to":"q","answer":"ok"}', "Q", "--id", "q")
    assert result.stderr.endswith(b"[ok]")


@pytest.mark.parametrize("var", ["1x", "a-b", "", "_bsig_x", "a b", "é"])
def test_ask_checks_the_variable_name_first(shell: str, var: str) -> None:
    result = run(shell, f"bernstein_ask --var '{var}' Q\necho status=$? >&2", stdin=b"")
    assert result.stdout == b""
    assert b"status=2" in result.stderr


def test_ask_passes_its_question_through(shell: str) -> None:
    body = "bernstein_ask --var A --id --var -- --timeout\necho status=$? >&2"
    result = run(shell, body, stdin=b'{"in_reply_to":"--var","answer":"ok"}\n')
    assert result.lines == [reference_format("QUESTION", {"question": "--timeout", "id": "--var"})]


def test_ask_timeout(shell: str) -> None:
    result = run(shell, "bernstein_ask --timeout 0.2 Q\necho status=$? >&2", stdin=b"")
    if shell == "dash":
        assert result.stdout == b""
        assert b"no -t" in result.stderr
        assert b"status=2" in result.stderr
    else:
        assert b"status=1" in result.stderr
    result = run(shell, "bernstein_ask --timeout x Q\necho status=$? >&2", stdin=b"")
    assert b"status=2" in result.stderr
    assert result.stdout == b""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("shell_name", [name for name in SHELLS if name != "dash"])
def test_ask_timeout_bounds_the_whole_wait_skipped_lines_included(shell_name: str) -> None:
    """A line that is not the reply every 0.1 s never restarts the clock of --timeout."""
    body = "bernstein_ask --var A --timeout 0.5 Q >/dev/null\nprintf 'status=%s' \"$?\" >&2"
    script = f'. "{LIBRARY}"\n{body}\n'
    with subprocess.Popen(
        [*shell_command(shell_name), "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={"LC_ALL": UTF8, "PATH": os.environ.get("PATH", "")},
    ) as process:
        assert process.stdin is not None
        start = time.monotonic()
        lines = 0
        while process.poll() is None and time.monotonic() - start < 20:
            try:
                process.stdin.write(
                    b"garbage\n" if lines % 2 else b'{"in_reply_to":"x","answer":"n"}\n'
                )
                process.stdin.flush()
            except BrokenPipeError:
                break
            lines += 1
            time.sleep(0.1)
        elapsed = time.monotonic() - start
        _, stderr = process.communicate(timeout=30)
    assert stderr.endswith(b"status=1"), stderr
    assert b"no reply within 0.5 seconds" in stderr
    assert b"skipping a line that is not a reply" in stderr
    assert elapsed < 10, elapsed  # unbounded, it would run the whole 20 s


@pytest.mark.timeout(60)
@pytest.mark.parametrize("shell_name", [name for name in SHELLS if name != "dash"])
def test_ask_timeout_keeps_a_partial_line_for_the_next_call(shell_name: str) -> None:
    """Half a reply, a stall past the timeout, then the rest: status 1, nothing lost.

    dash has no read -t: there --timeout is refused (test_ask_timeout).
    """
    body = """bernstein_ask --var A --timeout 0.3 Q >/dev/null
first=$?
bernstein_ask --var A Q >/dev/null
printf '%s %s [%s]' "$first" "$?" "$A" >&2"""
    script = f'. "{LIBRARY}"\n{body}\n'
    with subprocess.Popen(
        [*shell_command(shell_name), "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={"LC_ALL": UTF8, "PATH": os.environ.get("PATH", "")},
    ) as process:
        assert process.stdin is not None
        process.stdin.write(b'{"in_reply_to":null,"ans')
        process.stdin.flush()
        time.sleep(1.0)
        _, stderr = process.communicate(b'wer":"ok \\u00e9"}\n', timeout=30)
    assert stderr.endswith("1 0 [ok é]".encode()), stderr
    assert b"no reply within 0.3 seconds" in stderr
