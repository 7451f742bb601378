"""Code point classes of ECMA-262 patterns, as Python ``re`` class text.

What :mod:`.ecma_regex`'s parser translates to: ``\\d``, ``\\w``, ``\\s`` and their
complements as ECMA-262 defines them (not as Python's Unicode-aware classes do), the
line terminators ``.`` excludes, and any code point written so that it means
that one character anywhere in a Python pattern.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = [
    "CLASS_ESCAPES",
    "EVERYTHING",
    "LINE_TERMINATORS",
    "MAX_CODE_POINT",
    "NOT_WORD_BOUNDARY",
    "WORD_BOUNDARY",
    "Ranges",
    "complement",
    "emit_code_point",
    "emit_ranges",
    "union",
]

MAX_CODE_POINT: Final = 0x10FFFF

Ranges = tuple[tuple[int, int], ...]

_DIGIT: Final[Ranges] = ((0x30, 0x39),)
_WORD: Final[Ranges] = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
# ECMA-262 WhiteSpace (TAB, VT, FF, ZWNBSP, USP = category Zs) and LineTerminator.
_SPACE: Final[Ranges] = (
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
)
LINE_TERMINATORS: Final[Ranges] = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))


def union(ranges: Sequence[tuple[int, int]]) -> Ranges:
    """``ranges`` sorted, overlapping and adjacent ranges merged."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return tuple(merged)


def complement(ranges: Ranges) -> Ranges:
    """The code points not in ``ranges`` (sorted, disjoint)."""
    result: list[tuple[int, int]] = []
    start = 0
    for low, high in ranges:
        if low > start:
            result.append((start, low - 1))
        start = high + 1
    if start <= MAX_CODE_POINT:
        result.append((start, MAX_CODE_POINT))
    return tuple(result)


CLASS_ESCAPES: Final[dict[str, Ranges]] = {
    "d": _DIGIT,
    "D": complement(_DIGIT),
    "w": _WORD,
    "W": complement(_WORD),
    "s": _SPACE,
    "S": complement(_SPACE),
}
_PLAIN: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
EVERYTHING: Final = "\\x00-\\U0010ffff"


def emit_code_point(code: int) -> str:
    """``code`` as Python pattern text that stands for that one character, anywhere."""
    if code < 0x80 and chr(code) in _PLAIN:
        return chr(code)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def emit_ranges(ranges: Sequence[tuple[int, int]]) -> str:
    """Class-body text for ``ranges`` (used between ``[`` and ``]``)."""
    parts: list[str] = []
    for low, high in ranges:
        parts.append(emit_code_point(low))
        if high != low:
            parts.append("-" + emit_code_point(high))
    return "".join(parts)


_WORD_CLASS: Final = "[" + emit_ranges(_WORD) + "]"
# Spelled out: Python's \B never matches the empty string, ECMA's does there.
WORD_BOUNDARY: Final = (
    f"(?:(?<={_WORD_CLASS})(?!{_WORD_CLASS})|(?<!{_WORD_CLASS})(?={_WORD_CLASS}))"
)
NOT_WORD_BOUNDARY: Final = (
    f"(?:(?<={_WORD_CLASS})(?={_WORD_CLASS})|(?<!{_WORD_CLASS})(?!{_WORD_CLASS}))"
)
