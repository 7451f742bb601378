"""Diagnose one line: a signal's payload against its schema, or why a signal-like line is not one.

The verdict always comes from the binding (``parse_signal`` and the generated
``validate_payload``) of the checker's :class:`~..runtime_vocabulary.RuntimeVocabulary`
(the built-in one unless ``--vocabulary`` names another); this module only
explains it, so the validator can never disagree with what readers do.

A well-formed line of a kind the vocabulary does not know (a signal of a newer
or forked vocabulary) is BS216, never a payload or JSON error: its payload has
no schema here. Every diagnostic derived from re-parsing a repaired line
re-parses it with ``unknown_kinds=True``, so that no kind (unknown, or only
guessed) can make a well-formed payload look malformed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from bernstein_signals import AnySignal, StreamSignal

from ..runtime_vocabulary import RuntimeVocabulary, built_in
from ._spans import layout, locate
from .codes import CODES, Severity
from .diagnostics import Diagnostic, build_diagnostic, shown_word
from .near_miss import NearMiss, shapes, trigger_word
from .payload_text import MAX_DUPLICATE_KEYS_SHOWN, content_end, duplicate_keys, last_key_span
from .suggest import close_match, near_kind

__all__ = [
    "LONG_SIGNAL_BYTES",
    "MAX_DUPLICATE_KEYS_SHOWN",
    "MAX_SCHEMA_ERRORS_SHOWN",
    "LineChecker",
    "close_match",
    "is_signal_like",
    "near_kind",
    "trigger_word",
    "utf8_length",
]

LONG_SIGNAL_BYTES = 4096
"""PIPE_BUF on Linux: longer writes may interleave with other writers."""
MAX_SCHEMA_ERRORS_SHOWN = 20
"""BS101 diagnostics per line; the last one counts the rest (a line can hold millions)."""

_LENIENT_ONLY = frozenset({"BS206", "BS207", "BS208"})
_SAYS_WHO_ACCEPTS = frozenset({"BS207", "BS208"})
_ACCEPTED_BY_LENIENT = "; accepted only by lenient readers"
_ACCEPTED_HERE = "; accepted in lenient mode"


def utf8_length(text: str) -> int:
    """Bytes ``text`` takes in UTF-8; a lone surrogate (a document may hold one) counts 3."""
    if text.isascii():  # constant time for str: no copy of a long line
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def is_signal_like(text: str, vocabulary: RuntimeVocabulary | None = None) -> bool:
    """Whether a line mentions the prefix in any case: the only lines worth a closer look."""
    vocabulary = vocabulary or built_in()
    return shapes(vocabulary.prefix, vocabulary.kinds).trigger.search(text) is not None


class LineChecker:
    """Diagnoses lines one at a time; holds no state between lines.

    ``unknown_kinds`` is the severity of BS216 (a well-formed line of a kind the
    vocabulary does not know), None to not report it.
    """

    def __init__(
        self,
        *,
        lenient: bool = False,
        enabled: frozenset[str] | None = None,
        vocabulary: RuntimeVocabulary | None = None,
        unknown_kinds: Severity | None = Severity.WARNING,
    ) -> None:
        self.lenient = lenient
        self.enabled = frozenset(CODES) if enabled is None else enabled
        self.vocabulary = vocabulary or built_in()
        self.unknown_kinds = unknown_kinds
        self._shapes = shapes(self.vocabulary.prefix, self.vocabulary.kinds)
        self._near_misses = NearMiss(self.vocabulary)

    # -- public -------------------------------------------------------------

    def is_signal_like(self, text: str) -> bool:
        """Whether a line mentions the prefix in any case: the only lines worth a closer look."""
        return self._shapes.trigger.search(text) is not None

    def check(self, text: str, line_no: int) -> tuple[StreamSignal | None, list[Diagnostic]]:
        """The signal on the line (None if readers in this mode see none) and its diagnostics."""
        vocabulary = self.vocabulary
        signal = vocabulary.parse_signal(text, unknown_kinds=True)
        if signal is not None:
            if not vocabulary.knows(signal.kind):
                return None, self._unknown_kind(signal, text, line_no)
            known = cast(StreamSignal, signal)  # the vocabulary knows the kind
            offset = len(vocabulary.prefix) + len(known.kind) + 1
            return known, self._signal_diagnostics(known, text, offset, line_no)
        if not self._shapes.trigger.search(text):
            return None, []
        finding = self._near_misses.explain(text, line_no)
        lenient = (
            vocabulary.parse_signal(text, lenient=True, unknown_kinds=True)
            if self.lenient
            else None
        )
        accepted = lenient is not None
        diagnostics = [
            _lenient_only(self._with_fix(d, finding.replacement), accepted=accepted)
            for d in finding.diagnostics
        ]
        if lenient is None:
            return None, self._enabled(diagnostics)
        if not vocabulary.knows(lenient.kind):
            # The kind is well-formed, only new: BS216 says so instead of BS204's misspelling.
            diagnostics = [d for d in diagnostics if d.code != "BS204"]
            diagnostics += self._unknown_kind(lenient, text, line_no)
            diagnostics.sort(key=lambda d: (d.start, d.code))
            return None, self._enabled(diagnostics)
        known = cast(StreamSignal, lenient)  # the vocabulary knows the kind
        payload_at = self._lenient_payload_offset(text)
        diagnostics += self._signal_diagnostics(known, text, payload_at, line_no)
        return known, self._enabled(diagnostics)

    # -- unknown kinds --------------------------------------------------------

    def _unknown_kind(self, signal: AnySignal, text: str, line_no: int) -> list[Diagnostic]:
        """BS216 for a well-formed line whose kind the vocabulary does not know."""
        if self.unknown_kinds is None:
            return []
        kind = signal.kind
        begin = text.find(kind, text.find(self.vocabulary.prefix))
        begin = max(begin, 0)
        guess = near_kind(kind, self.vocabulary.kinds)
        hint = f"; did you mean {guess!r}?" if guess else ""
        replacement = None
        if guess is not None:
            candidate = text[:begin] + guess + text[begin + len(kind) :]
            if self.vocabulary.parse_signal(candidate, lenient=self.lenient) is not None:
                replacement = candidate
        diagnostic = build_diagnostic(
            "BS216",
            line_no,
            begin,
            begin + len(kind),
            f"unknown kind {shown_word(kind)}{hint} ({self.vocabulary.describe()} knows"
            f" {', '.join(self.vocabulary.kinds)}); readers of this vocabulary treat the line"
            " as plain output",
            replacement=replacement,
        )
        # Severity override: BS216's severity is the caller's --unknown-kinds setting.
        return self._enabled([replace(diagnostic, severity=self.unknown_kinds)])

    # -- signals ------------------------------------------------------------

    def _signal_diagnostics(
        self, signal: StreamSignal, text: str, offset: int, line_no: int
    ) -> list[Diagnostic]:
        diagnostics: list[Diagnostic] = []
        # Positions are taken in the line itself: copying the payload out of a long
        # line costs fresh memory on every check.
        offset = min(offset, len(text))
        has_payload = bool(signal.payload) or text.find("{", offset) >= 0
        errors = self.vocabulary.validate_payload(signal.kind, signal.payload)
        duplicates = duplicate_keys(text, offset, signal.payload) if has_payload else []
        if errors or duplicates:  # where they point: only a line with findings is measured
            payload_end = content_end(text, offset) if has_payload else offset
        shown = errors[:MAX_SCHEMA_ERRORS_SHOWN]
        spans = {}
        if shown and has_payload:
            spans = layout(text, {error.pointer for error in shown}, start=offset).spans
        for index, error in enumerate(shown):
            start, end = locate(spans, error.pointer) or (offset, payload_end)
            more = len(errors) - len(shown) if index == len(shown) - 1 else 0
            diagnostics.append(
                build_diagnostic(
                    "BS101",
                    line_no,
                    start,
                    end,
                    f"{signal.kind} payload at {error.pointer or '/'}: {error.message}"
                    f" [{error.rule}]"
                    + (f" (and {more} more schema errors on this line)" if more else ""),
                    pointer=error.pointer,
                    rule=f"{error.rule}: {error.detail}",
                )
            )
        for key in duplicates[:MAX_DUPLICATE_KEYS_SHOWN]:
            start, end = last_key_span(text, key, offset, payload_end)
            diagnostics.append(
                build_diagnostic(
                    "BS213",
                    line_no,
                    start,
                    end,
                    f"duplicate key {shown_word(key)} in the {signal.kind} payload: readers keep"
                    " the last value, other JSON libraries may keep the first",
                )
            )
        if len(text) * 4 > LONG_SIGNAL_BYTES and utf8_length(text) > LONG_SIGNAL_BYTES:
            diagnostics.append(
                build_diagnostic(
                    "BS307",
                    line_no,
                    0,
                    len(text),
                    f"signal line of {utf8_length(text)} bytes, over {LONG_SIGNAL_BYTES}:"
                    " a write this long can interleave with other writers on the same pipe",
                )
            )
        return self._enabled(diagnostics)

    # -- helpers ------------------------------------------------------------

    def _enabled(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        if not diagnostics:
            return diagnostics
        return [d for d in diagnostics if d.code in self.enabled]

    def _lenient_payload_offset(self, text: str) -> int:
        match = self._shapes.lenient_shape.match(text)
        return match.end() if match else 0

    @staticmethod
    def _with_fix(diagnostic: Diagnostic, replacement: str | None) -> Diagnostic:
        if replacement is None:
            return diagnostic
        return replace(diagnostic, replacement=replacement)


def _lenient_only(diagnostic: Diagnostic, *, accepted: bool) -> Diagnostic:
    """A deviation only lenient readers accept (BS206-BS208) says which readers take the line
    (BS206's message names the strict ones itself); ``accepted``: this lenient checker does.
    """
    if diagnostic.code not in _LENIENT_ONLY:
        return diagnostic
    if diagnostic.code in _SAYS_WHO_ACCEPTS:
        note = _ACCEPTED_HERE if accepted else _ACCEPTED_BY_LENIENT
        diagnostic = replace(diagnostic, message=diagnostic.message + note)
    if not accepted:
        return diagnostic
    # Severity override: in lenient mode a deviation lenient readers accept is information.
    return replace(diagnostic, severity=Severity.INFORMATION)
