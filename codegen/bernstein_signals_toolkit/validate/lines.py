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

import contextlib
import difflib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, cast

from bernstein_signals import AnySignal, StreamSignal

from ..runtime_vocabulary import RuntimeVocabulary, built_in
from ._limits import PayloadProbe, limit_problem
from ._spans import layout, locate
from .codes import CODES, Severity
from .diagnostics import Diagnostic, build_diagnostic

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
MAX_DUPLICATE_KEYS_SHOWN = 20
"""BS213 names at most this many distinct duplicated keys per line (each costs a pass)."""
MAX_SCHEMA_ERRORS_SHOWN = 20
"""BS101 diagnostics per line; the last one counts the rest (a line can hold millions)."""

_NON_FINITE = re.compile(r"-?(?:NaN|Infinity)")
_BAD_JSON_SPACE = re.compile(r"[\r\n\f\v]")
_COLON = re.compile(r"[ \t]*:")
_SPACES = re.compile(r"\s*+")
_ONLY_SPACES = re.compile(r" *+")
_LENIENT_ONLY = frozenset({"BS206", "BS207", "BS208"})


_SHOWN_CHARS = 40
"""How much of a quoted word a message shows: a hostile line must not make a huge message."""


def _shown(word: str) -> str:
    """``repr`` of a word from the line, cut short when long."""
    if len(word) <= _SHOWN_CHARS:
        return repr(word)
    return f"{word[:_SHOWN_CHARS]!r}... ({len(word)} characters)"


def utf8_length(text: str) -> int:
    """Bytes ``text`` takes in UTF-8; a lone surrogate (a document may hold one) counts 3."""
    if text.isascii():  # constant time for str: no copy of a long line
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def trigger_word(prefix: str) -> str:
    """The word of a prefix (``BERNSTEIN`` of ``BERNSTEIN:``): lines holding it in any case
    are the only ones worth a closer look.
    """
    return prefix.rstrip(":") or prefix


@dataclass(frozen=True)
class _Shapes:
    """The patterns that find near-misses of one vocabulary's lines."""

    prefix: str
    word: str
    kinds: frozenset[str]
    longest_kind: int
    trigger: re.Pattern[str]
    shape: re.Pattern[str]
    lenient_shape: re.Pattern[str]


@cache
def _shapes(prefix: str, kinds: tuple[str, ...]) -> _Shapes:
    word = trigger_word(prefix)
    escaped = re.escape(word)
    return _Shapes(
        prefix=prefix,
        word=word,
        kinds=frozenset(kinds),
        longest_kind=max(map(len, kinds)),
        trigger=re.compile(f"(?i){escaped}"),
        shape=re.compile(
            f"(?i){escaped}" + r"(?P<gap>[ \t]*)(?P<colon>:?)(?P<space>\s*)(?P<kind>\w*)"
        ),
        lenient_shape=re.compile(r"\s*" + re.escape(prefix) + r"\s*\w+\s*"),
    )


def is_signal_like(text: str, vocabulary: RuntimeVocabulary | None = None) -> bool:
    """Whether a line mentions the prefix in any case: the only lines worth a closer look."""
    vocabulary = vocabulary or built_in()
    return _shapes(vocabulary.prefix, vocabulary.kinds).trigger.search(text) is not None


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or ``limit + 1`` once it is certain to exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            )
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def near_kind(word: str, kinds: Sequence[str]) -> str | None:
    """The known kind (or name) ``word`` most likely misspells: within a third of its length
    in edits (one to three), else None. Nothing is suggested for a name that is merely new.
    """
    best: tuple[int, str] | None = None
    for kind in kinds:
        limit = max(1, min(3, len(kind) // 3))
        distance = _edit_distance(word, kind, limit)
        if distance <= limit and (best is None or distance < best[0]):
            best = (distance, kind)
    return best[1] if best else None


@dataclass
class _Finding:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    replacement: str | None = None


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
        self._shapes = _shapes(self.vocabulary.prefix, self.vocabulary.kinds)

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
        finding = self._near_miss(text, line_no)
        lenient = (
            vocabulary.parse_signal(text, lenient=True, unknown_kinds=True)
            if self.lenient
            else None
        )
        diagnostics = [self._with_fix(d, finding.replacement) for d in finding.diagnostics]
        if lenient is None:
            return None, self._enabled(diagnostics)
        diagnostics = [_downgrade(d) if d.code in _LENIENT_ONLY else d for d in diagnostics]
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
            f"unknown kind {_shown(kind)}{hint} ({self.vocabulary.describe()} knows"
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
        payload_end = _content_end(text, offset) if has_payload else offset
        errors = self.vocabulary.validate_payload(signal.kind, signal.payload)
        shown = errors[:MAX_SCHEMA_ERRORS_SHOWN]
        wanted = {error.pointer for error in shown}
        spans = layout(text, wanted, start=offset).spans if shown and has_payload else {}
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
        duplicates = _duplicate_keys(text, offset) if has_payload else []
        for key in duplicates[:MAX_DUPLICATE_KEYS_SHOWN]:
            start, end = _last_key(text, key, offset, payload_end)
            diagnostics.append(
                build_diagnostic(
                    "BS213",
                    line_no,
                    start,
                    end,
                    f"duplicate key {_shown(key)} in the {signal.kind} payload: readers keep"
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

    # -- near misses --------------------------------------------------------

    def _near_miss(self, text: str, line_no: int) -> _Finding:
        for match in self._shapes.shape.finditer(text):
            if _is_attempt(match, self._shapes):
                return self._explain(text, match, line_no)
        return _Finding()

    def _explain(self, text: str, match: re.Match[str], line_no: int) -> _Finding:
        finding = _Finding()
        start = match.start()

        def add(code: str, begin: int, end: int, message: str) -> None:
            # At least one character wide, but never past the end of the line.
            end = min(max(end, begin + 1), max(len(text), begin))
            finding.diagnostics.append(build_diagnostic(code, line_no, begin, end, message))

        before = text[:start]
        if before and not before.isspace():
            candidate = text[start:]
            inner = self._near_miss(candidate, line_no)
            parsed = self.vocabulary.parse_signal(candidate, unknown_kinds=True)
            finding.replacement = candidate if parsed is not None else inner.replacement
            add(
                "BS214",
                start,
                len(text),
                "the signal does not start at column 0: text before the prefix makes the"
                " whole line plain output; print the signal on its own line",
            )
            return finding
        if before:
            add(
                "BS208",
                0,
                start,
                "whitespace before the prefix (indented output); accepted only by lenient readers",
            )

        prefix = self.vocabulary.prefix
        prefix_word = self._shapes.word
        word = text[start : start + len(prefix_word)]
        if word != prefix_word:
            add(
                "BS201",
                start,
                start + len(word),
                f"prefix {_shown(word)} is in the wrong case: readers only match {prefix!r}",
            )
        if match["gap"] or not match["colon"]:
            add(
                "BS202",
                start,
                match.end("colon") if match["colon"] else match.end("gap"),
                f"the prefix must be exactly {prefix!r}"
                + (" (no space before the colon)" if match["gap"] else " (the colon is missing)"),
            )
        if match["space"]:
            add(
                "BS208",
                match.start("space"),
                match.end("space"),
                "whitespace after the prefix; accepted only by lenient readers",
            )

        kind = self._kind(match, add)
        rest_at = match.end()
        payload = self._rest(text, rest_at, kind, add)
        if kind is not None and payload is not None:
            finding.replacement = payload
        return finding

    def _kind(self, match: re.Match[str], add: Callable[[str, int, int, str], None]) -> str | None:
        begin, end = match.start("kind"), match.end("kind")
        known_kinds = self._shapes.kinds
        if (
            end - begin > self._shapes.longest_kind
        ):  # no kind, and no misspelling of one: copy nothing
            head = match.string[begin : begin + _SHOWN_CHARS]
            add("BS204", begin, end, f"unknown kind {head!r}... ({end - begin} characters)")
            return None
        word = match["kind"]
        if word in known_kinds:
            return word
        if word.upper() in known_kinds:
            add("BS203", begin, end, f"kind {word!r} must be written {word.upper()!r}")
            return word.upper()
        guess = close_match(word.upper(), list(self.vocabulary.kinds))
        hint = f"; did you mean {guess!r}?" if guess else ""
        known = ", ".join(self.vocabulary.kinds)
        if not word:
            add("BS204", begin, end, f"no kind after the prefix (known kinds: {known})")
        else:
            add("BS204", begin, end, f"unknown kind {_shown(word)}{hint} (known kinds: {known})")
        return guess

    def _rest(
        self, text: str, at: int, kind: str | None, add: Callable[[str, int, int, str], None]
    ) -> str | None:
        """Check what follows the kind; return the replacement line, if one is certain.

        ``kind`` is None when no kind is certain: the payload is still judged, and
        no replacement is offered.
        """
        fixed = f"{self.vocabulary.prefix}{kind}" if kind is not None else None
        size = len(text)
        if at >= size:
            return fixed
        payload_at = _SPACES.match(text, at).end()  # type: ignore[union-attr]
        if payload_at == size:
            add(
                "BS208",
                at,
                size,
                "trailing whitespace after the kind; accepted only by lenient readers",
            )
            return fixed
        if payload_at == at:
            if text[at] not in '{["':
                add(
                    "BS211",
                    at,
                    size,
                    "text follows the kind: only one space and a JSON object may follow it",
                )
                return None
            add(
                "BS205",
                at,
                at + 1,
                "no space between the kind and the payload: put exactly one space before it",
            )
        elif payload_at - at != 1 or text[at] != " ":
            if _ONLY_SPACES.fullmatch(text, at, payload_at):
                add(
                    "BS206",
                    at,
                    payload_at,
                    f"{payload_at - at} spaces between the kind and"
                    " the payload; strict readers require exactly one",
                )
            else:
                add(
                    "BS207",
                    at,
                    payload_at,
                    "the kind and the payload must be separated by one"
                    " space, not tabs or other whitespace; accepted only by lenient readers",
                )
        end = _content_end(text, payload_at)
        if end < size:
            add(
                "BS208",
                end,
                size,
                "trailing whitespace after the payload; accepted only by lenient readers",
            )
        return self._payload(text, payload_at, end, fixed, add)

    def _payload(
        self,
        text: str,
        at: int,
        end: int,
        fixed: str | None,
        add: Callable[[str, int, int, str], None],
    ) -> str | None:
        """Explain the payload ``text[at:end]`` (read in place: no copy of a long line)."""
        probe = PayloadProbe()
        try:
            value, stop = probe.decode(text, at)
        except json.JSONDecodeError as exc:
            pos = min(exc.pos, end)
            add("BS210", pos, pos + 1, f"malformed JSON payload: {exc.msg} (column {pos + 1})")
            return None
        except ValueError as exc:  # LimitExceeded, or anything else json refuses to convert
            add("BS215", at, end, f"the payload holds {exc}")
            return None
        if not isinstance(value, dict):
            what = "null" if value is None else type(value).__name__.replace("list", "array")
            add("BS209", at, stop, f"the payload is a JSON {what}, not an object")
            return None
        if stop < end:
            add("BS211", stop, end, "text follows the payload object")
            return None
        if probe.non_finite:
            found = _NON_FINITE.search(text, at, end)
            begin, finish = found.span() if found else (at, end)
            add("BS212", begin, finish, "NaN and Infinity are not JSON; send null or a string")
            return None
        problem = limit_problem(value, probe)
        if problem:
            add("BS215", at, end, f"the payload holds {problem}")
            return None
        # Whether the binding reads this payload is judged on a line with a kind it parses
        # whatever the vocabulary knows: the kind must never decide a JSON verdict.
        judged = fixed if fixed is not None else self.vocabulary.prefix + self.vocabulary.kinds[0]
        candidate = f"{judged} {text[at:end]}"
        if self.vocabulary.parse_signal(candidate, unknown_kinds=True) is not None:
            return candidate if fixed is not None else None
        bad_space = _BAD_JSON_SPACE.search(text, at, end)
        if bad_space:
            add(
                "BS210",
                bad_space.start(),
                bad_space.end(),
                "JSON whitespace in a"
                " signal is limited to spaces and tabs (CR, LF, FF and VT end lines for readers)",
            )
        else:
            add("BS210", at, end, "the payload is not strict JSON")
        if fixed is None:
            return None
        try:
            return self.vocabulary.format_signal(
                fixed[len(self.vocabulary.prefix) :], value, validate=False
            )
        except (TypeError, ValueError):
            return None

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


def _content_end(text: str, start: int) -> int:
    """Where ``text`` ends without trailing whitespace, at ``start`` or later.

    A short run is walked back in place; only a long one is measured by a copy.
    """
    end = len(text)
    floor = max(start, end - 64)
    while end > floor and text[end - 1].isspace():
        end -= 1
    if end == floor > start:
        return max(len(text.rstrip()), start)
    return end


def _duplicate_keys(text: str, start: int) -> list[str]:
    """Keys repeated within one object of the payload at ``start``, in the order found.

    json's C scanner does the reading; at most MAX_DUPLICATE_KEYS_SHOWN are collected.
    """
    if text.count(":", start) < 2:
        return []
    found: dict[str, None] = {}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) != len(items) and len(found) < MAX_DUPLICATE_KEYS_SHOWN:
            seen: set[str] = set()
            for key, _ in items:
                if key in seen:
                    found[key] = None
                    if len(found) >= MAX_DUPLICATE_KEYS_SHOWN:
                        break
                seen.add(key)
        return result

    with contextlib.suppress(ValueError, RecursionError):
        json.JSONDecoder(object_pairs_hook=pairs).raw_decode(text, start)
    return list(found)


def _last_key(text: str, key: str, start: int, end: int) -> tuple[int, int]:
    """The span of the last ``"key":`` in ``text[start:end]`` (one backward pass), or all of it."""
    literal = json.dumps(key, ensure_ascii=False)
    limit = end
    while (at := text.rfind(literal, start, limit)) >= 0:
        if _COLON.match(text, at + len(literal)):
            return at, at + len(literal)
        limit = at + len(literal) - 1
    return start, end


def close_match(word: str, choices: list[str]) -> str | None:
    """The choice ``word`` most likely misspells, as difflib judges at its 0.6 cutoff.

    A word more than twice as long as every choice can never reach the cutoff,
    and difflib indexes every character of it: such words are not compared.
    """
    if not choices or len(word) > 2 * max(len(choice) for choice in choices):
        return None
    guess = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return guess[0] if guess else None


def _is_attempt(match: re.Match[str], shapes: _Shapes) -> bool:
    """Tell a signal attempt from prose that mentions the name."""
    long_word = match.end("kind") - match.start("kind") > shapes.longest_kind
    if not long_word and match["kind"].upper() in shapes.kinds:
        return True
    if not match["colon"]:
        return False
    if match.string.startswith(shapes.word, match.start()):
        return True
    return not match["gap"] and match["kind"].isupper()


def _downgrade(diagnostic: Diagnostic) -> Diagnostic:
    """Severity override: in lenient mode a lenient-only deviation is information only."""
    return replace(
        diagnostic,
        severity=Severity.INFORMATION,
        message=diagnostic.message.replace(
            "accepted only by lenient readers", "accepted in lenient mode"
        ),
    )
