"""JSON as a signal line carries it: the grammar's object, the documented limits, one line.

``json`` accepts more than the grammar (NaN, Infinity, CR/LF whitespace, lone
surrogates, any nesting) and writes what a line reader would split (U+2028).
Both directions are narrowed here, once, for signals and replies alike.

Every check is linear in the text: json's C scanner runs first (it stops at
the first error), and the nesting check, which only valid JSON reaches, uses
``str.replace``/``split`` and one regex pass with no backtracking.
"""

import decimal
import functools
import json
import json.encoder
import math
import re
import sys
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Final

from .errors import _shown
from .limits import MAX_INTEGER_DIGITS, MAX_NESTING_DEPTH

__all__ = ["dump_canonical", "integer_from_text", "load_object"]

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_PAIR: Final = r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
_SURROGATE_PAIR_ESCAPES: Final = re.compile(_PAIR + f"(?:{_PAIR}){{0,63}}+")
"""Up to 64 escaped surrogate pairs in a row, possessive: one replacement removes a run
(an unbounded ``+`` keeps a backtracking state per pair and grows superlinearly); the
literal start lets the regex engine skip to each backslash-u."""
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_LINE_BREAKS: Final = re.compile("[\x85\u2028\u2029\ud800-\udfff]")
_LINE_BREAK_ESCAPES: Final = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
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
_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
)


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
    brackets, whose running depth is summed at C level.
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


@functools.lru_cache(maxsize=4)
def _ten_to(power: int) -> int:
    result: int = 10**power
    return result


def _check_structure(value: dict[Any, Any], count_digits: bool) -> bool:
    """Refuse non-str keys (json would coerce them), nesting beyond the bound and, with
    ``count_digits``, integers over the limit; return whether an integer is too long for
    the interpreter's own conversion. Iterative, and a container met twice on the way
    down (a cycle) is refused as too deep before any recursion.
    """
    setting = _int_digits_setting()
    ceiling = _ten_to(MAX_INTEGER_DIGITS)
    interpreter_ceiling = _ten_to(setting) if count_digits and setting else 0
    needs_decimal = False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        container, depth = stack.pop()
        if depth > MAX_NESTING_DEPTH:
            raise ValueError(f"payload nesting is deeper than {MAX_NESTING_DEPTH}")
        if isinstance(container, dict):
            for key in container:
                if not isinstance(key, str):
                    raise ValueError(f"payload key {_shown(key)} is not a str")
            items = container.values()
        else:
            items = container
        for item in items:
            if isinstance(item, (dict, list, tuple)):
                stack.append((item, depth + 1))
            elif count_digits and isinstance(item, int) and not isinstance(item, bool):
                magnitude = -item if item < 0 else item
                if magnitude >= ceiling:
                    raise ValueError(f"payload integer has more than {MAX_INTEGER_DIGITS} digits")
                needs_decimal |= bool(interpreter_ceiling) and magnitude >= interpreter_ceiling
    return needs_decimal


def _decimal_text(value: int) -> str:
    return str(decimal.Decimal(value))


def _float_text(value: float) -> str:
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
    return float.__repr__(value)


def _encode_with_decimal(value: dict[str, Any]) -> str:
    """json's pure-Python encoder, writing integers through ``decimal`` (no digit limit)."""
    encoder = _ENCODER
    chunks = json.encoder._make_iterencode(  # type: ignore[attr-defined]
        None,
        encoder.default,
        json.encoder.encode_basestring,
        None,
        _float_text,
        ":",
        ",",
        True,
        False,
        True,
        _intstr=_decimal_text,
    )
    return "".join(chunks(value, 0))


def dump_canonical(value: dict[str, Any]) -> str:
    """The canonical text of an object: compact, keys sorted by code point, one line.

    Raises ValueError for anything a signal cannot carry: a non-str key, a
    value json cannot serialise, NaN or Infinity, a lone surrogate, an integer
    over :data:`MAX_INTEGER_DIGITS` digits, nesting beyond the bound (a
    self-referential value counts).
    """
    count_digits = _int_digits_setting() != MAX_INTEGER_DIGITS
    needs_decimal = _check_structure(value, count_digits)
    try:
        text: str = _encode_with_decimal(value) if needs_decimal else _ENCODER.encode(value)
    except TypeError as exc:
        raise ValueError(f"payload is not JSON-serialisable: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"payload is not JSON: {exc}") from None
    if not text.isascii() and _LINE_BREAKS.search(text):
        if _SURROGATE.search(text):
            raise ValueError("payload holds a lone surrogate, which UTF-8 cannot carry")
        text = text.translate(_LINE_BREAK_ESCAPES)
    return text
