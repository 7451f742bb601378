"""Reading reply lines from an adapter's stdin, for :func:`.questions.ask`.

Bounded (a line over ``_MAX_REPLY_BYTES`` is skipped a piece at a time, with a
deadline or without),
through the stream's own ``readline`` so that nothing the caller buffered is
lost, and with a deadline that keeps a half-read line for the next call.
"""

import contextlib
import os
import re
import select
import time
import weakref
from typing import IO, Any, Final

from .scanning import DEFAULT_MAX_LINE_BYTES, strip_terminator

_MAX_REPLY_BYTES: Final = DEFAULT_MAX_LINE_BYTES
"""A reply line longer than the readers' line limit is skipped, as any over-long line."""
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class _TimedOut(Exception):
    """The deadline passed before a whole line arrived; ask() turns it into QuestionTimeout."""


def _fileno(stream: IO[Any]) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


_Piece = str | bytes
_PENDING: Final["weakref.WeakKeyDictionary[IO[Any], list[_Piece]]"] = weakref.WeakKeyDictionary()
"""The start of a line that a timed-out :func:`ask` had read: the next ask() on that stream
continues it, so a reply that arrives in pieces across a timeout is not lost."""


def _ends_line(piece: _Piece) -> bool:
    return piece.endswith("\n") if isinstance(piece, str) else piece.endswith(b"\n")


def _content_length(line: _Piece) -> int:
    """The line's length without its terminator."""
    return len(strip_terminator(line))


def _joined(pieces: list[_Piece]) -> _Piece:
    first = pieces[0]
    return first[:0].join(pieces)  # type: ignore[arg-type]


def _read_line(stream: IO[Any], deadline: float | None) -> _Piece | None:
    """One line (with its "\\n", when it has one) through the stream's own ``readline``, so
    what the caller's reads (``input()``) already buffered is seen and nothing is read
    from the file descriptor behind the object's back. None at end of input.

    With a deadline the descriptor is made non-blocking for the wait (restored after):
    ``readline`` then returns what has arrived, and ``select`` waits for more. At the
    deadline the part already read is kept for the next call on the stream, and
    _TimedOut is raised. A line that grows past ``_MAX_REPLY_BYTES`` without its "\\n" is
    returned as it stands (over-long: the caller skips the rest), as ``readline``'s own
    limit does without a deadline, so memory stays bounded either way.
    """
    try:
        pieces: list[_Piece] = _PENDING.pop(stream, [])
    except TypeError:  # a stream object without weak references keeps nothing
        pieces = []
    fd = None if deadline is None else _fileno(stream)
    if fd is None:
        pieces.append(stream.readline(_MAX_REPLY_BYTES + 2))
        return _joined(pieces) or None
    was_blocking = os.get_blocking(fd)
    os.set_blocking(fd, False)
    try:
        waited = False
        held = sum(len(piece) for piece in pieces)
        while True:
            piece = stream.readline(_MAX_REPLY_BYTES + 2)
            if piece:
                pieces.append(piece)
                held += len(piece)
                if _ends_line(piece) or held > _MAX_REPLY_BYTES + 1:  # room for a "\r"
                    return _joined(pieces)
                waited = False
                continue
            if waited:  # readable, yet nothing: end of input
                return _joined(pieces) if pieces else None
            remaining = deadline - time.monotonic()  # type: ignore[operator]
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                if pieces:
                    with contextlib.suppress(TypeError):
                        _PENDING[stream] = pieces
                raise _TimedOut
            waited = True
    finally:
        os.set_blocking(fd, was_blocking)


def _lenient_decoding(stream: IO[Any]) -> None:
    """Make a strict text stream decode with ``surrogateescape``, when it still can.

    A strict decoder raises on the buffered chunk that holds a byte that is
    not UTF-8, and Python's io then drops the whole chunk, good lines too.
    ``reconfigure`` succeeds only before the first read; after it, such a
    chunk is reported and skipped (see :func:`ask`).
    """
    if getattr(stream, "errors", None) != "strict":
        return
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(OSError, ValueError):  # io.UnsupportedOperation is both
            reconfigure(errors="surrogateescape")


def _skip_rest_of_line(stream: IO[Any], line: _Piece, deadline: float | None) -> None:
    """Drop the rest of an over-long line, a bounded piece at a time."""
    while line and not _ends_line(line):
        rest = _read_line(stream, deadline)
        if rest is None:
            return
        line = rest


def _text_of(line: _Piece) -> str | None:
    """The line as text without its terminator, or None when it is not UTF-8.

    Bytes are decoded strictly; text from a stream decoding with
    ``surrogateescape`` holds a lone surrogate where a byte was not UTF-8.
    """
    if isinstance(line, bytes):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            return None
    else:
        text = str(line)
        if not text.isascii() and _SURROGATE.search(text):
            return None
    return strip_terminator(text)
