"""Diagnose one line: a signal's payload against its schema, or why a signal-like line is not one.

The verdict always comes from the binding (``parse_signal`` and the generated
``validate_payload``); this module only explains it, so the validator can
never disagree with what readers do.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bernstein_signals import (
    SIGNAL_PREFIX,
    SignalKind,
    StreamSignal,
    format_signal,
    parse_signal,
    validate_payload,
)

from ._limits import PayloadProbe, limit_problem
from ._spans import layout, locate
from .codes import CODES, Severity
from .diagnostics import Diagnostic

__all__ = [
    "LONG_SIGNAL_BYTES",
    "MAX_DUPLICATE_KEYS_SHOWN",
    "MAX_SCHEMA_ERRORS_SHOWN",
    "LineChecker",
    "close_match",
    "is_signal_like",
    "utf8_length",
]

LONG_SIGNAL_BYTES = 4096
"""PIPE_BUF on Linux: longer writes may interleave with other writers."""
MAX_DUPLICATE_KEYS_SHOWN = 20
"""BS213 names at most this many distinct duplicated keys per line (each costs a pass)."""
MAX_SCHEMA_ERRORS_SHOWN = 20
"""BS101 diagnostics per line; the last one counts the rest (a line can hold millions)."""

_KINDS = {kind.value for kind in SignalKind}
_LONGEST_KIND = max(len(kind) for kind in _KINDS)
_TRIGGER = re.compile(r"(?i)bernstein")
_SHAPE = re.compile(r"(?i)bernstein(?P<gap>[ \t]*)(?P<colon>:?)(?P<space>\s*)(?P<kind>\w*)")
_NON_FINITE = re.compile(r"-?(?:NaN|Infinity)")
_BAD_JSON_SPACE = re.compile(r"[\r\n\f\v]")
_COLON = re.compile(r"[ \t]*:")
_SPACES = re.compile(r"\s*+")
_ONLY_SPACES = re.compile(r" *+")
_LENIENT_ONLY = frozenset({"BS206", "BS207", "BS208"})
_PREFIX_WORD = SIGNAL_PREFIX.rstrip(":")


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


def is_signal_like(text: str) -> bool:
    """Whether a line mentions the prefix in any case: the only lines worth a closer look."""
    return _TRIGGER.search(text) is not None


@dataclass
class _Finding:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    replacement: str | None = None


class LineChecker:
    """Diagnoses lines one at a time; holds no state between lines."""

    def __init__(self, *, lenient: bool = False, enabled: frozenset[str] | None = None) -> None:
        self.lenient = lenient
        self.enabled = frozenset(CODES) if enabled is None else enabled

    # -- public -------------------------------------------------------------

    def check(self, text: str, line_no: int) -> tuple[StreamSignal | None, list[Diagnostic]]:
        """The signal on the line (None if readers in this mode see none) and its diagnostics."""
        signal = parse_signal(text)
        if signal is not None:
            offset = len(SIGNAL_PREFIX) + len(signal.kind) + 1
            return signal, self._signal_diagnostics(signal, text, offset, line_no)
        if not _TRIGGER.search(text):
            return None, []
        finding = self._near_miss(text, line_no)
        lenient = parse_signal(text, lenient=True) if self.lenient else None
        diagnostics = [self._with_fix(d, finding.replacement) for d in finding.diagnostics]
        if lenient is None:
            return None, self._enabled(diagnostics)
        diagnostics = [_downgrade(d) if d.code in _LENIENT_ONLY else d for d in diagnostics]
        payload_at = _lenient_payload_offset(text)
        diagnostics += self._signal_diagnostics(lenient, text, payload_at, line_no)
        return lenient, self._enabled(diagnostics)

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
        errors = validate_payload(signal.kind, signal.payload)
        shown = errors[:MAX_SCHEMA_ERRORS_SHOWN]
        wanted = {error.pointer for error in shown}
        spans = layout(text, wanted, start=offset).spans if shown and has_payload else {}
        for index, error in enumerate(shown):
            start, end = locate(spans, error.pointer) or (offset, payload_end)
            more = len(errors) - len(shown) if index == len(shown) - 1 else 0
            diagnostics.append(
                Diagnostic(
                    "BS101",
                    Severity.ERROR,
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
                Diagnostic(
                    "BS213",
                    Severity.WARNING,
                    line_no,
                    start,
                    end,
                    f"duplicate key {_shown(key)} in the {signal.kind} payload: readers keep"
                    " the last value, other JSON libraries may keep the first",
                )
            )
        if len(text) * 4 > LONG_SIGNAL_BYTES and utf8_length(text) > LONG_SIGNAL_BYTES:
            diagnostics.append(
                Diagnostic(
                    "BS307",
                    Severity.INFORMATION,
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
        for match in _SHAPE.finditer(text):
            if _is_attempt(match):
                return self._explain(text, match, line_no)
        return _Finding()

    def _explain(self, text: str, match: re.Match[str], line_no: int) -> _Finding:
        finding = _Finding()
        start = match.start()

        def add(code: str, begin: int, end: int, message: str) -> None:
            # At least one character wide, but never past the end of the line.
            end = min(max(end, begin + 1), max(len(text), begin))
            severity = CODES[code].severity
            finding.diagnostics.append(Diagnostic(code, severity, line_no, begin, end, message))

        before = text[:start]
        if before and not before.isspace():
            candidate = text[start:]
            inner = self._near_miss(candidate, line_no)
            finding.replacement = (
                candidate if parse_signal(candidate) is not None else inner.replacement
            )
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

        word = text[start : start + len(_PREFIX_WORD)]
        if word != _PREFIX_WORD:
            add(
                "BS201",
                start,
                start + len(word),
                f"prefix {_shown(word)} is in the wrong case: readers only match {SIGNAL_PREFIX!r}",
            )
        if match["gap"] or not match["colon"]:
            add(
                "BS202",
                start,
                match.end("colon") if match["colon"] else match.end("gap"),
                f"the prefix must be exactly {SIGNAL_PREFIX!r}"
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
        if end - begin > _LONGEST_KIND:  # no kind, and no misspelling of one: copy nothing
            head = match.string[begin : begin + _SHOWN_CHARS]
            add("BS204", begin, end, f"unknown kind {head!r}... ({end - begin} characters)")
            return None
        word = match["kind"]
        if word in _KINDS:
            return word
        if word.upper() in _KINDS:
            add("BS203", begin, end, f"kind {word!r} must be written {word.upper()!r}")
            return word.upper()
        guess = close_match(word.upper(), sorted(_KINDS))
        hint = f"; did you mean {guess!r}?" if guess else ""
        known = ", ".join(sorted(_KINDS))
        if not word:
            add("BS204", begin, end, f"no kind after the prefix (known kinds: {known})")
        else:
            add("BS204", begin, end, f"unknown kind {_shown(word)}{hint} (known kinds: {known})")
        return guess

    def _rest(
        self, text: str, at: int, kind: str | None, add: Callable[[str, int, int, str], None]
    ) -> str | None:
        """Check what follows the kind; return the replacement line, if one is certain."""
        fixed = f"{SIGNAL_PREFIX}{kind}"
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
        self, text: str, at: int, end: int, fixed: str, add: Callable[[str, int, int, str], None]
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
        candidate = f"{fixed} {text[at:end]}"
        if parse_signal(candidate) is not None:
            return candidate
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
        try:
            return format_signal(fixed[len(SIGNAL_PREFIX) :], value, validate=False)
        except (TypeError, ValueError):
            return None

    # -- helpers ------------------------------------------------------------

    def _enabled(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        if not diagnostics:
            return diagnostics
        return [d for d in diagnostics if d.code in self.enabled]

    @staticmethod
    def _with_fix(diagnostic: Diagnostic, replacement: str | None) -> Diagnostic:
        if replacement is None:
            return diagnostic
        return Diagnostic(
            diagnostic.code,
            diagnostic.severity,
            diagnostic.line,
            diagnostic.start,
            diagnostic.end,
            diagnostic.message,
            replacement,
            diagnostic.pointer,
        )


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


def _is_attempt(match: re.Match[str]) -> bool:
    """Tell a signal attempt from prose that mentions the name."""
    long_word = match.end("kind") - match.start("kind") > _LONGEST_KIND
    if not long_word and match["kind"].upper() in _KINDS:
        return True
    if not match["colon"]:
        return False
    if match.string.startswith(_PREFIX_WORD, match.start()):
        return True
    return not match["gap"] and match["kind"].isupper()


def _downgrade(diagnostic: Diagnostic) -> Diagnostic:
    return Diagnostic(
        diagnostic.code,
        Severity.INFORMATION,
        diagnostic.line,
        diagnostic.start,
        diagnostic.end,
        diagnostic.message.replace("accepted only by lenient readers", "accepted in lenient mode"),
        diagnostic.replacement,
        diagnostic.pointer,
    )


_LENIENT_SHAPE = re.compile(r"\s*" + re.escape(SIGNAL_PREFIX) + r"\s*\w+\s*")


def _lenient_payload_offset(text: str) -> int:
    match = _LENIENT_SHAPE.match(text)
    return match.end() if match else 0
