"""Issue 16 items 3-4: an orchestrator reads a process's output with whatever it has at hand.

One rule: every line API (parse_signal, iter_signals, parse_reply, has_terminal_signal,
check_terminal_signal) takes str and bytes lines, bytes read as UTF-8 and a
line that is not UTF-8 plain output, as the stream readers have it; the
stream readers take binary and text files. A value that is no line is plain
output (parsers never raise on what a stream holds); a wrong container (one
str for a list of lines, a list for a stream) is a TypeError that says what
to pass. The terminal pair takes the same things: lines, signals or records.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bernstein_signals as bs

_ADAPTER = (
    "import sys\n"
    "print('building')\n"
    'print(\'BERNSTEIN:QUESTION {"question":"Apply migration?","id":"q-1"}\')\n'
    "sys.stdout.buffer.write(b'caf\\xe9 not utf-8\\n')\n"
    "print('BERNSTEIN:COMPLETED')\n"
)


def _run(**options: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-c", _ADAPTER],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        **options,
    )


@pytest.mark.timeout(60)
def test_the_users_three_calls_find_the_signals() -> None:
    with _run() as binary:  # iter_signals(proc.stdout) on a binary pipe
        kinds = [signal.kind for signal in bs.iter_signals(binary.stdout)]  # type: ignore[arg-type]
    assert kinds == [bs.SignalKind.QUESTION, bs.SignalKind.COMPLETED]
    with _run() as again:  # check_terminal_signal(p.stdout.readlines())
        assert bs.check_terminal_signal(again.stdout.readlines(), run_id="r") is None  # type: ignore[union-attr]
    with _run(text=True, errors="surrogateescape") as text:  # a text pipe, to read_signals
        records = list(bs.read_signals(text.stdout))  # type: ignore[arg-type]
    with _run() as binary:
        assert records == list(bs.read_signals(binary.stdout))  # type: ignore[arg-type]
    assert [record.line_no for record in records] == [2, 4]


def test_read_signals_reads_a_file_opened_in_text_mode(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    log.write_bytes(b'x\r\nBERNSTEIN:PLAN_READY {"path":".sdd/a.md"}\r\nBERNSTEIN:FAILED\n')
    with log.open(encoding="utf-8") as text, log.open("rb") as binary:
        assert list(bs.read_signals(text)) == list(bs.read_signals(binary))
    with log.open(encoding="utf-8") as text:
        assert bs.has_terminal_signal(bs.read_signals(text))


def test_the_terminal_pair_takes_lines_signals_and_records() -> None:
    line = "BERNSTEIN:COMPLETED"
    signal = bs.parse_signal(line)
    record = next(bs.read_signals(io.BytesIO(line.encode())))
    unknown = bs.parse_signal("BERNSTEIN:PROGRESS", unknown_kinds=True)
    for items in ([line], [line.encode()], [signal], [record], ["x", b"y", signal]):
        assert bs.has_terminal_signal(items)
        assert bs.check_terminal_signal(items, run_id="r") is None
    for missing in ([], ["BERNSTEIN:QUESTION {}"], [unknown], ["  BERNSTEIN:FAILED"]):
        assert not bs.has_terminal_signal(missing)
        assert isinstance(bs.check_terminal_signal(missing, run_id="r"), bs.MissingTerminalSignal)
    assert bs.has_terminal_signal(["  BERNSTEIN:FAILED"], lenient=True)
    assert bs.check_terminal_signal(["  BERNSTEIN:FAILED"], run_id="r", lenient=True) is None
    for check in (bs.has_terminal_signal, bs.check_terminal_signal):
        assert check.__doc__


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: list(bs.iter_signals("BERNSTEIN:COMPLETED")), r"not one str; split it first"),
        (lambda: list(bs.iter_signals(b"BERNSTEIN:COMPLETED")), r"not one bytes"),
        (
            lambda: list(bs.read_signals(["BERNSTEIN:COMPLETED"])),  # type: ignore[call-overload]
            r"not list; for a list of lines use iter_signals",
        ),
        (lambda: bs.has_terminal_signal("BERNSTEIN:COMPLETED"), r"not one str; split the output"),
        (lambda: bs.check_terminal_signal(b"BERNSTEIN:COMPLETED", run_id="r"), r"not one bytes"),
        (lambda: list(bs.read_signals(io.BytesIO(b"x"), max_line_bytes=1)), None),
    ],
)
def test_a_wrong_container_says_what_to_pass(call: object, message: str | None) -> None:
    if message is None:  # the control: a right type raises nothing
        call()  # type: ignore[operator]
        return
    with pytest.raises(TypeError, match=message):
        call()  # type: ignore[operator]


class _Reads:
    def read(self, size: int = -1) -> object:
        return 42


def test_a_stream_whose_read_gives_no_bytes_or_text_is_named() -> None:
    with pytest.raises(TypeError, match="read\\(\\) returned int"):
        list(bs.read_signals(_Reads()))  # type: ignore[call-overload]


def test_values_that_are_no_line_are_no_terminal() -> None:
    assert not bs.has_terminal_signal([{"kind": "COMPLETED"}, None, 3])
    assert bs.has_terminal_signal([{"kind": "COMPLETED"}, None, b"BERNSTEIN:COMPLETED"])


_signalish = st.sampled_from(
    [
        "BERNSTEIN:COMPLETED",
        'BERNSTEIN:FAILED {"reason":"exit 1"}',
        'BERNSTEIN:QUESTION {"question":"ok?","id":"q"}',
        '  BERNSTEIN:BLOCKED {"reason":"r"}  ',
        "BERNSTEIN:PROGRESS {}",
        'BERNSTEIN:COMPLETED {"x":"é"}',
    ]
).map(str.encode)
_line = st.one_of(_signalish, st.binary(max_size=20).filter(lambda b: b"\n" not in b))
_lines = st.lists(st.tuples(_line, st.sampled_from([b"\n", b"\r\n"])), max_size=12)


@given(_lines, st.booleans(), st.booleans())
def test_bytes_and_str_forms_of_the_same_output_give_the_same_signals(
    pairs: list[tuple[bytes, bytes]], lenient: bool, unknown: bool
) -> None:
    byte_lines = [line + end for line, end in pairs]
    text_lines = []
    for line in byte_lines:
        try:
            text_lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            continue  # a line that is not UTF-8 is plain output in both forms
    options = {"lenient": lenient, "unknown_kinds": unknown}
    from_bytes = list(bs.iter_signals(byte_lines, lenient=lenient, unknown_kinds=unknown))
    assert from_bytes == list(bs.iter_signals(text_lines, lenient=lenient, unknown_kinds=unknown))
    for line in byte_lines:
        try:
            expected = bs.parse_signal(line.decode("utf-8"), **options)
        except UnicodeDecodeError:
            expected = None
        assert bs.parse_signal(line, **options) == expected
    assert bs.has_terminal_signal(byte_lines, lenient=lenient) == bs.has_terminal_signal(
        text_lines, lenient=lenient
    )
    assert bs.has_terminal_signal(byte_lines, lenient=lenient) == any(
        s.is_terminal for s in from_bytes
    )
    data = b"".join(byte_lines)
    binary = list(bs.read_signals(io.BytesIO(data), unknown_kinds=unknown))
    text = io.TextIOWrapper(
        io.BytesIO(data), encoding="utf-8", errors="surrogateescape", newline=""
    )
    assert list(bs.read_signals(text, unknown_kinds=unknown)) == binary
    if not lenient:
        assert [record.signal for record in binary] == from_bytes
        assert bs.has_terminal_signal(binary) == bs.has_terminal_signal(byte_lines)


@given(_lines, st.integers(1, 7))
def test_signal_scanner_takes_text_chunks_as_their_utf8(
    pairs: list[tuple[bytes, bytes]], step: int
) -> None:
    data = b"".join(line + end for line, end in pairs)
    text = data.decode("utf-8", "surrogateescape")
    binary, textual = bs.SignalScanner(), bs.SignalScanner()
    expected = [r for i in range(0, len(data), step) for r in binary.feed(data[i : i + step])]
    found = [r for i in range(0, len(text), step) for r in textual.feed(text[i : i + step])]
    assert found + textual.close() == expected + binary.close()


_replyish = st.sampled_from(
    [
        '{"answer":"yes","in_reply_to":"q-1"}',
        '{"answer":"é","in_reply_to":null}',
        '{"answer":1,"in_reply_to":null}',
        "not a reply",
    ]
).map(str.encode)


@given(st.one_of(_replyish, st.binary(max_size=20)), st.sampled_from([b"", b"\n", b"\r\n"]))
def test_parse_reply_reads_bytes_as_their_utf8(line: bytes, end: bytes) -> None:
    """An adapter reading its stdin in binary gets the same reply as one reading text."""
    try:
        expected = bs.parse_reply((line + end).decode("utf-8"))
    except UnicodeDecodeError:
        expected = None
    assert bs.parse_reply(line + end) == expected
    assert bs.parse_reply(bytearray(line + end)) == expected
