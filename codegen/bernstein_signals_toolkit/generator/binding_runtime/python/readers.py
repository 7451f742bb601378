"""Reading the signals of an adapter's stdout: a file or pipe (binary or text) or an asyncio stream.

Both readers share :class:`.scanning.LineScanner`: chunks are searched for
``\\nBERNSTEIN:`` at C level and newlines are counted with ``bytes.count``, so
plain lines cost no Python work and memory stays constant. A line longer than
``max_line_bytes`` is consumed in chunks and is never a signal (the validator
reports it); a final line without "\\n" counts; "\\r\\n" is tolerated; a line
that is not UTF-8 is plain output.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Final, Literal, NamedTuple, Protocol, TypeAlias, overload

from .kinds import SIGNAL_PREFIX, SignalKind
from .parsing import _asks_for_fence
from .parsing import _strict as _parse_prefixed
from .parsing import _strict_any as _parse_any_prefixed
from .scanning import (
    DEFAULT_MAX_LINE_BYTES,
    READ_CHUNK_BYTES,
    LineScanner,
    Readable,
    ScannedLine,
    _chunk_bytes,
    _new_tuple,
    read_chunks,
)
from .signals import StreamSignal, UnknownKindSignal

if TYPE_CHECKING:  # the fence is loaded only by a fenced read
    from .fence import FenceVerdict, FenceVerifier, SignalKey

__all__ = [
    "AsyncReadable",
    "SignalRecord",
    "SignalScanner",
    "UnknownKindRecord",
    "aread_signals",
    "read_signals",
]

_NEEDLE: Final = SIGNAL_PREFIX.encode("ascii")


class SignalRecord(NamedTuple):
    """One signal line of a stream."""

    line_no: int
    """1-based line number in the stream."""
    signal: StreamSignal
    raw: bytes
    """The line's bytes without its terminator ("\\n" or "\\r\\n")."""


class UnknownKindRecord(NamedTuple):
    """A well-formed signal line of a kind the vocabulary does not know, as the
    ``unknown_kinds=True`` readers return it (see :class:`~.signals.UnknownKindSignal`).
    """

    line_no: int
    signal: UnknownKindSignal
    raw: bytes


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
        self._unknown_kinds = False

    @property
    def lines(self) -> int:
        """Lines seen so far (a final line without "\\n" counts once closed)."""
        return self._lines.lines

    def feed(self, chunk: bytes | str) -> list[SignalRecord]:
        """The records ``chunk`` completes; a str chunk (from a text stream) is read as its
        UTF-8 bytes, as :func:`read_signals` reads a text stream."""
        found = self._lines.feed(chunk if type(chunk) is bytes else _chunk_bytes(chunk))
        return self._records(found) if found else []

    def close(self) -> list[SignalRecord]:
        return self._records(self._lines.close())

    def _records(self, found: Iterable[ScannedLine]) -> list[SignalRecord]:
        if self._unknown_kinds:  # only the readers' opt-in sets it; typed by their overloads
            return _any_records(found)  # type: ignore[return-value]
        return _records(found)


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


def _any_records(found: Iterable[ScannedLine]) -> list[SignalRecord | UnknownKindRecord]:
    records: list[SignalRecord | UnknownKindRecord] = []
    for line_no, data, _ in found:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        signal = _parse_any_prefixed(text)
        if type(signal) is StreamSignal:
            records.append(_new_tuple(SignalRecord, (line_no, signal, data)))
        elif signal is not None:
            records.append(_new_tuple(UnknownKindRecord, (line_no, signal, data)))
    return records


def _scanner(max_line_bytes: int, unknown_kinds: bool) -> SignalScanner:
    scanner = SignalScanner(max_line_bytes=max_line_bytes)
    scanner._unknown_kinds = unknown_kinds
    return scanner


_OnRejected: TypeAlias = "Callable[[FenceVerdict], object] | None"


def _fenced_items(
    found: Iterable[ScannedLine], verifier: FenceVerifier
) -> list[SignalRecord | FenceVerdict]:
    """The records and rejections of the lines ``found``, in stream order."""
    items: list[SignalRecord | FenceVerdict] = []
    verify = verifier._verify  # the scanner framed the line and _strict parsed it
    for line_no, data, _ in found:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        signal = _parse_prefixed(text)
        if signal is None:
            continue
        verdict = verify(signal)
        if verdict.signal is not None:
            items.append(_new_tuple(SignalRecord, (line_no, verdict.signal, data)))
        elif verdict.code is not None:
            items.append(verdict._replace(line_no=line_no))
    return items


def _deliver(
    items: list[SignalRecord | FenceVerdict], on_rejected: _OnRejected
) -> Iterator[SignalRecord]:
    for item in items:
        if type(item) is SignalRecord:
            yield item
        elif on_rejected is not None:
            on_rejected(item)  # type: ignore[arg-type]  # the items are records or verdicts


def _read(scanner: SignalScanner, stream: Readable) -> Iterator[SignalRecord | UnknownKindRecord]:
    for chunk in read_chunks(stream):
        yield from scanner.feed(chunk)
    yield from scanner.close()


def _read_fenced(
    lines: LineScanner, stream: Readable, verifier: FenceVerifier, on_rejected: _OnRejected
) -> Iterator[SignalRecord]:
    for chunk in read_chunks(stream):
        found = lines.feed(chunk if type(chunk) is bytes else _chunk_bytes(chunk))
        if found:
            yield from _deliver(_fenced_items(found, verifier), on_rejected)
    yield from _deliver(_fenced_items(lines.close(), verifier), on_rejected)


@overload
def read_signals(
    stream: Readable,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    unknown_kinds: Literal[False] = False,
    key: SignalKey | None = None,
    allow_kinds: Iterable[SignalKind | str] | None = None,
    on_rejected: _OnRejected = None,
) -> Iterator[SignalRecord]: ...
@overload
def read_signals(
    stream: Readable,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    unknown_kinds: bool,
    key: SignalKey | None = None,
    allow_kinds: Iterable[SignalKind | str] | None = None,
    on_rejected: _OnRejected = None,
) -> Iterator[SignalRecord | UnknownKindRecord]: ...
def read_signals(
    stream: Readable,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    unknown_kinds: bool = False,
    key: SignalKey | None = None,
    allow_kinds: Iterable[SignalKind | str] | None = None,
    on_rejected: _OnRejected = None,
) -> Iterator[SignalRecord | UnknownKindRecord]:
    """The signal lines of a file or pipe, read to its end, in constant memory.

    Binary (``open(path, "rb")``, ``Popen(...).stdout``) or text: a text
    stream's chunks are encoded back to UTF-8, so the records are the same.

    With ``unknown_kinds=True`` a well-formed line of a kind the vocabulary does
    not know is an :class:`UnknownKindRecord` instead of plain output (as for
    :func:`~.parsing.parse_signal`).

    Fenced (``key`` and/or ``allow_kinds``, :mod:`.fence`): only lines the
    :class:`~.fence.FenceVerifier` accepts are records (their payload without
    ``_sig``, ``raw`` as read); each rejected one goes to ``on_rejected`` (a
    :class:`~.fence.FenceVerdict` with ``line_no``) in stream order. Bad options
    raise here, before anything is read.
    """
    if not _asks_for_fence(key, allow_kinds, on_rejected):
        return _read(_scanner(max_line_bytes, unknown_kinds), stream)
    from .fence import _reader_verifier

    verifier = _reader_verifier(key, allow_kinds, on_rejected, unknown_kinds=unknown_kinds)
    lines = SignalScanner(max_line_bytes=max_line_bytes)._lines
    return _read_fenced(lines, stream, verifier, on_rejected)


async def _aread(
    scanner: SignalScanner, reader: AsyncReadable
) -> AsyncIterator[SignalRecord | UnknownKindRecord]:
    while chunk := await reader.read(READ_CHUNK_BYTES):
        for record in scanner.feed(chunk if type(chunk) is bytes else _chunk_bytes(chunk)):
            yield record
    for record in scanner.close():
        yield record


async def _aread_fenced(
    lines: LineScanner, reader: AsyncReadable, verifier: FenceVerifier, on_rejected: _OnRejected
) -> AsyncIterator[SignalRecord]:
    while chunk := await reader.read(READ_CHUNK_BYTES):
        found = lines.feed(chunk if type(chunk) is bytes else _chunk_bytes(chunk))
        if found:
            for record in _deliver(_fenced_items(found, verifier), on_rejected):
                yield record
    for record in _deliver(_fenced_items(lines.close(), verifier), on_rejected):
        yield record


@overload
def aread_signals(
    reader: AsyncReadable,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    unknown_kinds: Literal[False] = False,
    key: SignalKey | None = None,
    allow_kinds: Iterable[SignalKind | str] | None = None,
    on_rejected: _OnRejected = None,
) -> AsyncIterator[SignalRecord]: ...
@overload
def aread_signals(
    reader: AsyncReadable,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    unknown_kinds: bool,
    key: SignalKey | None = None,
    allow_kinds: Iterable[SignalKind | str] | None = None,
    on_rejected: _OnRejected = None,
) -> AsyncIterator[SignalRecord | UnknownKindRecord]: ...
def aread_signals(
    reader: AsyncReadable,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    unknown_kinds: bool = False,
    key: SignalKey | None = None,
    allow_kinds: Iterable[SignalKind | str] | None = None,
    on_rejected: _OnRejected = None,
) -> AsyncIterator[SignalRecord | UnknownKindRecord]:
    """:func:`read_signals` for an asyncio StreamReader (a subprocess's stdout).

    Reads with ``read(n)``, never ``readline``, so lines longer than the
    StreamReader's limit (64 KiB by default) are no error.
    """
    if not _asks_for_fence(key, allow_kinds, on_rejected):
        return _aread(_scanner(max_line_bytes, unknown_kinds), reader)
    from .fence import _reader_verifier

    verifier = _reader_verifier(key, allow_kinds, on_rejected, unknown_kinds=unknown_kinds)
    lines = SignalScanner(max_line_bytes=max_line_bytes)._lines
    return _aread_fenced(lines, reader, verifier, on_rejected)
