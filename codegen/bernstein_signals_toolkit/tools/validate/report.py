"""Whole-stream conformance: the line checks plus what only the sequence of signals shows.

A checker either keeps every signal and diagnostic in its report (library
callers, the language server) or hands each to a :class:`ReportSink` as the
stream is read and keeps only counts (``validate``): constant memory per run,
whatever the stream's length.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bernstein_signals import SignalKind, StreamSignal
from bernstein_signals.fence_rules import UNAUTHENTICATED_SIGNAL
from bernstein_signals.scanning import (
    LineScanner,
    Readable,
    ScannedLine,
    read_chunks,
    strip_terminator,
)

from ..key_mask import KEY_LEAKED, KeyMask
from ..runtime_vocabulary import RuntimeVocabulary, built_in
from .check_options import CheckOptions, check_options
from .codes import CODES, Severity
from .diagnostics import Diagnostic, build_diagnostic
from .lines import LineChecker, trigger_word, utf8_length
from .run_report import (
    REPORT_FORMAT_VERSION,
    ConformanceReport,
    ReportSink,
    SeenSignal,
)

if TYPE_CHECKING:
    from bernstein_signals import FenceVerifier

__all__ = [
    "MAX_TRACKED",
    "REPORT_FORMAT_VERSION",
    "CheckOptions",
    "ConformanceReport",
    "ReportSink",
    "SeenSignal",
    "StreamChecker",
    "conformance_report",
    "report_from_binary",
    "trigger_bytes",
]

_CARRIAGE_RETURN = ("\r", b"\r")
_COUNTED_TEXTS = 1024
_COUNTED_TEXT_CHARS = 4096
"""How many line texts, each of at most this many characters, a counting checker remembers."""
MAX_TRACKED = 10_000
"""Distinct QUESTION ids, and PLAN_DRAFT paths, a checker remembers per run (BS308 past it)."""


class StreamChecker:
    """Feeds lines through the line checks and keeps the stream-level state of one run."""

    def __init__(
        self, options: CheckOptions | None = None, *, sink: ReportSink | None = None, **fields: Any
    ) -> None:
        """``fields``: any of :class:`CheckOptions`' fields, over ``options``."""
        self.options = options = check_options(options, fields)
        self.enabled = frozenset(CODES) if options.enabled is None else options.enabled
        self.vocabulary = options.vocabulary or built_in()
        self.live = options.live
        """Whether the caller sees both sides of the run and reports answers
        (:meth:`answered`): then a QUESTION id reused while unanswered is an error
        and reuse after the answer is fine."""
        self.max_line_bytes = options.max_line_bytes
        self.report = ConformanceReport(options.run_id, kinds=self.vocabulary.kinds)
        self._lines = LineChecker(
            lenient=options.lenient,
            enabled=self.enabled,
            vocabulary=self.vocabulary,
            unknown_kinds=options.unknown_kinds,
        )
        self._terminal: SeenSignal | None = None
        self._question_ids: dict[str, int] = {}
        self._unanswered: set[str] = set()
        self._drafted: set[str] = set()
        self._sink = sink
        """With a sink, findings go there; the report keeps only counts."""
        self._held: list[Diagnostic] = []
        """The current line's diagnostics, sorted before they reach the sink."""
        self._warned_limit = False
        self._may_count = hasattr(sink, "counting")
        """Whether the sink says when it only counts (``ReportSink``): asked per line only then."""
        self._checked: dict[str, tuple[StreamSignal | None, list[Diagnostic]]] = {}
        """Line texts and their checks, once the sink only counts (:meth:`_counted_check`)."""
        self._fence: FenceVerifier | None = None
        """With a key or an allow-list: the judge of every signal line before it counts."""
        if options.key is not None or options.allow_kinds is not None:
            # The vocabulary's own fence (its prefix, its kinds), loaded only when fenced.
            self._fence = self.vocabulary.fence_verifier(options.key, options.allow_kinds)
        self._mask = KeyMask.of(options.key)
        """With a key: a line holding it is refused before any check can quote it."""

    def _add(self, diagnostic: Diagnostic) -> None:
        if diagnostic.code not in self.enabled:
            return
        if self._sink is None:
            self.report.diagnostics.append(diagnostic)
            return
        if self._may_count and getattr(self._sink, "counting", False):  # no order to keep
            self._release()
            self._hand(diagnostic)
            return
        if self._held and self._held[0].line != diagnostic.line:
            self._release()
        self._held.append(diagnostic)

    def _release(self) -> None:
        """Hand the held line's diagnostics to the sink in report order."""
        self._held.sort(key=_order)
        for diagnostic in self._held:
            self._hand(diagnostic)
        self._held.clear()

    def _hand(self, diagnostic: Diagnostic) -> None:
        assert self._sink is not None
        self.report.streamed_severities[diagnostic.severity] += 1
        self._sink.diagnostic(diagnostic)

    def _track(self, line_no: int, width: int, table: dict[str, int] | set[str]) -> bool:
        """Whether ``table`` may grow; the first refusal is reported (BS308)."""
        if len(table) < MAX_TRACKED:
            return True
        if not self._warned_limit:
            self._warned_limit = True
            self._simple(
                "BS308",
                line_no,
                width,
                f"more than {MAX_TRACKED:,} distinct QUESTION ids or PLAN_DRAFT paths in one"
                " run: later ones are not remembered, so BS305 and BS306 may miss reuse",
            )
        return False

    def _simple(self, code: str, line: int, end: int, message: str) -> None:
        self._add(build_diagnostic(code, line, 0, max(end, 1), message))

    # -- feeding ------------------------------------------------------------

    def is_signal_like(self, text: str) -> bool:
        """Whether the line mentions this vocabulary's prefix word in any case."""
        return self._lines.is_signal_like(text)

    def feed_text(self, line_no: int, text: str) -> None:
        """One line (terminator removed) that may hold a signal."""
        if self._mask is not None and self._mask.holds(text):
            # The adapter printed its key: the line is no signal, whatever its mark (as
            # wrap --fence rules), and no check runs that would quote it in a suggestion.
            message = f"{KEY_LEAKED}, masked in every output (plain output under the fence)"
            self._simple(UNAUTHENTICATED_SIGNAL, line_no, len(text), message)
            return
        if self._may_count and getattr(self._sink, "counting", False):
            signal, diagnostics = self._counted_check(line_no, text)
        else:
            signal, diagnostics = self._lines.check(text, line_no)
        for diagnostic in diagnostics:
            self._add(diagnostic)
        if signal is not None and self._fence is not None:
            signal = self._fenced(line_no, text, signal.kind)
        if signal is not None:
            self._signal(line_no, signal, len(text))

    def _counted_check(
        self, line_no: int, text: str
    ) -> tuple[StreamSignal | None, list[Diagnostic]]:
        """The line checks for a sink that only counts from now on: a text checked before is
        not checked again (line checks hold no state between lines), so a flood of the same
        near-miss costs a lookup a line. Its diagnostics keep the earlier line's number."""
        found = self._checked.get(text)
        if found is None:
            found = self._lines.check(text, line_no)
            if len(self._checked) < _COUNTED_TEXTS and len(text) <= _COUNTED_TEXT_CHARS:
                self._checked[text] = found
        return found

    def _fenced(self, line_no: int, text: str, kind: str) -> StreamSignal | None:
        """The signal the fence accepts on ``text`` (its mark removed), or None after
        BS601-BS603. The fence judges the line itself (``check``), as every reader does.

        A refused line is plain output: it reaches no stream rule, so it cannot end
        the run (the missing-terminal verdict counts accepted signals), draft a plan
        or ask a question.
        """
        assert self._fence is not None
        verdict = self._fence.check(text)
        if verdict.signal is not None:
            return verdict.signal
        # No code: the strict line check took a line the fence's strict parse does not,
        # which cannot happen (one parser); refused all the same.
        code = verdict.code or UNAUTHENTICATED_SIGNAL
        problem = verdict.problem or f"unauthenticated {kind} signal"
        answered = "; not answered" if self.live and kind == SignalKind.QUESTION else ""
        self._simple(
            code, line_no, len(text), f"{problem} (plain output under the fence{answered})"
        )
        return None

    def feed_bytes(self, line_no: int, data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if self._lines.is_signal_like(data.decode("utf-8", "replace")):
                column = len(data[: exc.start].decode("utf-8", "replace"))
                self._add(
                    build_diagnostic(
                        "BS001",
                        line_no,
                        column,
                        column + 1,
                        f"a signal-like line is not valid UTF-8 (byte 0x{data[exc.start]:02x}"
                        f" at byte offset {exc.start}); readers treat it as plain output",
                    )
                )
            return
        self.feed_text(line_no, text)

    def feed_overlong(self, line_no: int, length: int) -> None:
        self._simple(
            "BS002",
            line_no,
            1,
            f"line of {length} bytes is over the {self.max_line_bytes}-byte bound; readers"
            " skip it, so any signal on it is lost",
        )

    def finish(self, lines: int) -> ConformanceReport:
        report = self.report
        report.lines = lines
        if self._terminal is None:
            run = report.run_id or "-"
            report.missing_terminal_signal.append(run)
            self._add(
                build_diagnostic(
                    "BS301",
                    max(lines, 1),
                    0,
                    0,
                    f"MissingTerminalSignal: run {run} emitted no terminal signal"
                    " (COMPLETED or FAILED)",
                )
            )
        report.diagnostics.sort(key=_order)
        if self._sink is not None:
            self._release()
        return report

    # -- stream rules ---------------------------------------------------------

    def _signal(self, line_no: int, signal: StreamSignal, width: int) -> None:
        if self._sink is None:
            self.report.signals.append(SeenSignal(line_no, signal))
        else:
            self.report.streamed_kinds[str(signal.kind)] += 1
            self._sink.signal(SeenSignal(line_no, signal))
        first = self._terminal
        if first is not None:
            if signal.is_terminal and signal.kind != first.signal.kind:
                self._simple(
                    "BS304",
                    line_no,
                    width,
                    f"{signal.kind} after {first.signal.kind} on line {first.line}:"
                    " the run's outcome is ambiguous",
                )
            elif signal.is_terminal:
                self._simple(
                    "BS303",
                    line_no,
                    width,
                    f"second {signal.kind} (the first is on line {first.line})",
                )
            else:
                self._simple(
                    "BS302",
                    line_no,
                    width,
                    f"{signal.kind} after the terminal {first.signal.kind} on line {first.line}",
                )
        elif signal.is_terminal:
            self._terminal = SeenSignal(line_no, signal)

        payload = signal.payload
        if signal.kind == SignalKind.QUESTION and isinstance(payload.get("id"), str):
            question_id = payload["id"]
            if self.live:
                self._live_question(question_id, line_no, width)
            elif question_id in self._question_ids:
                self._simple(
                    "BS305",
                    line_no,
                    width,
                    f"QUESTION id {question_id!r} was already used on line"
                    f" {self._question_ids[question_id]}",
                )
            elif self._track(line_no, width, self._question_ids):
                self._question_ids[question_id] = line_no
        elif signal.kind == SignalKind.PLAN_DRAFT and isinstance(payload.get("path"), str):
            if payload["path"] in self._drafted or self._track(line_no, width, self._drafted):
                self._drafted.add(payload["path"])
        elif (
            signal.kind == SignalKind.PLAN_READY
            and isinstance(payload.get("path"), str)
            and payload["path"] not in self._drafted
            and len(self._drafted) < MAX_TRACKED
        ):
            self._simple(
                "BS306",
                line_no,
                width,
                f"PLAN_READY path {payload['path']!r} was never announced by a PLAN_DRAFT",
            )

    def _live_question(self, question_id: str, line_no: int, width: int) -> None:
        if question_id in self._unanswered:
            reused = build_diagnostic(
                "BS305",
                line_no,
                0,
                max(width, 1),
                f"QUESTION id {question_id!r} is reused while the question asked on line"
                f" {self._question_ids[question_id]} is still unanswered",
            )
            # Severity override: live, an id reused while its question is open makes the
            # answer ambiguous (an error); in a recording reuse may follow an answer.
            self._add(replace(reused, severity=Severity.ERROR))
            return
        if question_id in self._question_ids or self._track(line_no, width, self._question_ids):
            self._question_ids[question_id] = line_no
            self._unanswered.add(question_id)

    def add(self, diagnostic: Diagnostic) -> None:
        """Live mode: a finding of the caller's about the line just fed (conform's BS403)."""
        self._add(diagnostic)

    @property
    def terminal(self) -> SeenSignal | None:
        """The run's first terminal signal so far."""
        return self._terminal

    def answered(self, question_id: str | None) -> None:
        """Live mode: the question with this id has been answered; its id may be reused."""
        if question_id is not None and question_id in self._unanswered:
            self._unanswered.discard(question_id)
            del self._question_ids[question_id]  # live mode remembers only open questions


def trigger_bytes(vocabulary: RuntimeVocabulary) -> bytes:
    """What a :class:`LineScanner` (``fold_case=True``) looks for: the prefix word in lower case."""
    return trigger_word(vocabulary.prefix).lower().encode("utf-8")


def _order(diagnostic: Diagnostic) -> tuple[int, int, str]:
    return diagnostic.line, diagnostic.start, diagnostic.code


def _numbered(lines: Iterable[str | bytes]) -> Iterator[tuple[int, str | bytes]]:
    """Number lines and drop one terminator as readers do (:func:`strip_terminator`).

    A line without a terminator may still end in the "\r" of a "\r\n" split off
    before (the language server splits a document on "\n"): that is dropped too, as
    the scanner drops it from the last line of a stream.
    """
    for number, line in enumerate(lines, 1):
        bare = strip_terminator(line)
        yield number, bare[:-1] if bare is line and line[-1:] in _CARRIAGE_RETURN else bare


def conformance_report(
    lines: Iterable[str | bytes],
    options: CheckOptions | None = None,
    *,
    sink: ReportSink | None = None,
    **fields: Any,
) -> ConformanceReport:
    """Check one run's stdout, given as lines (str or bytes, terminators optional).

    ``fields``: any of :class:`CheckOptions`' fields, over ``options``.
    """
    checker = StreamChecker(options, sink=sink, **fields)
    max_line_bytes = checker.max_line_bytes
    trigger = trigger_bytes(checker.vocabulary)
    count = 0
    for count, line in _numbered(lines):
        if isinstance(line, bytes):
            if len(line) > max_line_bytes:
                checker.feed_overlong(count, len(line))
            elif trigger in line.lower():
                checker.feed_bytes(count, line)
        elif len(line) * 4 > max_line_bytes and utf8_length(line) > max_line_bytes:
            checker.feed_overlong(count, utf8_length(line))
        elif checker.is_signal_like(line):
            checker.feed_text(count, line)
    return checker.finish(count)


def report_from_binary(
    stream: Readable,
    options: CheckOptions | None = None,
    *,
    sink: ReportSink | None = None,
    **fields: Any,
) -> ConformanceReport:
    """Check a binary stream; only signal-like lines reach Python code.

    With a ``sink`` the memory is constant: findings go to it as they are made.
    ``fields``: any of :class:`CheckOptions`' fields, over ``options``.
    """
    checker = StreamChecker(options, sink=sink, **fields)
    scanner = LineScanner(
        trigger_bytes(checker.vocabulary), fold_case=True, max_line_bytes=checker.max_line_bytes
    )
    for chunk in read_chunks(stream):
        _feed_scanned(checker, scanner.feed(chunk))
    _feed_scanned(checker, scanner.close())
    return checker.finish(scanner.lines)


def _feed_scanned(checker: StreamChecker, found: list[ScannedLine]) -> None:
    for scanned in found:
        if scanned.overlong:
            checker.feed_overlong(scanned.line_no, scanned.overlong)
        else:
            checker.feed_bytes(scanned.line_no, scanned.data)
