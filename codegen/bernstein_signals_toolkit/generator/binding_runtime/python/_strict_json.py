"""JSON as a signal line carries it: the grammar's object, the documented limits, one line.

``json`` accepts more than the grammar (NaN, Infinity, CR/LF whitespace, lone
surrogates, any nesting); reading is narrowed here, once, for signals and
replies alike. Writing is :mod:`._canonical_json`.

Every check is linear in the text: json's C scanner runs first (it stops at
the first error), and the nesting check, which only valid JSON reaches, uses
``str.replace``/``split`` and one regex pass with no backtracking.

:data:`JSON_STRING` and :data:`JSON_TOKEN` are the one hand-written JSON
lexer: the validator (where a value sits) and the language server (which key
the cursor is on, in a payload still being typed) scan with them too.
"""

import json
import math
import re
import sys
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Final

from .limits import MAX_INTEGER_DIGITS, MAX_NESTING_DEPTH

__all__ = ["JSON_STRING", "JSON_TOKEN", "integer_from_text", "load_object"]

_STRING_TOKEN: Final = r'"(?:[^"\\]++|\\[\s\S])*+"?'
JSON_STRING: Final = re.compile(_STRING_TOKEN)
"""A JSON string from its opening quote to its closing one (or to the end of an unfinished
text), escapes included; possessive, so a match is linear in its length."""
JSON_TOKEN: Final = re.compile(_STRING_TOKEN + r"|[{}\[\]]")
"""A string or a bracket: what a scan for structure needs to see, in order."""

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_PAIR: Final = r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
_SURROGATE_PAIR_ESCAPES: Final = re.compile(_PAIR + f"(?:{_PAIR}){{0,63}}+")
"""Up to 64 escaped surrogate pairs in a row, possessive: one replacement removes a run
(an unbounded ``+`` keeps a backtracking state per pair and grows superlinearly); the
literal start lets the regex engine skip to each backslash-u."""
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_int_digits_setting: Final = sys.get_int_max_str_digits


class _Refused(ValueError):
    """A value the grammar allows but a documented limit refuses."""


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused(f"number {text[:20]} is outside the double range")
    return value


def _no_constant(name: str) -> None:
    raise _Refused(f"{name} is not JSON")


def integer_from_text(text: str) -> int:
    """A JSON integer's value, refused past :data:`MAX_INTEGER_DIGITS` digits whatever the
    interpreter's ``int_max_str_digits`` (``decimal`` converts without that limit).
    """
    digits = len(text) - text.startswith("-")
    if digits > MAX_INTEGER_DIGITS:
        raise _Refused(f"integer of {digits} digits (the limit is {MAX_INTEGER_DIGITS})")
    setting = _int_digits_setting()
    if setting and digits > setting:
        import decimal  # only past the interpreter's own limit: not loaded at start-up

        return int(decimal.Decimal(text))
    return int(text)


_DECODER: Final = json.JSONDecoder(parse_float=_finite_float, parse_constant=_no_constant)
_COUNTING_DECODER: Final = json.JSONDecoder(
    parse_float=_finite_float, parse_constant=_no_constant, parse_int=integer_from_text
)
# The C scanners themselves: decode() would also skip whitespace the grammar refuses.
# The first leaves integers to the interpreter, which is exact (and fastest) when its
# setting is the documented limit; otherwise the second counts digits itself.
_scan_fast: Final[Callable[[str, int], tuple[Any, int]]] = _DECODER.scan_once  # type: ignore[attr-defined]
_scan_counting: Final[Callable[[str, int], tuple[Any, int]]] = _COUNTING_DECODER.scan_once  # type: ignore[attr-defined]


def _scan_again(text: str, start: int) -> tuple[Any, int] | None:
    """The digit-counting scanner, for a machine whose ``int_max_str_digits`` is not the
    documented limit (None when that is not so, or when the text is not JSON).
    """
    if _int_digits_setting() == MAX_INTEGER_DIGITS:
        return None
    try:
        counted: tuple[Any, int] = _scan_counting(text, start)
    except (ValueError, RecursionError, StopIteration):
        return None
    return counted


def _too_deep(text: str) -> bool:
    """Whether valid JSON ``text`` nests deeper than the bound.

    Escapes go first (pairs, left to right, as JSON reads them), then every
    string is an odd-numbered piece between quotes; what is left are the
    brackets, whose running depth is summed at C level. Not :data:`JSON_STRING`:
    on valid JSON this is the same cut, and 2x to 20x faster on 1 MiB payloads
    (measured on benchmarks/_hostile_lines.py shapes).
    """
    if "\\" in text:
        text = text.replace("\\\\", "").replace('\\"', "")
    outside = "".join(text.split('"')[::2])
    brackets = _NOT_BRACKET.sub("", outside).encode("ascii")
    depths = accumulate(map(_BRACKET_STEP.__getitem__, brackets))
    return next(filter(MAX_NESTING_DEPTH.__lt__, depths), None) is not None


def load_object(text: str, start: int = 0) -> dict[str, Any] | None:
    """The object ``text[start:]`` holds, or None unless it is exactly the grammar's ``object``.

    json's own scanner does the work; the checks around it refuse what it
    accepts beyond the grammar. Duplicate keys are grammatical: the last wins.
    ``start`` spares a reader copying the payload out of its line; the text
    before it must hold no CR or LF either.
    """
    if not text.startswith("{", start):  # then only an object can end at len(text)
        return None
    if "\n" in text or "\r" in text:  # json whitespace; the grammar's is space and tab
        return None
    if not text.isascii() and _SURROGATE.search(text, start):
        return None
    # The interpreter's integer conversion is exact when its setting is the limit, and
    # for any setting on a text too short to hold a longer integer; otherwise count.
    try:
        value, end = _scan_fast(text, start)
    except (RecursionError, StopIteration):
        return None
    except ValueError:  # maybe an integer the interpreter's setting refused
        scanned = _scan_again(text, start)
        if scanned is None:
            return None
        value, end = scanned
    else:
        if len(text) - start > MAX_INTEGER_DIGITS and _int_digits_setting() != MAX_INTEGER_DIGITS:
            scanned = _scan_again(text, start)
            if scanned is None:
                return None
            value, end = scanned
    if end != len(text):
        return None
    # Nesting deeper than the bound needs more openers than the bound, and twice the characters.
    if (
        len(text) - start > 2 * MAX_NESTING_DEPTH
        and text.count("{", start) + text.count("[", start) > MAX_NESTING_DEPTH
        and _too_deep(text[start:])
    ):
        return None
    if "\\u" in text and _has_lone_surrogate_escape(text):
        return None
    result: dict[str, Any] = value
    return result


def _has_lone_surrogate_escape(text: str) -> bool:
    """Whether an escape in ``text`` is a surrogate not paired as high-then-low.

    Checked on the text, not the decoded value: a duplicate key may have
    dropped the member that held it. Escaped backslashes go first, so every
    backslash left starts an escape; then the pairs go, in one regex pass. An
    escaped backslash becomes two plain characters, not nothing: it separates
    the escapes on either side, which must not become a pair.
    """
    if not _SURROGATE_ESCAPE.search(text):
        return False
    text = text.replace("\\\\", "__")
    if not _SURROGATE_ESCAPE.search(text):  # each match was an escaped backslash, then text
        return False
    return _SURROGATE_ESCAPE.search(_SURROGATE_PAIR_ESCAPES.sub("", text)) is not None
