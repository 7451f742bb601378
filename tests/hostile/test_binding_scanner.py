"""The scanners against a plain reference splitter, whatever the bytes, chunking and limit.

Issue 10 items 10 and 15: the carry of an unfinished line was joined with
every chunk (quadratic in 1-byte feeds), and a line of exactly
``max_line_bytes`` followed by "\\r\\n" was refused as too long. The property
draws limits at, just under and just over the lines' own lengths, so an
off-by-one at the terminator cannot come back.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import LineScanner, ScannedLine, SignalRecord, SignalScanner, parse_signal

_NEEDLE = b"BERNSTEIN:"

_PIECES = st.one_of(
    st.sampled_from(
        [
            b"\n",
            b"\r\n",
            b"\r",
            b"\r\r\n",
            _NEEDLE,
            b"bernstein:",
            b"BERNSTEIN:COMPLETED",
            b'BERNSTEIN:FAILED {"reason":"r"}',
            b" {}",
            b"\xff",
            b"\x00",
            b"x",
        ]
    ),
    st.binary(max_size=12),
)


def _lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


def _reference(
    data: bytes, *, at_line_start: bool, fold_case: bool, limit: int, report_overlong: bool
) -> list[ScannedLine]:
    """What LineScanner must return: split, drop one "\\r" of "\\r\\n", then compare."""
    needle = _NEEDLE.lower() if fold_case else _NEEDLE
    found = []
    for number, line in enumerate(_lines(data), 1):
        bare = line.removesuffix(b"\r")
        if len(bare) > limit:
            if report_overlong:
                found.append(ScannedLine(number, b"", len(bare)))
            continue
        if at_line_start:  # the exact prefix: fold_case applies to needles anywhere
            hit = bare.startswith(needle)
        else:
            hit = needle in (bare.lower() if fold_case else bare)
        if hit:
            found.append(ScannedLine(number, bare))
    return found


def _signal_reference(data: bytes, limit: int) -> list[SignalRecord]:
    records = []
    for line in _reference(
        data, at_line_start=True, fold_case=False, limit=limit, report_overlong=False
    ):
        try:
            signal = parse_signal(line.data.decode("utf-8"))
        except UnicodeDecodeError:
            continue
        if signal is not None:
            records.append(SignalRecord(line.line_no, signal, line.data))
    return records


def _cut(data: bytes, sizes: list[int]) -> list[bytes]:
    chunks, position, turn = [], 0, 0
    while position < len(data):
        step = sizes[turn % len(sizes)]
        chunks.append(data[position : position + step])
        position, turn = position + step, turn + 1
    return chunks


@st.composite
def _cases(draw: st.DrawFn) -> tuple[bytes, list[int], int]:
    data = b"".join(draw(st.lists(_PIECES, max_size=30)))
    lengths = [len(line.removesuffix(b"\r")) for line in _lines(data)] or [1]
    near = draw(st.sampled_from(lengths)) + draw(st.integers(min_value=-1, max_value=1))
    limit = max(1, near) if draw(st.booleans()) else draw(st.integers(1, 64))
    sizes = draw(st.lists(st.integers(min_value=1, max_value=17), min_size=1, max_size=5))
    return data, sizes, limit


@settings(max_examples=600)
@given(
    case=_cases(),
    at_line_start=st.booleans(),
    fold_case=st.booleans(),
    report_overlong=st.booleans(),
)
def test_line_scanner_equals_the_reference_splitter(
    case: tuple[bytes, list[int], int], at_line_start: bool, fold_case: bool, report_overlong: bool
) -> None:
    data, sizes, limit = case
    needle = _NEEDLE.lower() if fold_case else _NEEDLE
    scanner = LineScanner(
        needle,
        at_line_start=at_line_start,
        fold_case=fold_case,
        max_line_bytes=limit,
        report_overlong=report_overlong,
    )
    found = [line for chunk in _cut(data, sizes) for line in scanner.feed(chunk)]
    found += scanner.close()
    expected = _reference(
        data,
        at_line_start=at_line_start,
        fold_case=fold_case,
        limit=limit,
        report_overlong=report_overlong,
    )
    assert [tuple(line) for line in found] == [tuple(line) for line in expected]
    assert scanner.lines == len(_lines(data))


@settings(max_examples=400)
@given(case=_cases())
def test_signal_scanner_equals_the_reference_splitter(case: tuple[bytes, list[int], int]) -> None:
    data, sizes, limit = case
    scanner = SignalScanner(max_line_bytes=limit)
    found = [record for chunk in _cut(data, sizes) for record in scanner.feed(chunk)]
    found += scanner.close()
    assert found == _signal_reference(data, limit)


def test_a_line_of_exactly_the_limit_with_crlf_is_kept() -> None:
    line = b'BERNSTEIN:FAILED {"reason":"r"}'
    for data in (line + b"\r\n", line + b"\r\nx", line + b"\r"):
        for size in (1, 2, len(line), len(line) + 1, len(data)):
            scanner = SignalScanner(max_line_bytes=len(line))
            found = [r for chunk in _cut(data, [size]) for r in scanner.feed(chunk)]
            found += scanner.close()
            assert [r.raw for r in found] == [line], (data, size)
        overlong = SignalScanner(max_line_bytes=len(line) - 1)
        assert overlong.feed(data) + overlong.close() == []
