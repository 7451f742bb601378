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
pattern's length, which also builds the pattern's tree (:func:`parse`, for
:mod:`.pattern_cost`). The grammar and the output are here; what an escape or a
quantifier's bounds stand for is read by :mod:`._ecma_scanner`, and the code
point classes written out come from :mod:`._ecma_classes`.
"""

from __future__ import annotations

from typing import Final

from ._ecma_classes import (
    CLASS_ESCAPES,
    EVERYTHING,
    LINE_TERMINATORS,
    MAX_CODE_POINT,
    NOT_WORD_BOUNDARY,
    WORD_BOUNDARY,
    Ranges,
    complement,
    emit_code_point,
    emit_ranges,
    union,
)
from ._ecma_scanner import DECIMAL_DIGITS, MAX_REPEAT_COUNT, EcmaPatternError, Scanner
from ._ecma_tree import Alternation, Assertion, Chars, Lookahead, Node, Repeat, Sequence

__all__ = [
    "MAX_GROUP_DEPTH",
    "MAX_REPEAT_COUNT",
    "EcmaPatternError",
    "code_points",
    "parse",
    "translate",
]

MAX_GROUP_DEPTH: Final = 100
"""Groups nested deeper than this are refused (Python's own parser recurses on them)."""


def code_points(pattern: str) -> str:
    """Adjacent lead and trail surrogates as the one code point JavaScript reads there."""
    if not any(0xD800 <= ord(char) <= 0xDFFF for char in pattern):
        return pattern
    return pattern.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class _Parser(Scanner):
    """Recursive descent over the ECMA-262 ``u``-mode Pattern grammar, emitting as it goes."""

    def __init__(self, source: str) -> None:
        super().__init__(source)
        self.depth = 0
        self.out: list[str] = []

    # -- Pattern, Disjunction, Alternative, Term ----------------------------
    def pattern(self) -> Node:
        tree = self._disjunction()
        if self.pos < self.end:
            raise self._fail("unmatched ')'")
        return tree

    def _disjunction(self) -> Node:
        branches = [self._alternative()]
        while self._peek() == "|":
            self.pos += 1
            self.out.append("|")
            branches.append(self._alternative())
        return branches[0] if len(branches) == 1 else Alternation(tuple(branches))

    def _alternative(self) -> Node:
        items: list[Node] = []
        while self.pos < self.end and self.source[self.pos] not in "|)":
            items.append(self._term())
        return items[0] if len(items) == 1 else Sequence(tuple(items))

    def _term(self) -> Node:
        start = self.pos
        char = self.source[self.pos]
        if char == "^":
            self.pos += 1
            self.out.append("\\A")
            self._no_quantifier()
            return Assertion("^", start)
        if char == "$":
            self.pos += 1
            self.out.append("\\Z")
            self._no_quantifier()
            return Assertion("$", start)
        if char == "\\" and self._peek(1) in ("b", "B"):
            self.out.append(WORD_BOUNDARY if self._peek(1) == "b" else NOT_WORD_BOUNDARY)
            self.pos += 2
            self._no_quantifier()
            return Assertion(self.source[start : self.pos], start)
        atom: Node
        if char == "(":
            assertion, atom = self._group()
            if assertion:
                self._no_quantifier()
                return atom
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
            atom = Chars(complement(LINE_TERMINATORS), start, self.pos)
        elif char == "[":
            atom = Chars(self._class(), start, self.pos)
        elif char == "\\":
            atom = Chars(self._atom_escape(), start, self.pos)
        else:
            self.pos += 1
            self.out.append(emit_code_point(ord(char)))
            atom = Chars(((ord(char), ord(char)),), start, self.pos)
        return self._quantifier(atom, start)

    def _no_quantifier(self) -> None:
        """Assertions cannot be quantified with the ``u`` flag."""
        char = self._peek()
        if char in ("*", "+", "?"):
            raise self._fail("nothing to repeat: an assertion cannot be quantified")
        if char == "{" and self._quantifier_bounds(self.pos) is not None:
            raise self._fail("nothing to repeat: an assertion cannot be quantified")

    # -- Quantifier ----------------------------------------------------------
    def _quantifier(self, atom: Node, start: int) -> Node:
        """``atom`` with the quantifier that follows it, if any."""
        char = self._peek()
        low: int
        high: int | None
        if char in ("*", "+", "?"):
            self.pos += 1
            self.out.append(char)
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
        elif char == "{":
            bounds = self._quantifier_bounds(self.pos)
            if bounds is None:
                raise self._fail("incomplete quantifier (write \\{ for the character)")
            low_text, high_text, end = bounds
            low = self._count(low_text, self.pos)
            if high_text is None:
                text = f"{{{low},}}"
                high = None
            else:
                high = self._count(high_text, self.pos)
                if high < low:
                    raise self._fail("numbers out of order in {} quantifier")
                text = f"{{{low}}}" if high_text == low_text else f"{{{low},{high}}}"
            self.pos = end
            self.out.append(text)
        else:
            return atom
        if self._peek() == "?":
            self.pos += 1
            self.out.append("?")
        char = self._peek()
        if char in ("*", "+", "?") or (
            char == "{" and self._quantifier_bounds(self.pos) is not None
        ):
            raise self._fail("nothing to repeat: a quantifier follows a quantifier")
        return Repeat(atom, low, high, start, self.pos)

    # -- Groups --------------------------------------------------------------
    def _group(self) -> tuple[bool, Node]:
        """A group at ``(``: true when it is a lookahead (an assertion), and its tree."""
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
        body = self._disjunction()
        if self._peek() != ")":
            raise self._fail("unterminated group", start)
        self.pos += 1
        self.depth -= 1
        self.out.append(")")
        if assertion:
            return True, Lookahead(body, opening == "(?!", start, self.pos)
        return False, body

    # -- Escapes -------------------------------------------------------------
    def _atom_escape(self) -> Ranges:
        start, char = self._after_backslash()
        if char in CLASS_ESCAPES:
            self.pos += 1
            self.out.append("[" + emit_ranges(CLASS_ESCAPES[char]) + "]")
            return CLASS_ESCAPES[char]
        if char in DECIMAL_DIGITS and char != "0":
            raise self._refuse("backreferences are not supported", start)
        if char == "k":
            raise self._refuse("named backreferences are not supported", start)
        code = self._character_escape(start)
        self.out.append(emit_code_point(code))
        return ((code, code),)

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

    def _class(self) -> Ranges:
        """A character class: emitted, and the code points it matches returned."""
        start = self.pos
        self.pos += 1
        negated = self._peek() == "^"
        if negated:
            self.pos += 1
        parts: list[str] = []
        members: list[tuple[int, int]] = []
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
                members.append((low, high))
            elif low_set is not None:
                parts.append(emit_ranges(low_set))
                members += low_set
            else:
                parts.append(emit_code_point(low))
                members.append((low, low))
        if not parts:
            # [] matches nothing and [^] anything; Python reads "[]" and "[^]" otherwise.
            self.out.append("[" + ("" if negated else "^") + EVERYTHING + "]")
            return ((0, MAX_CODE_POINT),) if negated else ()
        self.out.append(("[^" if negated else "[") + "".join(parts) + "]")
        return complement(union(members)) if negated else union(members)


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
    parser = _Parser(code_points(pattern))
    parser.pattern()
    return "".join(parser.out)


def parse(pattern: str) -> Node:
    """The tree of ``pattern``, refused with :class:`EcmaPatternError` as :func:`translate` is.

    Offsets in the tree count code points, a surrogate pair written in the
    pattern being one.
    """
    return _Parser(code_points(pattern)).pattern()
