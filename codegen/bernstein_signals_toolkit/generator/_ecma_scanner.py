"""The lexical layer of ECMA-262 ``u``-mode patterns: reading escapes and ``{n,m}`` as values.

:class:`Scanner` holds where the reader is in the pattern and reads what a
``\\`` escape or a quantifier's bounds stand for, as code points and numbers;
:mod:`.ecma_regex` parses the grammar over it and writes the Python pattern.
Both raise :class:`EcmaPatternError`, the one refusal.
"""

from __future__ import annotations

from typing import Final

from bernstein_signals_toolkit.toolkit_errors import one_line

from ._ecma_classes import MAX_CODE_POINT

__all__ = ["DECIMAL_DIGITS", "MAX_REPEAT_COUNT", "EcmaPatternError", "Scanner"]

MAX_REPEAT_COUNT: Final = 2**31 - 2
"""Larger ``{n,m}`` counts are refused: V8 reads them as infinity, the standard does not."""

_CONTROL_ESCAPES: Final = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SYNTAX_CHARACTERS: Final = frozenset("^$\\.*+?()[]{}|")
_IDENTITY_ESCAPES: Final = _SYNTAX_CHARACTERS | {"/"}
_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")
DECIMAL_DIGITS: Final = frozenset("0123456789")
_ASCII_LETTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class EcmaPatternError(ValueError):
    """A pattern :func:`.ecma_regex.translate` refuses: ``reason`` at code point ``position``.

    ``unsupported`` is true when the pattern is valid ECMA-262 but uses what is
    not translated (lookbehind, ``\\p{...}``, named groups, backreferences, ...);
    false when no ECMA-262 engine with the ``u`` flag accepts it either.
    """

    def __init__(self, position: int, reason: str, *, unsupported: bool = False) -> None:
        self.position = position
        self.reason = one_line(reason)
        self.unsupported = unsupported
        super().__init__(f"{self.reason} at offset {position} of the pattern")


class Scanner:
    """A position in a pattern, and the readers of its escapes and quantifier bounds."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.end = len(source)
        self.pos = 0

    def _peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.source[index] if index < self.end else ""

    def _fail(self, reason: str, position: int | None = None) -> EcmaPatternError:
        return EcmaPatternError(self.pos if position is None else position, reason)

    def _refuse(self, reason: str, position: int) -> EcmaPatternError:
        return EcmaPatternError(position, reason, unsupported=True)

    # -- Quantifier bounds ---------------------------------------------------
    def _digits(self, index: int) -> int:
        """The end of the run of decimal digits starting at ``index``."""
        while index < self.end and self.source[index] in DECIMAL_DIGITS:
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

    # -- Escapes -------------------------------------------------------------
    def _after_backslash(self) -> tuple[int, str]:
        """Step over the ``\\`` at ``pos``: its position and the character after it."""
        start = self.pos
        self.pos += 1
        char = self._peek()
        if not char:
            raise self._fail("'\\' at the end of the pattern", start)
        return start, char

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
            if self._peek(1) and self._peek(1) in DECIMAL_DIGITS:
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
