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
import functools
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, Final, ParamSpec, TextIO, TypeVar

from ._reply_lines import (
    _MAX_REPLY_BYTES,
    _content_length,
    _lenient_decoding,
    _read_line,
    _skip_rest_of_line,
    _text_of,
    _TimedOut,
)
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

_SHOWN_IDS: Final = 5
"""How many waiting ids an UnknownQuestion names: enough to pick from, bounded whatever is in flight."""


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

    def _waiting(self) -> str:
        """What is waiting, for an UnknownQuestion: the first ids and how many more."""
        ids = [_shown(question_id) for question_id in itertools.islice(self._by_id, _SHOWN_IDS)]
        more = len(self._by_id) - len(ids)
        by_id = ", ".join(ids) + (f" and {more} more" if more else "")
        if not by_id:
            return f"{len(self._fifo)} without an id waiting" if self._fifo else "nothing is waiting"
        if self._fifo:
            return f"waiting: {len(self._fifo)} without an id, and by id {by_id}"
        return f"waiting by id: {by_id} (answer(text, question_id=...))"

    def answer(self, text: str, question_id: str | None = None) -> str:
        """The reply line (no newline) answering ``question_id``, or the oldest question
        without an id when ``question_id`` is None; the question is then answered.

        Raises UnknownQuestion naming what is waiting (the first ids, then a
        count) when nothing matches, AnswerNotAnOption for an answer outside
        the question's options (with ``enforce_options``).
        """
        if question_id is None:
            if not self._fifo:
                raise UnknownQuestion(
                    f"no question without an id is waiting for an answer; {self._waiting()}"
                )
            pending = self._fifo[0]
        else:
            found = self._by_id.get(question_id)
            if found is None:
                state = "was already answered" if question_id in self._answered else "was never asked"
                raise UnknownQuestion(f"question id {_shown(question_id)} {state}; {self._waiting()}")
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


def _wait_for_reply(
    source: IO[Any], notes: TextIO, deadline: float | None, question: str, question_id: str | None
) -> str:
    """The answer of the first reply to ``question_id``; every other line noted on ``notes``."""
    while True:
        try:
            raw = _read_line(source, deadline)
        except UnicodeDecodeError:
            raw = b"\xff"  # the stream's strict decoder refused a chunk: noted below
        if raw is None:
            raise QuestionAborted(f"stdin closed before a reply to {question!r}")
        if _content_length(raw) > _MAX_REPLY_BYTES:
            _skip_rest_of_line(source, raw, deadline)
            note = f"skipped a line longer than {_MAX_REPLY_BYTES} bytes"
        else:
            line = _text_of(raw)
            reply = None if line is None else parse_reply(line)
            if reply is not None and reply[REPLY_IN_REPLY_TO] == question_id:
                return reply[REPLY_ANSWER]
            if line is None:
                note = f"skipped a line that is not UTF-8: {raw[:80]!r}"
            elif reply is None:
                note = f"skipped a line that is not a reply: {line[:80]!r}"
            else:
                note = f"skipped a reply to question {reply[REPLY_IN_REPLY_TO]!r}"
        notes.write(f"bernstein-signals: while waiting for {question!r}: {note}\n")
        notes.flush()


_P = ParamSpec("_P")
_R = TypeVar("_R")
_LEGACY_POSITIONAL: Final = 2
"""How many keyword-only parameters after the question earlier versions took by position."""


def _keywords_after_the_question(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Let the positional ``ask(question, options, id)`` of earlier versions keep working.

    The signature (what help() and type checkers see) is keyword-only, as
    :func:`.constructors.question` has it; a call in the old form is mapped
    onto it rather than broken, and anything else is a TypeError saying what
    to pass. The names come from the signature: its first keyword-only
    parameters, in order.
    """
    code = function.__code__
    legacy = code.co_varnames[code.co_argcount : code.co_argcount + _LEGACY_POSITIONAL]

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) > 1:
            extra = args[1:]
            if len(extra) > len(legacy):
                raise TypeError(
                    f"{function.__name__}() takes one positional argument, the question;"
                    f" pass {' and '.join(f'{name}=...' for name in legacy)} as keywords"
                )
            for name, value in zip(legacy, extra, strict=False):
                if name in kwargs:
                    raise TypeError(
                        f"{function.__name__}() got {name} both by position and as a keyword;"
                        f" pass {name}=... only"
                    )
                kwargs[name] = value
            args = args[:1]
        return function(*args, **kwargs)

    return call


@_keywords_after_the_question
def ask(
    question: str,
    *,
    options: Sequence[str] | None = None,
    id: str | None = None,
    stdin: IO[Any] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    timeout: float | None = None,
) -> str:
    """Ask the orchestrator ``question`` and return the answer.

    ``options`` and ``id`` are keywords, as :func:`.constructors.question`
    takes them (``ask("Apply?", options=["yes", "no"], id="q-1")``); the
    positional form of earlier versions is still accepted.

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
    try:
        return _wait_for_reply(source, notes, deadline, question, id)
    except _TimedOut:
        raise QuestionTimeout(f"no reply to {question!r} in time") from None
