"""Find the few interesting lines of a large binary stream without per-line Python work.

Most lines of adapter output are not signals. Instead of splitting every line,
the scanner reads big chunks, searches them for a needle at C level
(``bytes.find``, on a lower-cased copy when case does not matter) and counts
newlines with ``bytes.count`` to know line numbers. Memory stays bounded by the
chunk size and ``max_line_bytes``: an over-long line is skipped in chunks,
never buffered whole.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Generator, Iterator
from typing import NamedTuple, Protocol

__all__ = ["DEFAULT_MAX_LINE_BYTES", "Readable", "ScannedLine", "scan_lines"]

DEFAULT_MAX_LINE_BYTES = 1 << 20
_CHUNK = 1 << 20


class Readable(Protocol):
    """A binary file or pipe: anything with ``read`` (``read1`` is used when present)."""

    def read(self, size: int = -1, /) -> bytes: ...


class ScannedLine(NamedTuple):
    line_no: int
    """1-based."""
    data: bytes
    """The line without "\\n" (and without the "\\r" of a "\\r\\n"); empty when over-long."""
    overlong: int = 0
    """For a line over ``max_line_bytes``: its length in bytes (terminator excluded)."""


def _read(stream: Readable) -> Iterator[bytes]:
    read = getattr(stream, "read1", stream.read)
    while chunk := read(_CHUNK):
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
    search = _Search(needle, fold_case, max_line_bytes)
    line_no = 1  # the number of the line that starts the buffer
    carry = b""
    skipped = 0  # > 0 while inside an over-long line: its bytes so far
    for chunk in _read(stream):
        fresh = chunk
        if skipped:
            newline = chunk.find(b"\n")
            if newline < 0:
                skipped += len(chunk)
                continue
            yield ScannedLine(line_no, b"", skipped + newline)
            line_no += 1
            fresh = chunk[newline + 1 :]
            skipped = 0
        buffer = carry + fresh if carry else fresh
        end = buffer.rfind(b"\n") + 1
        carry = buffer[end:]
        if len(carry) > max_line_bytes:
            skipped, carry = len(carry), b""
        if end:
            line_no = yield from _lines_in(buffer, end, line_no, search)
    if skipped:
        yield ScannedLine(line_no, b"", skipped)
    elif carry:
        buffer = carry + b"\n"
        yield from _lines_in(buffer, len(buffer), line_no, search)


class _Search(NamedTuple):
    needle: bytes
    fold_case: bool
    max_line_bytes: int

    @property
    def long_line(self) -> re.Pattern[bytes]:
        return _long_line(self.max_line_bytes)


@functools.lru_cache(maxsize=8)
def _long_line(limit: int) -> re.Pattern[bytes]:
    """Matches the start of a line longer than ``limit``; anchored, so linear in the buffer."""
    return re.compile(rb"(?m)^[^\n]{%d}" % (limit + 1))


def _lines_in(
    buffer: bytes, end: int, line_no: int, search: _Search
) -> Generator[ScannedLine, None, int]:
    """Scan ``buffer[:end]`` (whole lines only); return the line number after them."""
    needle, limit = search.needle, search.max_line_bytes
    haystack = buffer[:end].lower() if search.fold_case else buffer
    hits: list[int] = []
    position = haystack.find(needle, 0, end)
    while position >= 0:
        start = buffer.rfind(b"\n", 0, position) + 1
        hits.append(start)
        position = haystack.find(needle, buffer.find(b"\n", position), end)
    if end > limit:
        hits.extend(match.start() for match in search.long_line.finditer(buffer, 0, end))
        hits = sorted(set(hits))
    counted = 0
    for start in hits:
        line_no += buffer.count(b"\n", counted, start)
        counted = start
        stop = buffer.find(b"\n", start)
        if stop - start > limit:
            yield ScannedLine(line_no, b"", stop - start)
            continue
        data = buffer[start:stop]
        yield ScannedLine(line_no, data[:-1] if data.endswith(b"\r") else data)
    return line_no + buffer.count(b"\n", counted, end)
