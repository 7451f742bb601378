"""Find the few interesting lines of a large binary stream without per-line Python work.

Most lines of adapter output are not signals. Instead of splitting every line,
:class:`LineScanner` takes big chunks, searches them for a needle at C level
(``bytes.find``, on a lower-cased copy when case does not matter) and counts
newlines with ``bytes.count`` to know line numbers. Memory stays bounded by the
chunk size and ``max_line_bytes``: an over-long line is skipped in chunks,
never buffered whole.

The scanner is push-style (``feed(chunk)``, then ``close()``), so that blocking
readers, asyncio readers and the validator share it; :func:`scan_lines` drives
it over a file or pipe (binary, or text encoded back to UTF-8).
"""

import functools
import re
from collections.abc import Iterator
from typing import Final, NamedTuple, Protocol, overload

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "READ_CHUNK_BYTES",
    "LineScanner",
    "Readable",
    "ScannedLine",
    "read_chunks",
    "scan_lines",
    "strip_terminator",
]

DEFAULT_MAX_LINE_BYTES: Final = 1 << 20
"""Lines longer than this (terminator excluded) are skipped in chunks: never signals."""
READ_CHUNK_BYTES: Final = 1 << 20
"""How much the readers ask for at a time."""


@overload
def strip_terminator(line: str) -> str: ...
@overload
def strip_terminator(line: bytes) -> bytes: ...
def strip_terminator(line: str | bytes) -> str | bytes:
    """``line`` without one trailing "\\n" or "\\r\\n", the terminator every reader drops
    (str or bytes alike); any other line is returned as it is.
    """
    if isinstance(line, str):
        if line.endswith("\n"):
            return line[:-2] if line.endswith("\r\n") else line[:-1]
        return line
    if line.endswith(b"\n"):
        return line[:-2] if line.endswith(b"\r\n") else line[:-1]
    return line


def _past_last_newline(buffer: bytes, begin: int, end: int) -> int:
    """Just past the last "\\n" in ``buffer[begin:end]``; ``begin`` when there is none."""
    newline = buffer.rfind(b"\n", begin, end)
    return begin if newline < 0 else newline + 1


class Readable(Protocol):
    """A file or pipe, binary or text: anything with ``read`` (``read1`` is used when present)."""

    def read(self, size: int = -1, /) -> bytes | str: ...


class ScannedLine(NamedTuple):
    """A line the scanner found: it holds the needle, or it is over-long."""

    line_no: int
    """1-based."""
    data: bytes
    """The line without "\\n" (and without the "\\r" of a "\\r\\n"); empty when over-long."""
    overlong: int = 0
    """For a line over ``max_line_bytes``: its length in bytes (terminator excluded)."""


@functools.lru_cache(maxsize=8)
def _long_line(limit: int) -> "re.Pattern[bytes]":
    """Matches the start of a line longer than ``limit``, a "\\r\\n" terminator not counted;
    anchored, so linear in the buffer.
    """
    return re.compile(rb"(?m)^[^\n]{%d}(?:[^\r\n]|\r[^\n])" % limit)


class LineScanner:
    """Push chunks of a byte stream in; get back the lines that hold ``needle``, in order.

    ``at_line_start`` keeps only lines that start with ``needle`` (the exact
    signal prefix, for readers); otherwise the needle may be anywhere on the
    line, and with ``fold_case`` in any case (``needle`` must then be lower
    case). ``report_overlong`` also returns every line longer than
    ``max_line_bytes`` (with ``overlong`` set); otherwise such lines are just
    skipped. A final line without "\\n" counts once :meth:`close` is called.
    """

    def __init__(
        self,
        needle: bytes,
        *,
        at_line_start: bool = False,
        fold_case: bool = False,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        report_overlong: bool = True,
    ) -> None:
        if not needle or b"\n" in needle:
            raise ValueError("the needle is a non-empty byte string without a newline")
        if max_line_bytes < 1:
            raise ValueError("max_line_bytes must be at least 1")
        self._needle = needle
        self._at_line_start = at_line_start
        self._fold_case = fold_case
        self._limit = max_line_bytes
        self._report_overlong = report_overlong
        self._line_no = 1  # the number of the line that starts the carry
        self._carry = bytearray()  # the start of an unfinished line
        self._skipped = 0  # > 0 while inside an over-long line: its bytes so far
        self._skipped_cr = False  # whether the last of those bytes is "\r"

    @property
    def lines(self) -> int:
        """Lines seen so far, a final line without "\\n" included once closed."""
        return self._line_no - 1

    def feed(self, chunk: bytes) -> list[ScannedLine]:
        """Scan one more chunk; return the complete lines found in it.

        Amortised linear whatever the chunking: an unfinished line grows a
        bytearray and only the new chunk is searched for "\\n".
        """
        found: list[ScannedLine] = []
        if not chunk:
            return found
        begin = 0  # where the chunk's unscanned bytes start; always at a line start below
        if self._skipped:
            newline = chunk.find(b"\n")
            if newline < 0:
                self._skipped += len(chunk)
                self._skipped_cr = chunk.endswith(b"\r")
                return found
            if self._report_overlong:
                before_cr = chunk[newline - 1] == 13 if newline else self._skipped_cr
                length = self._skipped + newline - before_cr
                found.append(ScannedLine(self._line_no, b"", length))
            self._line_no += 1
            self._skipped = 0
            begin = newline + 1
        elif self._carry:
            # Only the line that spans the chunk boundary is joined: no copy of the chunk.
            newline = chunk.find(b"\n")
            if newline < 0:
                self._keep(chunk)
                return found
            head = bytes(self._carry) + chunk[: newline + 1]
            self._carry.clear()
            self._line_no = self._lines_in(head, 0, len(head), found)
            begin = newline + 1
        end = _past_last_newline(chunk, begin, len(chunk))
        if end > begin:
            self._line_no = self._lines_in(chunk, begin, end, found)
        if end < len(chunk):
            self._keep(chunk[end:] if end else chunk)
        return found

    def _keep(self, tail: bytes) -> None:
        """Carry more of an unfinished line, or skip it once it is over-long.

        The carry may hold one byte past the limit: a "\\r" that turns out to
        be part of the line's "\\r\\n" terminator, which does not count.
        """
        carried = len(self._carry) + len(tail)
        if carried > self._limit + 1:
            self._skipped, self._skipped_cr = carried, tail.endswith(b"\r")
            self._carry.clear()
        else:
            self._carry += tail

    def close(self) -> list[ScannedLine]:
        """The final line when it has no "\\n"; the scanner is then reset."""
        found: list[ScannedLine] = []
        if self._skipped:
            if self._report_overlong:
                found.append(ScannedLine(self._line_no, b"", self._skipped - self._skipped_cr))
            self._line_no += 1
        elif self._carry:
            buffer = bytes(self._carry) + b"\n"
            self._line_no = self._lines_in(buffer, 0, len(buffer), found)
        self._carry.clear()
        self._skipped = 0
        return found

    def _starts(self, buffer: bytes, begin: int, end: int) -> list[int]:
        """Where the lines of ``buffer[begin:end]`` that hold the needle start."""
        needle = self._needle
        hits: list[int] = []
        if self._at_line_start:
            if buffer.startswith(needle, begin, end):
                hits.append(begin)
            marker = b"\n" + needle
            position = buffer.find(marker, begin, end)
            while position >= 0:
                hits.append(position + 1)
                position = buffer.find(marker, position + 1, end)
            return hits
        if self._fold_case:
            haystack, offset = buffer[begin:end].lower(), begin
        else:
            haystack, offset = buffer, 0
        position = haystack.find(needle, begin - offset, end - offset)
        while position >= 0:
            hit = position + offset
            hits.append(_past_last_newline(buffer, begin, hit))
            position = haystack.find(needle, buffer.find(b"\n", hit) - offset, end - offset)
        return hits

    def _lines_in(self, buffer: bytes, begin: int, end: int, found: list[ScannedLine]) -> int:
        """Scan ``buffer[begin:end]`` (whole lines only); return the line number after them."""
        if self._at_line_start and not self._report_overlong:
            return self._signal_lines(buffer, begin, end, found)
        limit, line_no = self._limit, self._line_no
        hits = self._starts(buffer, begin, end)
        if self._report_overlong and end - begin > limit:
            hits.extend(m.start() for m in _long_line(limit).finditer(buffer, begin, end))
            hits = sorted(set(hits))
        counted = begin
        for start in hits:
            line_no += _newlines(buffer, counted, start)
            counted = start
            stop = buffer.find(b"\n", start)
            if stop > start and buffer[stop - 1] == 13:  # "\r\n": the terminator does not count
                stop -= 1
            if stop - start > limit:
                if self._report_overlong:
                    found.append(ScannedLine(line_no, b"", stop - start))
                continue
            found.append(ScannedLine(line_no, buffer[start:stop]))
        return line_no + _newlines(buffer, counted, end)

    def _signal_lines(self, buffer: bytes, begin: int, end: int, found: list[ScannedLine]) -> int:
        """:meth:`_lines_in` for readers, the hot path: lines that start with the needle."""
        limit, line_no, needle = self._limit, self._line_no, self._needle
        marker, find, append = b"\n" + needle, buffer.find, found.append
        if buffer.startswith(needle, begin, end):
            start = begin
        else:
            start = find(marker, begin, end)
            if start >= 0:
                start += 1  # past the marker's "\n"
        counted = begin
        while start >= 0:
            line_no += _newlines(buffer, counted, start)
            counted = start
            stop = find(b"\n", start)
            length = stop - start
            if length <= limit or (length == limit + 1 and buffer[stop - 1] == 13):
                data = buffer[start:stop]
                if data.endswith(b"\r"):  # the terminator's, which does not count
                    data = data[:-1]
                append(_new_tuple(ScannedLine, (line_no, data, 0)))
            start = find(marker, stop, end)
            if start >= 0:
                start += 1
        return line_no + _newlines(buffer, counted, end)


_new_tuple: Final = tuple.__new__
"""Builds a NamedTuple without the Python-level ``__new__`` (hot paths only)."""


def _newlines(buffer: bytes, start: int, stop: int) -> int:
    """How many "\\n" ``buffer[start:stop]`` holds.

    ``bytes.count`` compares byte by byte; ``bytes.replace`` finds the newlines
    with memchr, which is about twice as fast on log lines, copy included.
    """
    if stop - start < 256:
        return buffer.count(b"\n", start, stop)
    piece = buffer if start == 0 and stop == len(buffer) else buffer[start:stop]
    return len(piece) - len(piece.replace(b"\n", b""))


def read_chunks(stream: Readable, size: int = READ_CHUNK_BYTES) -> Iterator[bytes]:
    """The stream's bytes in chunks of at most ``size`` (``read1`` when the stream has it).

    A text file or pipe is read too: its chunks go back to UTF-8 (see
    :func:`_chunk_bytes`). A ``stream`` without ``read`` is a TypeError.
    """
    read = getattr(stream, "read1", None) or getattr(stream, "read", None)
    if not callable(read):
        raise TypeError(
            f"a signal reader reads a binary or text file or pipe (anything with read()),"
            f" not {type(stream).__name__}; for a list of lines use iter_signals"
        )
    while chunk := read(size):
        yield chunk if type(chunk) is bytes else _chunk_bytes(chunk)


_UNESCAPED_SURROGATES: Final = re.compile("([\ud800-\udc7f\udd00-\udfff]+)")
"""Lone surrogates that ``surrogateescape`` does not stand for a byte with (U+DC80-U+DCFF)."""


def _chunk_bytes(chunk: object) -> bytes:
    """A chunk a text stream (or a buffer) returned, as the bytes a binary stream would give.

    Each code point has its own bytes, whatever else the chunk holds, so where the
    stream cuts its chunks changes no record: ``surrogateescape`` gives back the
    byte a file opened with ``errors="surrogateescape"`` stood in for (U+DC80 to
    U+DCFF), and any other lone surrogate stays invalid UTF-8 (``surrogatepass``),
    so its line is plain output, as a binary stream's would be.
    """
    if isinstance(chunk, str):
        try:
            return chunk.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            parts = _UNESCAPED_SURROGATES.split(chunk)  # other text, surrogates, other text...
            return b"".join(
                part.encode("utf-8", "surrogatepass" if index % 2 else "surrogateescape")
                for index, part in enumerate(parts)
            )
    if isinstance(chunk, bytes | bytearray | memoryview):
        return bytes(chunk)
    raise TypeError(
        f"read() returned {type(chunk).__name__}: a signal reader reads a binary or text stream"
    )


def scan_lines(
    stream: Readable,
    needle: bytes,
    *,
    fold_case: bool = False,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[ScannedLine]:
    """Yield the lines that contain ``needle`` and every over-long line, in order.

    ``needle`` must be lower-case when ``fold_case`` is set. A final line
    without "\\n" counts. The stream is read to its end.
    """
    scanner = LineScanner(needle, fold_case=fold_case, max_line_bytes=max_line_bytes)
    for chunk in read_chunks(stream):
        yield from scanner.feed(chunk)
    yield from scanner.close()
