"""The question round-trip, both sides.

Orchestrator side: :class:`QuestionTracker` records the QUESTIONs an adapter
asks and turns operator answers into reply lines, matching by id, or
first-in-first-out for questions without one (as the protocol says).

Adapter side: :func:`ask` emits a QUESTION and waits on stdin for its reply.
Replies addressed to other questions (and lines that are not replies) are
skipped with a note on stderr, as the reply schema documents; a Python
warning would be shown only once per call site and lost in the rest.
"""

import os
import select
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, Final, TextIO

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
    text = payload.get("question")
    options = payload.get("options")
    question_id = payload.get("id")
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
        self._fifo: list[PendingQuestion] = []
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
                raise UnknownQuestion(f"question id {question_id!r} {state}")
            pending = found
        if self.enforce_options and pending.options is not None and text not in pending.options:
            raise AnswerNotAnOption(
                f"answer {text!r} to {pending.question!r} is not one of {list(pending.options)}"
            )
        line = format_reply(text, question_id)
        if question_id is None:
            self._fifo.pop(0)
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


def _read_line_fd(fd: int, deadline: float | None, question: str) -> bytes | None:
    """One line from a file descriptor, a byte at a time so that nothing after it is
    consumed (later questions read it); None at end of file.
    """
    line = bytearray()
    while True:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            ready = remaining > 0 and select.select([fd], [], [], remaining)[0]
            if not ready:
                raise QuestionTimeout(f"no reply to {question!r} in time")
        byte = os.read(fd, 1)
        if not byte:
            return bytes(line) if line else None
        if byte == b"\n":
            return bytes(line[:-1] if line.endswith(b"\r") else line)
        if len(line) < _MAX_REPLY_BYTES:
            line += byte


def _read_line(stream: IO[Any], deadline: float | None, question: str) -> str | None:
    fd = _fileno(stream)
    # An in-memory stream cannot block, so it needs no timeout; "" or b"" is its end.
    data = stream.readline() or None if fd is None else _read_line_fd(fd, deadline, question)
    if data is None:
        return None
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return str(data)


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
    are skipped with a note on ``stderr``. When ``stdin`` has a file
    descriptor it is read directly, a byte at a time, so nothing beyond the
    reply is consumed and ``timeout`` works on pipes; in-memory streams are
    read with ``readline``.

    Raises SignalPayloadError for a question the schema refuses,
    QuestionTimeout after ``timeout`` seconds, QuestionAborted at end of input.
    """
    source = sys.stdin if stdin is None else stdin
    notes = sys.stderr if stderr is None else stderr
    payload: dict[str, Any] = {"question": question}
    if options is not None:
        payload["options"] = list(options)
    if id is not None:
        payload["id"] = id
    emit(SignalKind.QUESTION, payload, file=stdout)
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        line = _read_line(source, deadline, question)
        if line is None:
            raise QuestionAborted(f"stdin closed before a reply to {question!r}")
        reply = parse_reply(line)
        if reply is not None and reply["in_reply_to"] == id:
            return reply["answer"]
        if reply is None:
            note = f"skipped a line that is not a reply: {line[:80]!r}"
        else:
            note = f"skipped a reply to question {reply['in_reply_to']!r}"
        notes.write(f"bernstein-signals: while waiting for {question!r}: {note}\n")
        notes.flush()
