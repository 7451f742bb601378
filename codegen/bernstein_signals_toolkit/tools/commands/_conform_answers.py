"""conform's scripted answers: read from the command line and ``--answers``, and written to the
adapter's stdin without blocking (through a native CLI's mapper with ``--native``)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from typing import IO, NamedTuple

from bernstein_signals import (
    REPLY_ANSWER,
    REPLY_IN_REPLY_TO,
    QuestionIdInUse,
    QuestionTracker,
    StreamSignal,
    parse_reply,
)
from bernstein_signals._native_support import NativeJsonParser
from bernstein_signals.scanning import strip_terminator
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..validate.diagnostics import Diagnostic, build_diagnostic
from ..validate.report import StreamChecker
from . import _arguments

__all__ = ["MAX_ANSWERS_BYTES", "Answers", "answers_by_id", "answers_file", "quoted"]

MAX_ANSWERS_BYTES = 1 << 20
"""The most an ``--answers`` file may hold: answers are read whole, before the adapter starts."""


def quoted(text: str, limit: int = 60) -> str:
    """An adapter's id in a message: JSON-quoted (one line), cut to ``limit`` code points."""
    return json.dumps(text[:limit] + ("..." if len(text) > limit else ""), ensure_ascii=False)


def _shown(key: str | None) -> str:
    return "without an id" if key is None else f"with id {quoted(key)}"


class _Waiting(NamedTuple):
    """A reply a native CLI has not asked for yet (Claude asks on stdin after the tool use)."""

    line: int
    width: int
    key: str | None
    answer: str
    reply: str


class Answers:
    """The scripted answers, and the adapter's stdin they are written to without blocking.

    Reply lines wait in a buffer until the adapter's stdin can take them, so an
    adapter that never reads cannot stop the run (or its timeout). The buffer
    holds at most the scripted answers, which the command line bounds.

    With a native ``mapper``, a reply reaches the CLI as the line the mapper
    builds (``reply_line``), once the CLI has asked for it; ``hold_open`` keeps
    stdin open when the answers run out (the CLI reads it until the run ends:
    :meth:`end_of_run`), and ``first`` is written before any reply (a prompt).
    """

    def __init__(
        self,
        stdin: IO[bytes] | None,
        by_id: dict[str, list[str]],
        in_order: list[str],
        *,
        mapper: NativeJsonParser | None = None,
        first: bytes = b"",
        hold_open: bool = False,
    ) -> None:
        self._stdin = stdin
        if stdin is not None:
            os.set_blocking(stdin.fileno(), False)
        self._by_id = {question_id: list(texts) for question_id, texts in by_id.items()}
        self._in_order = list(in_order)
        self._pending = bytearray(first)
        self._mapper = mapper
        self._hold_open = hold_open
        self._waiting: list[_Waiting] = []
        self.tracker = QuestionTracker(enforce_options=False)
        self.given: list[dict[str, object]] = []
        """The answers written, as the JSON report lists them (the command line bounds them)."""
        self.flush()

    @property
    def writers(self) -> list[int]:
        """The adapter's stdin while reply bytes wait for it."""
        return [self._stdin.fileno()] if self._stdin is not None and self._pending else []

    def _close_when_done(self) -> None:
        if self._hold_open:
            return
        if not self._pending and not self._by_id and not self._in_order:
            self.close()

    def question(self, checker: StreamChecker, line: int, question: StreamSignal) -> None:
        """Answer one QUESTION the adapter just asked, if a scripted answer is left, else
        report it (BS403).

        Only a question about to be answered reaches the tracker, so questions
        left unanswered take no memory (the checker bounds its own record).
        """
        question_id = question.payload.get("id")
        key = question_id if isinstance(question_id, str) and question_id else None
        if key is not None and self._by_id.get(key):
            text = self._by_id[key].pop(0)
            if not self._by_id[key]:
                del self._by_id[key]
        elif self._in_order:
            text = self._in_order.pop(0)
        else:
            checker.add(
                build_diagnostic(
                    "BS403",
                    line,
                    0,
                    len(question.raw_line),
                    f"QUESTION {_shown(key)} left unanswered: no --answer-id or --answer was"
                    " left for it",
                )
            )
            if self._hold_open:
                self.close()  # the CLI waits for this answer: end of file ends its wait
            self._close_when_done()
            return
        with contextlib.suppress(QuestionIdInUse):  # the checker reports it: BS305, an error
            self.tracker.feed(question)
        reply = self.tracker.answer(text, key)
        checker.answered(key)
        if self._mapper is None:
            self.given.append({"line": line, "in_reply_to": key, "answer": text})
            self._send(reply)
            return
        self._waiting.append(_Waiting(line, len(question.raw_line), key, text, reply))
        self.retry()

    def retry(self) -> None:
        """Hand the CLI the replies it has asked for since (native only)."""
        if self._mapper is None or self._stdin is None:
            return
        still: list[_Waiting] = []
        for waiting in self._waiting:
            native = self._mapper.reply_line(waiting.reply)
            if native is None:
                still.append(waiting)
                continue
            given: dict[str, object] = {
                "line": waiting.line,
                "in_reply_to": waiting.key,
                "answer": waiting.answer,
            }
            self.given.append(given)
            self._send(native)
        self._waiting = still

    def undelivered(self, why: str) -> list[Diagnostic]:
        """BS403 for each answer the native CLI never took (``why``: what it needs)."""
        found = [
            build_diagnostic(
                "BS403",
                waiting.line,
                0,
                waiting.width,
                f"QUESTION {_shown(waiting.key)} was answered, but the answer never reached"
                f" the CLI: {why}",
            )
            for waiting in self._waiting
        ]
        self._waiting.clear()
        return found

    def _send(self, line: str) -> None:
        if self._stdin is not None:
            self._pending += line.encode() + b"\n"
            self.flush()
        else:
            self._close_when_done()

    def flush(self) -> None:
        """Write what the adapter's stdin takes now; never block."""
        if self._stdin is not None and self._pending:
            try:
                written = os.write(self._stdin.fileno(), self._pending)
            except BlockingIOError:
                return
            except OSError:  # the adapter closed its stdin or exited: nothing to deliver to
                self._pending.clear()
                self.close()
                return
            del self._pending[:written]
        self._close_when_done()

    def end_of_run(self) -> None:
        """The run's terminal came: a CLI that reads stdin until its end gets it now."""
        self.close()

    def close(self) -> None:
        if self._stdin is not None:
            self._pending.clear()
            with contextlib.suppress(OSError):
                self._stdin.close()
            self._stdin = None


def answers_by_id(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Each id's answers in order: an answered id may be asked again, as the protocol allows."""
    by_id: dict[str, list[str]] = {}
    for question_id, text in pairs:
        by_id.setdefault(question_id, []).append(text)
    return by_id


def _json_object(text: str) -> dict[str, object] | None:
    """``text`` as one JSON object, else None (JSON lines of replies, say)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _lines(text: str) -> Iterator[str]:
    """The "\\n"-ended lines of ``text`` without their terminators: a reply's answer may
    hold U+2028, U+0085 and the other separators ``str.splitlines`` would split at."""
    start = 0
    while start < len(text):
        end = text.find("\n", start) + 1 or len(text)
        yield strip_terminator(text[start:end])
        start = end


def answers_file(path: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The (id, answer) pairs and the in-order answers of an ``--answers`` file."""
    name = _arguments.printable(path)
    data = _arguments.option_file("--answers", path, MAX_ANSWERS_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"--answers {name}: not UTF-8 at byte {exc.start}") from None
    whole = _json_object(text)
    if whole is not None and REPLY_ANSWER not in whole:  # a mapping from id to answer(s)
        pairs: list[tuple[str, str]] = []
        for question_id, answers in whole.items():
            texts = answers if isinstance(answers, list) else [answers]
            strings = [t for t in texts if isinstance(t, str)]
            if not question_id or not texts or len(strings) != len(texts):
                raise UsageError(
                    f"--answers {name}: id {quoted(question_id)} needs an answer string"
                    " or a non-empty list of them"
                )
            pairs += [(question_id, t) for t in strings]
        return pairs, []
    pairs, in_order = [], []  # JSON lines of replies
    for number, line in enumerate(_lines(text), 1):
        if not line.strip():
            continue
        reply = parse_reply(line)
        if reply is None:
            raise UsageError(
                f"--answers {name}:{number}: not a reply line"
                ' ({"in_reply_to": ID or null, "answer": TEXT})'
            )
        reply_to = reply[REPLY_IN_REPLY_TO]
        answer = reply[REPLY_ANSWER]
        if reply_to is None:
            in_order.append(answer)
        else:
            pairs.append((reply_to, answer))
    return pairs, in_order
