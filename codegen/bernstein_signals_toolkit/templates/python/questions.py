"""The question round-trip, both sides.

Orchestrator side: :class:`QuestionTracker` records the QUESTIONs an adapter
asks and turns operator answers into reply lines, matching by id, or
first-in-first-out for questions without one (as the protocol says).

Adapter side: :func:`ask` emits a QUESTION and waits on stdin for its reply.
Replies addressed to other questions (and lines that are not replies) are
skipped with a note on stderr, as the reply schema documents; a Python
warning would be shown only once per call site and lost in the rest.
"""

import collections
import contextlib
import os
import re
import select
import sys
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, Final, TextIO

from .errors import _shown
from .fields import QUESTION_ID, QUESTION_OPTIONS, QUESTION_TEXT, REPLY_ANSWER, REPLY_IN_REPLY_TO
from .formatting import emit
from .kinds import SignalKind
from .reply import format_reply, parse_reply
from .signals import StreamSignal

__all__ = [
    "AnswerNotAnOption",
    "PendingQuestion",
    "QuestionAborted",
    "QuestionError",
    "QuestionIdInUse",
    "QuestionTimeout",
    "QuestionTracker",
    "UnknownQuestion",
    "ask",
]

_MAX_REPLY_BYTES: Final = 1 << 20
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class QuestionError(ValueError):
    """A question or an answer that the round-trip cannot route."""


class UnknownQuestion(QuestionError):
    """No question in flight matches the answer (unknown id, already answered, none waiting)."""


class AnswerNotAnOption(QuestionError):
    """The answer is not one of the question's ``options``."""


class QuestionIdInUse(QuestionError):
    """A QUESTION reuses the id of a question that is still unanswered."""


class QuestionTimeout(TimeoutError):
    """:func:`ask` waited ``timeout`` seconds without a reply."""


class QuestionAborted(EOFError):
    """:func:`ask` reached the end of stdin without a reply."""


@dataclass(frozen=True, slots=True)
class PendingQuestion:
    """A question in flight, as the adapter asked it."""

    question: str
    options: tuple[str, ...] | None
    id: str | None


def _pending(payload: dict[str, Any]) -> PendingQuestion:
    text = payload.get(QUESTION_TEXT)
    options = payload.get(QUESTION_OPTIONS)
    question_id = payload.get(QUESTION_ID)
    choices: tuple[str, ...] | None = None
    if isinstance(options, list) and all(isinstance(option, str) for option in options):
        choices = tuple(options)
    return PendingQuestion(
        text if isinstance(text, str) else "",
        choices,
        question_id if isinstance(question_id, str) and question_id else None,
    )


class QuestionTracker:
    """The questions an adapter has asked and not yet had answered.

    With ``enforce_options`` (the default), an answer to a question that
    listed ``options`` must be one of them.
    """

    def __init__(self, *, enforce_options: bool = True) -> None:
        self.enforce_options = enforce_options
        self._by_id: dict[str, PendingQuestion] = {}
        self._fifo: collections.deque[PendingQuestion] = collections.deque()  # O(1) at both ends
        self._answered: set[str] = set()

    @property
    def pending(self) -> tuple[PendingQuestion, ...]:
        """Unanswered questions: those with an id, then those without, each in asking order."""
        return (*self._by_id.values(), *self._fifo)

    def feed(self, signal: StreamSignal) -> PendingQuestion | None:
        """Record ``signal`` if it is a QUESTION; other kinds are ignored (None).

        Raises QuestionIdInUse when the id belongs to a question still in flight:
        its answer could not be routed. An id may be reused once answered.
        """
        if signal.kind != SignalKind.QUESTION:
            return None
        pending = _pending(signal.payload)
        if pending.id is None:
            self._fifo.append(pending)
        elif pending.id in self._by_id:
            raise QuestionIdInUse(f"question id {pending.id!r} is already waiting for an answer")
        else:
            self._by_id[pending.id] = pending
            self._answered.discard(pending.id)
        return pending

    def answer(self, text: str, question_id: str | None = None) -> str:
        """The reply line (no newline) answering ``question_id``, or the oldest question
        without an id when ``question_id`` is None; the question is then answered.
        """
        if question_id is None:
            if not self._fifo:
                raise UnknownQuestion("no question without an id is waiting for an answer")
            pending = self._fifo[0]
        else:
            found = self._by_id.get(question_id)
            if found is None:
                state = "was already answered" if question_id in self._answered else "was never asked"
                raise UnknownQuestion(f"question id {_shown(question_id)} {state}")
            pending = found
        if self.enforce_options and pending.options is not None and text not in pending.options:
            raise AnswerNotAnOption(
                f"answer {_shown(text)} to {pending.question!r} is not one of {list(pending.options)}"
            )
        line = format_reply(text, question_id)
        if question_id is None:
            self._fifo.popleft()
        else:
            del self._by_id[question_id]
            self._answered.add(question_id)
        return line


# ---------------------------------------------------------------------------
# Adapter side
# ---------------------------------------------------------------------------


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
    """The line's length without its "\\n" or "\\r\\n"."""
    if not _ends_line(line):
        return len(line)
    return len(line) - (2 if line[-2:] in ("\r\n", b"\r\n") else 1)


def _joined(pieces: list[_Piece]) -> _Piece:
    first = pieces[0]
    return first[:0].join(pieces)  # type: ignore[arg-type]


def _read_line(stream: IO[Any], deadline: float | None, question: str) -> _Piece | None:
    """One line (with its "\\n", when it has one) through the stream's own ``readline``, so
    what the caller's reads (``input()``) already buffered is seen and nothing is read
    from the file descriptor behind the object's back. None at end of input.

    With a deadline the descriptor is made non-blocking for the wait (restored after):
    ``readline`` then returns what has arrived, and ``select`` waits for more. At the
    deadline the part already read is kept for the next call on the stream.
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
        while True:
            piece = stream.readline(_MAX_REPLY_BYTES + 2)
            if piece:
                pieces.append(piece)
                if _ends_line(piece):
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
                raise QuestionTimeout(f"no reply to {question!r} in time")
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


def _skip_rest_of_line(stream: IO[Any], line: _Piece, deadline: float | None, question: str) -> None:
    """Drop the rest of an over-long line, a bounded piece at a time."""
    while line and not _ends_line(line):
        rest = _read_line(stream, deadline, question)
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
    if text.endswith("\n"):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    return text


def ask(
    question: str,
    options: Sequence[str] | None = None,
    id: str | None = None,
    *,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    timeout: float | None = None,
) -> str:
    """Ask the orchestrator ``question`` and return the answer.

    Emits the QUESTION on ``stdout`` (one write, flushed), then reads reply
    lines from ``stdin`` until one is addressed to this question
    (``in_reply_to`` equal to ``id``, or null when ``id`` is None). Other lines
    are skipped with a note on ``stderr``, and so are lines that are not UTF-8
    (bytes from a binary stream, or lone surrogates from a text stream that
    decodes with ``surrogateescape``) and lines over 1 MiB. A strict text
    stream is switched to ``surrogateescape`` when it still can be (before its
    first read); otherwise Python's io drops the whole chunk its decoder
    refused, which is noted the same way.

    Lines are read with ``stdin``'s own ``readline``: the caller's earlier
    reads (``input()``) may have buffered the reply there, and a later read
    through the same object sees whatever ask() did not take. Read replies
    through one object per stream (do not mix ``sys.stdin`` with
    ``sys.stdin.buffer`` or the raw descriptor). With ``timeout`` on a stream
    with a file descriptor, the descriptor is non-blocking while ask() waits
    (a file status flag, which processes sharing the descriptor see meanwhile);
    when the time runs out in the middle of a line, the part already read is
    kept and the next ask() on the same stream continues that line.

    Raises SignalPayloadError for a question the schema refuses,
    QuestionTimeout after ``timeout`` seconds, QuestionAborted at end of input.
    """
    source = sys.stdin if stdin is None else stdin
    notes = sys.stderr if stderr is None else stderr
    payload: dict[str, Any] = {QUESTION_TEXT: question}
    if options is not None:
        payload[QUESTION_OPTIONS] = list(options)
    if id is not None:
        payload[QUESTION_ID] = id
    emit(SignalKind.QUESTION, payload, file=stdout)
    deadline = None if timeout is None else time.monotonic() + timeout
    _lenient_decoding(source)
    while True:
        try:
            raw = _read_line(source, deadline, question)
        except UnicodeDecodeError:
            raw = b"\xff"  # the stream's strict decoder refused a chunk: noted below
        if raw is None:
            raise QuestionAborted(f"stdin closed before a reply to {question!r}")
        if _content_length(raw) > _MAX_REPLY_BYTES:
            _skip_rest_of_line(source, raw, deadline, question)
            note = f"skipped a line longer than {_MAX_REPLY_BYTES} bytes"
        else:
            line = _text_of(raw)
            reply = None if line is None else parse_reply(line)
            if reply is not None and reply[REPLY_IN_REPLY_TO] == id:
                return reply[REPLY_ANSWER]
            if line is None:
                note = f"skipped a line that is not UTF-8: {raw[:80]!r}"
            elif reply is None:
                note = f"skipped a line that is not a reply: {line[:80]!r}"
            else:
                note = f"skipped a reply to question {reply[REPLY_IN_REPLY_TO]!r}"
        notes.write(f"bernstein-signals: while waiting for {question!r}: {note}\n")
        notes.flush()
