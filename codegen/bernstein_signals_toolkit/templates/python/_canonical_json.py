"""The canonical text of a payload or reply: what ``format_signal`` and ``format_reply`` write.

One object, compact, keys sorted, on one line a line reader will not split
(U+0085, U+2028 and U+2029 escaped), within the documented limits; the spec is
``spec/canonical-form.md``. Reading is :mod:`._strict_json`'s side.
"""

import decimal
import functools
import json
import json.encoder
import math
import re
import sys
from typing import Any, Final

from ._strict_json import _SURROGATE
from .errors import _shown
from .limits import MAX_INTEGER_DIGITS, MAX_NESTING_DEPTH

__all__ = ["dump_canonical"]

_LINE_BREAKS: Final = re.compile("[\x85\u2028\u2029\ud800-\udfff]")
_LINE_BREAK_ESCAPES: Final = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
_int_digits_setting: Final = sys.get_int_max_str_digits
_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
)


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
