"""read_signals, aread_signals and SignalScanner: whole-line semantics whatever the chunking."""

from __future__ import annotations

import asyncio
import io
import itertools
import subprocess
import sys
import tracemalloc
from collections.abc import Sequence

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    SignalKind,
    SignalRecord,
    SignalScanner,
    UnknownKindRecord,
    UnknownKindSignal,
    aread_signals,
    parse_signal,
    read_signals,
)
from bernstein_signals.scanning import LineScanner


class _Chunked(io.RawIOBase):
    """A binary stream whose reads return the given sizes in turn (a pipe's short reads)."""

    def __init__(self, data: bytes, sizes: Sequence[int]) -> None:
        self._data, self._sizes = data, list(sizes) or [1 << 20]
        self._pos = self._turn = 0

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        step = min(self._sizes[self._turn % len(self._sizes)], size if size > 0 else 1 << 30)
        self._turn += 1
        chunk = self._data[self._pos : self._pos + step]
        self._pos += len(chunk)
        return chunk

    read = read1


def _lines(data: bytes) -> list[bytes]:
    """The lines of ``data`` without their "\\n"; a final line without one counts."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


def _chunks(data: bytes, sizes: Sequence[int]) -> list[bytes]:
    """``data`` cut into pieces of the given sizes in turn."""
    chunks, position, turn = [], 0, 0
    while position < len(data):
        step = sizes[turn % len(sizes)] if sizes else len(data)
        chunks.append(data[position : position + step])
        position, turn = position + step, turn + 1
    return chunks


def _whole_lines(data: bytes, limit: int) -> list[SignalRecord]:
    """The reference: split into lines, then parse each line that fits the bound."""
    records = []
    for number, line in enumerate(_lines(data), 1):
        bare = line[:-1] if line.endswith(b"\r") else line
        if len(bare) > limit:  # the terminator, "\r\n" too, does not count
            continue
        try:
            text = bare.decode("utf-8")
        except UnicodeDecodeError:
            continue
        signal = parse_signal(text)
        if signal is not None:
            records.append(SignalRecord(number, signal, bare))
    return records


def test_records_line_numbers_crlf_final_line_and_plain_lines() -> None:
    data = (
        b"plain\n"
        b'BERNSTEIN:QUESTION {"question":"Go?","id":"q"}\r\n'
        b"log: BERNSTEIN:COMPLETED\n"
        b"BERNSTEIN:COMPLETED \xff\n"
        b"BERNSTEIN:NOPE\n"
        b"BERNSTEIN:COMPLETED"
    )
    records = list(read_signals(io.BytesIO(data)))
    assert [(r.line_no, r.signal.kind, r.raw) for r in records] == [
        (2, SignalKind.QUESTION, b'BERNSTEIN:QUESTION {"question":"Go?","id":"q"}'),
        (6, SignalKind.COMPLETED, b"BERNSTEIN:COMPLETED"),
    ]
    assert records[0].signal.payload == {"question": "Go?", "id": "q"}


def test_over_long_lines_are_not_signals_and_cost_constant_memory() -> None:
    big = b'BERNSTEIN:PLAN_DRAFT {"markdown":"' + b"a" * (10 << 20) + b'"}\n'
    stream = _Chunked(big + b"BERNSTEIN:COMPLETED\n", [1 << 16])
    tracemalloc.start()
    records = list(read_signals(stream, max_line_bytes=1 << 20))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [(r.line_no, r.signal.kind) for r in records] == [(2, SignalKind.COMPLETED)]
    assert peak < 4 << 20, peak


_PIECES = st.sampled_from(
    [
        b"x",
        b" ",
        b"\n",
        b"\r\n",
        b"\r",
        b"BERNSTEIN:",
        b"BERNSTEIN:COMPLETED",
        b'BERNSTEIN:FAILED {"reason":"r"}',
        b'BERNSTEIN:QUESTION {"question":"q?"}',
        b"COMPLETED",
        b' {"a":1}',
        b"\xff",
        b"\xc3\xa9",
        b"yy" * 9,
    ]
)


@settings(max_examples=400)
@given(
    pieces=st.lists(_PIECES, max_size=40),
    sizes=st.lists(st.integers(min_value=1, max_value=40), max_size=6),
    limit=st.integers(min_value=8, max_value=80),
)
def test_any_chunking_gives_the_records_of_whole_lines(
    pieces: list[bytes], sizes: list[int], limit: int
) -> None:
    data = b"".join(pieces)
    expected = _whole_lines(data, limit)
    assert list(read_signals(_Chunked(data, sizes), max_line_bytes=limit)) == expected

    scanner = SignalScanner(max_line_bytes=limit)
    pushed = [record for chunk in _chunks(data, sizes) for record in scanner.feed(chunk)]
    pushed += scanner.close()
    assert pushed == expected
    assert scanner.lines == len(data.split(b"\n")) - (data.endswith(b"\n") or not data)


async def _aread(chunks: list[bytes], limit: int) -> list[SignalRecord]:
    reader = asyncio.StreamReader()
    for chunk in chunks:
        reader.feed_data(chunk)
    reader.feed_eof()
    return [record async for record in aread_signals(reader, max_line_bytes=limit)]


@settings(max_examples=150)
@given(
    pieces=st.lists(_PIECES, max_size=40),
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=8),
    limit=st.integers(min_value=8, max_value=80),
)
def test_async_reader_agrees_with_whole_lines(
    pieces: list[bytes], cuts: list[int], limit: int
) -> None:
    data = b"".join(pieces)
    bounds = sorted({0, len(data), *(cut for cut in cuts if cut < len(data))})
    chunks = [data[a:b] for a, b in itertools.pairwise(bounds)]
    assert asyncio.run(_aread(chunks, limit)) == _whole_lines(data, limit)


def test_async_reader_reads_a_subprocess_past_the_64_kib_line_limit() -> None:
    script = (
        "import sys\n"
        'sys.stdout.write(\'BERNSTEIN:QUESTION {"question":"Go?"}\\n\')\n'
        "sys.stdout.write('BERNSTEIN:PLAN_DRAFT {\"markdown\":\"' + 'm' * 200000 + '\"}\\n')\n"
        "sys.stdout.write('x' * 3000000 + '\\n')\n"
        "sys.stdout.write('BERNSTEIN:COMPLETED')\n"
    )

    async def main() -> list[tuple[int, SignalKind, int]]:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            script,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
        )
        assert process.stdout is not None
        found = [
            (record.line_no, record.signal.kind, len(record.raw))
            async for record in aread_signals(process.stdout)
        ]
        await process.wait()
        return found

    found = asyncio.run(main())
    assert [(line, kind) for line, kind, _ in found] == [
        (1, SignalKind.QUESTION),
        (2, SignalKind.PLAN_DRAFT),
        (4, SignalKind.COMPLETED),
    ]
    assert found[1][2] > 200000


@settings(max_examples=200)
@given(
    pieces=st.lists(
        st.sampled_from([b"x", b"\n", b"\r\n", b"BERNSTEIN:", b"bernstein", b"\xff", b"yy" * 9]),
        max_size=60,
    ),
    sizes=st.lists(st.integers(min_value=1, max_value=23), min_size=1, max_size=5),
    limit=st.integers(min_value=1, max_value=30),
)
def test_line_start_scanner_reports_over_long_lines_too(
    pieces: list[bytes], sizes: list[int], limit: int
) -> None:
    data = b"".join(pieces)
    scanner = LineScanner(b"BERNSTEIN:", at_line_start=True, max_line_bytes=limit)
    found = [line for chunk in _chunks(data, sizes) for line in scanner.feed(chunk)]
    found += scanner.close()
    expected = []
    for number, line in enumerate(_lines(data), 1):
        bare = line.removesuffix(b"\r")
        if len(bare) > limit:
            expected.append((number, b"", len(bare)))
        elif line.startswith(b"BERNSTEIN:"):
            expected.append((number, bare, 0))
    assert [tuple(line) for line in found] == expected


# -- unknown kinds (opt-in) -----------------------------------------------------

_ANY_PIECES = st.one_of(
    _PIECES, st.sampled_from([b"BERNSTEIN:PROGRESS", b'BERNSTEIN:NEWER {"a":1}', b"NEW_KIND"])
)


def _whole_lines_any(data: bytes, limit: int) -> list[SignalRecord | UnknownKindRecord]:
    """The reference with the opt-in: parse_signal(unknown_kinds=True) on each whole line."""
    records: list[SignalRecord | UnknownKindRecord] = []
    for number, line in enumerate(_lines(data), 1):
        bare = line[:-1] if line.endswith(b"\r") else line
        if len(bare) > limit:
            continue
        try:
            text = bare.decode("utf-8")
        except UnicodeDecodeError:
            continue
        signal = parse_signal(text, unknown_kinds=True)
        if isinstance(signal, UnknownKindSignal):
            records.append(UnknownKindRecord(number, signal, bare))
        elif signal is not None:
            records.append(SignalRecord(number, signal, bare))
    return records


@settings(max_examples=300)
@given(
    pieces=st.lists(_ANY_PIECES, max_size=40),
    sizes=st.lists(st.integers(min_value=1, max_value=40), max_size=6),
    limit=st.integers(min_value=8, max_value=80),
)
def test_readers_opt_in_to_unknown_kinds_whatever_the_chunking(
    pieces: list[bytes], sizes: list[int], limit: int
) -> None:
    data = b"".join(pieces)
    expected = _whole_lines_any(data, limit)
    found = list(read_signals(_Chunked(data, sizes), max_line_bytes=limit, unknown_kinds=True))
    assert found == expected
    assert list(read_signals(_Chunked(data, sizes), max_line_bytes=limit)) == [
        record for record in expected if isinstance(record, SignalRecord)
    ]

    async def aread() -> list[SignalRecord | UnknownKindRecord]:
        reader = asyncio.StreamReader()
        for chunk in _chunks(data, sizes):
            reader.feed_data(chunk)
        reader.feed_eof()
        stream = aread_signals(reader, max_line_bytes=limit, unknown_kinds=True)
        return [record async for record in stream]

    assert asyncio.run(aread()) == expected


def test_unknown_kind_records() -> None:
    data = b'x\nBERNSTEIN:PROGRESS {"percent":5}\r\nBERNSTEIN:COMPLETED\n'
    first, second = read_signals(io.BytesIO(data), unknown_kinds=True)
    assert first == UnknownKindRecord(
        2,
        UnknownKindSignal("PROGRESS", {"percent": 5}, 'BERNSTEIN:PROGRESS {"percent":5}'),
        b'BERNSTEIN:PROGRESS {"percent":5}',
    )
    assert type(second) is SignalRecord
    assert second.signal.kind is SignalKind.COMPLETED
    assert [r.line_no for r in read_signals(io.BytesIO(data))] == [3]


class _TextChunks:
    """A text stream whose reads return the given str chunks in turn."""

    def __init__(self, chunks: Sequence[str]) -> None:
        self._chunks = list(chunks)

    def read(self, size: int = -1) -> str:
        return self._chunks.pop(0) if self._chunks else ""


def _code_point_bytes(text: str) -> bytes:
    """The bytes each code point stands for on its own: U+DC80-U+DCFF the byte a
    ``surrogateescape`` decoder made it from, any other surrogate its invalid UTF-8."""
    return b"".join(
        bytes([ord(char) - 0xDC00])
        if "\udc80" <= char <= "\udcff"
        else char.encode("utf-8", "surrogatepass")
        for char in text
    )


_TEXT_CHARS = st.sampled_from(
    [
        "a",
        "é",
        "\U0001f600",
        "\udcc3",  # with \udca9: the two bytes of "é" a surrogateescape decoder stood in for
        "\udca9",
        "\udcff",
        "\ud83d",  # surrogates surrogateescape stands for no byte with
        "\ude00",
        "\udc7f",
    ]
)
_TEXT_LINES = st.tuples(
    st.sampled_from(['BERNSTEIN:BLOCKED {"reason":"{}"}', "plain {}"]),
    st.lists(_TEXT_CHARS, max_size=6).map("".join),
    st.sampled_from(["\n", "\r\n", ""]),
).map(lambda shape: shape[0].replace("{}", shape[1]) + shape[2])


@settings(max_examples=300)
@given(
    lines=st.lists(_TEXT_LINES, max_size=6),
    cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=6),
)
@example(lines=['BERNSTEIN:BLOCKED {"reason":"\udcc3\udca9"}\n', "plain \ud83d\n"], cuts=[])
@example(lines=['BERNSTEIN:BLOCKED {"reason":"\udcc3\udca9"}\n', "plain \ud83d\n"], cuts=[40])
def test_a_text_streams_chunks_change_no_record(lines: list[str], cuts: list[int]) -> None:
    """Issue 23 item 9, the Python side: a str chunk is encoded code point by code point,
    so where a text stream cuts its chunks changes no record. A lone surrogate that
    stands for no byte used to make the whole chunk ``surrogatepass``, turning a line's
    U+DC80-U+DCFF elsewhere in that chunk from their bytes into invalid UTF-8."""
    text = "".join(lines)
    expected = _whole_lines(_code_point_bytes(text), 1 << 20)
    bounds = sorted({0, len(text), *(cut for cut in cuts if cut < len(text))})
    chunks = [text[a:b] for a, b in itertools.pairwise(bounds)]
    assert list(read_signals(_TextChunks([text]))) == expected
    assert list(read_signals(_TextChunks(chunks))) == expected
    scanner = SignalScanner()
    pushed = [record for chunk in chunks for record in scanner.feed(chunk)]
    assert pushed + scanner.close() == expected
    one_by_one = SignalScanner()
    fed = [record for char in text for record in one_by_one.feed(char)]
    assert fed + one_by_one.close() == expected


def test_a_lone_surrogate_elsewhere_in_the_chunk_leaves_a_line_its_bytes() -> None:
    line = 'BERNSTEIN:BLOCKED {"reason":"\udcc3\udca9"}'
    (record,) = read_signals(_TextChunks([f"{line}\nplain \ud83d\n"]))
    assert (record.line_no, record.signal.payload) == (1, {"reason": "é"})
    in_the_line = 'BERNSTEIN:BLOCKED {"reason":"\udcc3\udca9\ud83d"}\n'  # invalid UTF-8 there
    assert list(read_signals(_TextChunks([in_the_line]))) == []
