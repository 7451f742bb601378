"""ECMA-262 regular expressions, JSON Schema's ``pattern`` dialect, as Python ``re`` patterns.

JSON Schema defines ``pattern`` and the keys of ``patternProperties`` as ECMA-262
regular expressions. Ajv, the validator a JavaScript binding would use, compiles
them as ``new RegExp(pattern, "u")`` (its default ``unicodeRegExp: true``) and
asks ``.test(string)``. :func:`translate` reads a pattern with that grammar (the
``u`` flag: no Annex B leniency, so a lone ``{``, ``}`` or ``]`` and escapes such
as ``\\a`` are errors) and writes the Python pattern for which
``re.search(translated, s) is not None`` gives the same answer for every ``s``
(Python ``str`` code points being JavaScript's, astral characters as one code
point). Whatever cannot be translated faithfully, or is not valid ECMA-262 with
``u``, is refused with :class:`EcmaPatternError`. One pass, linear in the
pattern's length.
"""

from __future__ import annotations

from typing import Final

from bernstein_signals_toolkit.toolkit_errors import one_line

from ._ecma_classes import (
    CLASS_ESCAPES,
    EVERYTHING,
    LINE_TERMINATORS,
    MAX_CODE_POINT,
    NOT_WORD_BOUNDARY,
    WORD_BOUNDARY,
    Ranges,
    emit_code_point,
    emit_ranges,
)

__all__ = ["MAX_GROUP_DEPTH", "MAX_REPEAT_COUNT", "EcmaPatternError", "translate"]

MAX_GROUP_DEPTH: Final = 100
"""Groups nested deeper than this are refused (Python's own parser recurses on them)."""

MAX_REPEAT_COUNT: Final = 2**31 - 2
"""Larger ``{n,m}`` counts are refused: V8 reads them as infinity, the standard does not."""

_CONTROL_ESCAPES: Final = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SYNTAX_CHARACTERS: Final = frozenset("^$\\.*+?()[]{}|")
_IDENTITY_ESCAPES: Final = _SYNTAX_CHARACTERS | {"/"}
_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")
_DECIMAL_DIGITS: Final = frozenset("0123456789")
_ASCII_LETTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class EcmaPatternError(ValueError):
    """A pattern :func:`translate` refuses: ``reason`` at code point ``position``.

    ``unsupported`` is true when the pattern is valid ECMA-262 but uses what is
    not translated (lookbehind, ``\\p{...}``, named groups, backreferences, ...);
    false when no ECMA-262 engine with the ``u`` flag accepts it either.
    """

    def __init__(self, position: int, reason: str, *, unsupported: bool = False) -> None:
        self.position = position
        self.reason = one_line(reason)
        self.unsupported = unsupported
        super().__init__(f"{self.reason} at offset {position} of the pattern")


def _combine_surrogates(pattern: str) -> str:
    """Adjacent lead and trail surrogates as the one code point JavaScript reads there."""
    if not any(0xD800 <= ord(char) <= 0xDFFF for char in pattern):
        return pattern
    return pattern.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class _Parser:
    """Recursive descent over the ECMA-262 ``u``-mode Pattern grammar, emitting as it goes."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.end = len(source)
        self.pos = 0
        self.depth = 0
        self.out: list[str] = []

    # -- helpers -------------------------------------------------------------
    def _peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.source[index] if index < self.end else ""

    def _fail(self, reason: str, position: int | None = None) -> EcmaPatternError:
        return EcmaPatternError(self.pos if position is None else position, reason)

    def _refuse(self, reason: str, position: int) -> EcmaPatternError:
        return EcmaPatternError(position, reason, unsupported=True)

    # -- Pattern, Disjunction, Alternative, Term ----------------------------
    def pattern(self) -> str:
        self._disjunction()
        if self.pos < self.end:
            raise self._fail("unmatched ')'")
        return "".join(self.out)

    def _disjunction(self) -> None:
        self._alternative()
        while self._peek() == "|":
            self.pos += 1
            self.out.append("|")
            self._alternative()

    def _alternative(self) -> None:
        while self.pos < self.end and self.source[self.pos] not in "|)":
            self._term()

    def _term(self) -> None:
        char = self.source[self.pos]
        if char == "^":
            self.pos += 1
            self.out.append("\\A")
            self._no_quantifier()
            return
        if char == "$":
            self.pos += 1
            self.out.append("\\Z")
            self._no_quantifier()
            return
        if char == "\\" and self._peek(1) in ("b", "B"):
            self.out.append(WORD_BOUNDARY if self._peek(1) == "b" else NOT_WORD_BOUNDARY)
            self.pos += 2
            self._no_quantifier()
            return
        if char == "(":
            if self._group():
                self._no_quantifier()
                return
        elif char in "*+?":
            raise self._fail("nothing to repeat")
        elif char == "{":
            if self._quantifier_bounds(self.pos) is not None:
                raise self._fail("nothing to repeat")
            raise self._fail("lone '{' (write \\{ for the character)")
        elif char in "}]":
            raise self._fail(f"lone '{char}' (write \\{char} for the character)")
        elif char == ".":
            self.pos += 1
            self.out.append("[^" + emit_ranges(LINE_TERMINATORS) + "]")
        elif char == "[":
            self._class()
        elif char == "\\":
            self._atom_escape()
        else:
            self.pos += 1
            self.out.append(emit_code_point(ord(char)))
        self._quantifier()

    def _no_quantifier(self) -> None:
        """Assertions cannot be quantified with the ``u`` flag."""
        char = self._peek()
        if char in ("*", "+", "?"):
            raise self._fail("nothing to repeat: an assertion cannot be quantified")
        if char == "{" and self._quantifier_bounds(self.pos) is not None:
            raise self._fail("nothing to repeat: an assertion cannot be quantified")

    # -- Quantifier ----------------------------------------------------------
    def _digits(self, index: int) -> int:
        """The end of the run of decimal digits starting at ``index``."""
        while index < self.end and self.source[index] in _DECIMAL_DIGITS:
            index += 1
        return index

    def _quantifier_bounds(self, index: int) -> tuple[str, str | None, int] | None:
        """``{n}``, ``{n,}`` or ``{n,m}`` at ``index`` as (n, m or None, end), else None."""
        first = index + 1
        after = self._digits(first)
        if after == first:
            return None
        low = self.source[first:after]
        if after < self.end and self.source[after] == "}":
            return low, low, after + 1
        if after >= self.end or self.source[after] != ",":
            return None
        second = after + 1
        end = self._digits(second)
        if end >= self.end or self.source[end] != "}":
            return None
        return low, (self.source[second:end] or None), end + 1

    def _count(self, digits: str, position: int) -> int:
        stripped = digits.lstrip("0")
        if len(stripped) > len(str(MAX_REPEAT_COUNT)) or int(stripped or "0") > MAX_REPEAT_COUNT:
            raise self._refuse(f"repetition count above {MAX_REPEAT_COUNT}", position)
        return int(stripped or "0")

    def _quantifier(self) -> None:
        char = self._peek()
        if char in ("*", "+", "?"):
            self.pos += 1
            self.out.append(char)
        elif char == "{":
            bounds = self._quantifier_bounds(self.pos)
            if bounds is None:
                raise self._fail("incomplete quantifier (write \\{ for the character)")
            low_text, high_text, end = bounds
            low = self._count(low_text, self.pos)
            if high_text is None:
                text = f"{{{low},}}"
            else:
                high = self._count(high_text, self.pos)
                if high < low:
                    raise self._fail("numbers out of order in {} quantifier")
                text = f"{{{low}}}" if high_text == low_text else f"{{{low},{high}}}"
            self.pos = end
            self.out.append(text)
        else:
            return
        if self._peek() == "?":
            self.pos += 1
            self.out.append("?")
        char = self._peek()
        if char in ("*", "+", "?") or (
            char == "{" and self._quantifier_bounds(self.pos) is not None
        ):
            raise self._fail("nothing to repeat: a quantifier follows a quantifier")

    # -- Groups --------------------------------------------------------------
    def _group(self) -> bool:
        """A group at ``(``; true when it is a lookahead (an assertion)."""
        start = self.pos
        assertion = False
        if self._peek(1) == "?":
            kind = self._peek(2)
            if kind in ("=", "!"):
                opening, assertion = "(?" + kind, True
                self.pos += 3
            elif kind == ":":
                opening = "(?:"
                self.pos += 3
            elif kind == "<" and self._peek(3) in ("=", "!"):
                raise self._refuse("lookbehind is not supported", start)
            elif kind == "<":
                raise self._refuse("named groups are not supported", start)
            else:
                raise self._fail("invalid group: '(?' must start (?:, (?=, (?!, (?<= or (?<!")
        else:
            # Capturing: nothing reads the capture (no backreferences), so Python need not keep it.
            opening = "(?:"
            self.pos += 1
        self.depth += 1
        if self.depth > MAX_GROUP_DEPTH:
            raise self._refuse(f"groups nested deeper than {MAX_GROUP_DEPTH}", start)
        self.out.append(opening)
        self._disjunction()
        if self._peek() != ")":
            raise self._fail("unterminated group", start)
        self.pos += 1
        self.depth -= 1
        self.out.append(")")
        return assertion

    # -- Escapes -------------------------------------------------------------
    def _after_backslash(self) -> tuple[int, str]:
        """Step over the ``\\`` at ``pos``: its position and the character after it."""
        start = self.pos
        self.pos += 1
        char = self._peek()
        if not char:
            raise self._fail("'\\' at the end of the pattern", start)
        return start, char

    def _atom_escape(self) -> None:
        start, char = self._after_backslash()
        if char in CLASS_ESCAPES:
            self.pos += 1
            self.out.append("[" + emit_ranges(CLASS_ESCAPES[char]) + "]")
            return
        if char in _DECIMAL_DIGITS and char != "0":
            raise self._refuse("backreferences are not supported", start)
        if char == "k":
            raise self._refuse("named backreferences are not supported", start)
        self.out.append(emit_code_point(self._character_escape(start)))

    def _character_escape(self, start: int) -> int:
        """The code point of CharacterEscape after ``\\`` (``self.pos`` just past it)."""
        char = self._peek()
        if char in ("p", "P"):
            raise self._refuse("Unicode property escapes (\\p, \\P) are not supported", start)
        if char in _CONTROL_ESCAPES:
            self.pos += 1
            return _CONTROL_ESCAPES[char]
        if char == "c":
            letter = self._peek(1)
            if not letter or letter not in _ASCII_LETTERS:
                raise self._fail("invalid escape: \\c must be followed by an ASCII letter", start)
            self.pos += 2
            return ord(letter) % 32
        if char == "0":
            if self._peek(1) and self._peek(1) in _DECIMAL_DIGITS:
                raise self._fail("invalid escape: \\0 followed by a digit", start)
            self.pos += 1
            return 0
        if char == "x":
            digits = self.source[self.pos + 1 : self.pos + 3]
            if len(digits) != 2 or not all(d in _HEX_DIGITS for d in digits):
                raise self._fail("invalid escape: \\x must be followed by two hex digits", start)
            self.pos += 3
            return int(digits, 16)
        if char == "u":
            return self._unicode_escape(start)
        if char in _IDENTITY_ESCAPES:
            self.pos += 1
            return ord(char)
        raise self._fail(
            f"invalid escape \\{char} (with the u flag only syntax characters and / escape)",
            start,
        )

    def _hex4(self, index: int) -> int | None:
        digits = self.source[index : index + 4]
        if len(digits) == 4 and all(d in _HEX_DIGITS for d in digits):
            return int(digits, 16)
        return None

    def _unicode_escape(self, start: int) -> int:
        if self._peek(1) == "{":
            first = self.pos + 2
            end = first
            while end < self.end and self.source[end] in _HEX_DIGITS:
                end += 1
            digits = self.source[first:end].lstrip("0") or ("0" if end > first else "")
            if end == first or end >= self.end or self.source[end] != "}":
                raise self._fail("invalid escape: \\u{ needs hex digits and }", start)
            if len(digits) > 6 or int(digits, 16) > MAX_CODE_POINT:
                raise self._fail("invalid escape: \\u{...} above 10FFFF", start)
            self.pos = end + 1
            return int(digits, 16)
        code = self._hex4(self.pos + 1)
        if code is None:
            raise self._fail("invalid escape: \\u must be followed by four hex digits or {", start)
        self.pos += 5
        if 0xD800 <= code <= 0xDBFF and self._peek() == "\\" and self._peek(1) == "u":
            trail = self._hex4(self.pos + 2)
            if trail is not None and 0xDC00 <= trail <= 0xDFFF:
                self.pos += 6
                return 0x10000 + ((code - 0xD800) << 10) + (trail - 0xDC00)
        return code

    # -- Character classes ---------------------------------------------------
    def _class_atom(self) -> tuple[int, Ranges | None]:
        """One ClassAtom: a code point, or (-1, ranges) for a class escape."""
        char = self.source[self.pos]
        if char != "\\":
            self.pos += 1
            return ord(char), None
        start, char = self._after_backslash()
        if char in CLASS_ESCAPES:
            self.pos += 1
            return -1, CLASS_ESCAPES[char]
        if char == "b":
            self.pos += 1
            return 0x08, None
        if char == "-":
            self.pos += 1
            return 0x2D, None
        return self._character_escape(start), None

    def _class(self) -> None:
        start = self.pos
        self.pos += 1
        negated = self._peek() == "^"
        if negated:
            self.pos += 1
        parts: list[str] = []
        while True:
            if self.pos >= self.end:
                raise self._fail("unterminated character class", start)
            if self.source[self.pos] == "]":
                self.pos += 1
                break
            atom_start = self.pos
            low, low_set = self._class_atom()
            if self._peek() == "-" and self._peek(1) not in ("]", ""):
                self.pos += 1
                high, high_set = self._class_atom()
                if low_set is not None or high_set is not None:
                    raise self._fail("a class escape cannot bound a range", atom_start)
                if high < low:
                    raise self._fail("range out of order in character class", atom_start)
                parts.append(emit_ranges(((low, high),)))
            elif low_set is not None:
                parts.append(emit_ranges(low_set))
            else:
                parts.append(emit_code_point(low))
        if not parts:
            # [] matches nothing and [^] anything; Python reads "[]" and "[^]" otherwise.
            self.out.append("[" + ("" if negated else "^") + EVERYTHING + "]")
            return
        self.out.append(("[^" if negated else "[") + "".join(parts) + "]")


def translate(pattern: str) -> str:
    """The Python ``re`` pattern that ``re.search`` with no flags matches exactly as
    ``new RegExp(pattern, "u").test`` does; raise :class:`EcmaPatternError` instead
    when that cannot be done faithfully or ``pattern`` is not valid ECMA-262 with ``u``.

    Supported: literals, ``.``, ``^``, ``$`` (input start and end: no multiline),
    ``\\b``, ``\\B``, ``\\d``, ``\\D``, ``\\w``, ``\\W`` (ASCII), ``\\s``, ``\\S``
    (ECMA's white space and line terminators), character classes with ranges and
    negation, escapes ``\\f \\n \\r \\t \\v \\0 \\cX \\xHH \\uHHHH \\u{H...}`` and
    identity escapes of syntax characters and ``/``, quantifiers ``* + ? {n}
    {n,} {n,m}`` greedy or lazy, capturing and non-capturing groups, lookahead,
    alternation. Refused as unsupported: lookbehind, named groups,
    backreferences, ``\\p{...}``/``\\P{...}``.
    """
    return _Parser(_combine_surrogates(pattern)).pattern()
