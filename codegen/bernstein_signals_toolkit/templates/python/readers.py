"""Reading the signals of an adapter's stdout: a binary file, a pipe or an asyncio stream.

Both readers share :class:`.scanning.LineScanner`: chunks are searched for
``\\nBERNSTEIN:`` at C level and newlines are counted with ``bytes.count``, so
plain lines cost no Python work and memory stays constant. A line longer than
``max_line_bytes`` is consumed in chunks and is never a signal (the validator
reports it); a final line without "\\n" counts; "\\r\\n" is tolerated; a line
that is not UTF-8 is plain output.
"""

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Final, NamedTuple, Protocol

from .kinds import SIGNAL_PREFIX
from .parsing import _strict as _parse_prefixed
from .scanning import (
    DEFAULT_MAX_LINE_BYTES,
    READ_CHUNK_BYTES,
    LineScanner,
    Readable,
    ScannedLine,
    _new_tuple,
    read_chunks,
)
from .signals import StreamSignal

__all__ = ["AsyncReadable", "SignalRecord", "SignalScanner", "aread_signals", "read_signals"]

_NEEDLE: Final = SIGNAL_PREFIX.encode("ascii")


class SignalRecord(NamedTuple):
    """One signal line of a stream."""

    line_no: int
    """1-based line number in the stream."""
    signal: StreamSignal
    raw: bytes
    """The line's bytes without its terminator ("\\n" or "\\r\\n")."""


class AsyncReadable(Protocol):
    """An asyncio StreamReader, or anything with an awaitable ``read(n)``."""

    async def read(self, n: int = -1) -> bytes: ...


class SignalScanner:
    """Push-style reader: ``feed(chunk)`` returns the signal records the chunk completes,
    ``close()`` those of a final line without "\\n". For callers that own the read
    loop (a relay that copies the bytes on, a select loop with a timeout).
    """

    def __init__(self, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        self._lines = LineScanner(
            _NEEDLE, at_line_start=True, max_line_bytes=max_line_bytes, report_overlong=False
        )

    @property
    def lines(self) -> int:
        """Lines seen so far (a final line without "\\n" counts once closed)."""
        return self._lines.lines

    def feed(self, chunk: bytes) -> list[SignalRecord]:
        found = self._lines.feed(chunk)
        return _records(found) if found else []

    def close(self) -> list[SignalRecord]:
        return _records(self._lines.close())


def _records(found: Iterable[ScannedLine]) -> list[SignalRecord]:
    records = []
    for line_no, data, _ in found:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        signal = _parse_prefixed(text)  # the scanner found the prefix: skip parse_signal's checks
        if signal is not None:
            records.append(_new_tuple(SignalRecord, (line_no, signal, data)))
    return records


def read_signals(
    stream: Readable, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[SignalRecord]:
    """The signal lines of a binary file or pipe, read to its end, in constant memory."""
    scanner = SignalScanner(max_line_bytes=max_line_bytes)
    for chunk in read_chunks(stream):
        yield from scanner.feed(chunk)
    yield from scanner.close()


async def aread_signals(
    reader: AsyncReadable, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> AsyncIterator[SignalRecord]:
    """:func:`read_signals` for an asyncio StreamReader (a subprocess's stdout).

    Reads with ``read(n)``, never ``readline``, so lines longer than the
    StreamReader's limit (64 KiB by default) are no error.
    """
    scanner = SignalScanner(max_line_bytes=max_line_bytes)
    while chunk := await reader.read(READ_CHUNK_BYTES):
        for record in scanner.feed(chunk):
            yield record
    for record in scanner.close():
        yield record
