"""Find the few interesting lines of a large binary stream without per-line Python work.

Most lines of adapter output are not signals. Instead of splitting every line,
:class:`LineScanner` takes big chunks, searches them for a needle at C level
(``bytes.find``, on a lower-cased copy when case does not matter) and counts
newlines with ``bytes.count`` to know line numbers. Memory stays bounded by the
chunk size and ``max_line_bytes``: an over-long line is skipped in chunks,
never buffered whole.

The scanner is push-style (``feed(chunk)``, then ``close()``), so that blocking
readers, asyncio readers and the validator share it; :func:`scan_lines` drives
it over a binary file or pipe.
"""

import functools
import re
from collections.abc import Iterator
from typing import Final, NamedTuple, Protocol

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "READ_CHUNK_BYTES",
    "LineScanner",
    "Readable",
    "ScannedLine",
    "read_chunks",
    "scan_lines",
]

DEFAULT_MAX_LINE_BYTES: Final = 1 << 20
"""Lines longer than this (terminator excluded) are skipped in chunks: never signals."""
READ_CHUNK_BYTES: Final = 1 << 20
"""How much the readers ask for at a time."""


class Readable(Protocol):
    """A binary file or pipe: anything with ``read`` (``read1`` is used when present)."""

    def read(self, size: int = -1, /) -> bytes: ...


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
    """Matches the start of a line longer than ``limit``; anchored, so linear in the buffer."""
    return re.compile(rb"(?m)^[^\n]{%d}" % (limit + 1))


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
        self._carry = b""
        self._skipped = 0  # > 0 while inside an over-long line: its bytes so far

    @property
    def lines(self) -> int:
        """Lines seen so far, a final line without "\\n" included once closed."""
        return self._line_no - 1

    def feed(self, chunk: bytes) -> list[ScannedLine]:
        """Scan one more chunk; return the complete lines found in it."""
        found: list[ScannedLine] = []
        if self._skipped:
            newline = chunk.find(b"\n")
            if newline < 0:
                self._skipped += len(chunk)
                return found
            if self._report_overlong:
                found.append(ScannedLine(self._line_no, b"", self._skipped + newline))
            self._line_no += 1
            chunk = chunk[newline + 1 :]
            self._skipped = 0
        buffer = self._carry + chunk if self._carry else chunk
        end = buffer.rfind(b"\n") + 1
        self._carry = buffer[end:]
        if len(self._carry) > self._limit:
            self._skipped, self._carry = len(self._carry), b""
        if end:
            self._line_no = self._lines_in(buffer, end, found)
        return found

    def close(self) -> list[ScannedLine]:
        """The final line when it has no "\\n"; the scanner is then reset."""
        found: list[ScannedLine] = []
        if self._skipped:
            if self._report_overlong:
                found.append(ScannedLine(self._line_no, b"", self._skipped))
            self._line_no += 1
        elif self._carry:
            buffer = self._carry + b"\n"
            self._line_no = self._lines_in(buffer, len(buffer), found)
        self._carry, self._skipped = b"", 0
        return found

    def _starts(self, buffer: bytes, end: int) -> list[int]:
        """Where the lines of ``buffer[:end]`` that hold the needle start."""
        needle = self._needle
        hits: list[int] = []
        if self._at_line_start:
            if buffer.startswith(needle, 0, end):
                hits.append(0)
            marker = b"\n" + needle
            position = buffer.find(marker, 0, end)
            while position >= 0:
                hits.append(position + 1)
                position = buffer.find(marker, position + 1, end)
            return hits
        haystack = buffer[:end].lower() if self._fold_case else buffer
        position = haystack.find(needle, 0, end)
        while position >= 0:
            hits.append(buffer.rfind(b"\n", 0, position) + 1)
            position = haystack.find(needle, buffer.find(b"\n", position), end)
        return hits

    def _lines_in(self, buffer: bytes, end: int, found: list[ScannedLine]) -> int:
        """Scan ``buffer[:end]`` (whole lines only); return the line number after them."""
        limit, line_no = self._limit, self._line_no
        hits = self._starts(buffer, end)
        if self._report_overlong and end > limit:
            hits.extend(match.start() for match in _long_line(limit).finditer(buffer, 0, end))
            hits = sorted(set(hits))
        counted = 0
        for start in hits:
            line_no += buffer.count(b"\n", counted, start)
            counted = start
            stop = buffer.find(b"\n", start)
            if stop - start > limit:
                if self._report_overlong:
                    found.append(ScannedLine(line_no, b"", stop - start))
                continue
            data = buffer[start:stop]
            found.append(ScannedLine(line_no, data[:-1] if data.endswith(b"\r") else data))
        return line_no + buffer.count(b"\n", counted, end)


def read_chunks(stream: Readable, size: int = READ_CHUNK_BYTES) -> Iterator[bytes]:
    """The stream's bytes in chunks of at most ``size`` (``read1`` when the stream has it)."""
    read = getattr(stream, "read1", stream.read)
    while chunk := read(size):
        yield chunk


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
