"""The canonical text of a payload or reply: what ``format_signal`` and ``format_reply`` write.

The spec is ``spec/canonical-form.md``: RFC 8785 (JCS) key order (UTF-16 code
units) and numbers (ECMAScript's Number::toString for floats), integers as
their exact decimal digits, U+0085, U+2028 and U+2029 escaped so no line reader
splits the line, within the documented limits. Reading is :mod:`._strict_json`.

json's C encoder writes the common case; it sorts keys by code point and
writes floats as ``repr``. An integral float below 2^53 is handed to it as the
``int`` of the same value (the same digits); a payload holding another float
whose ``repr`` is not the ECMAScript text (found in the walk that checks the
limits) or an astral key (looked for only when the text holds an astral
character) goes through json's pure-Python encoder with the canonical number
text and key order.
"""

import functools
import json
import json.encoder
import math
import re
import sys
from typing import Any, Final, NamedTuple

from .errors import _shown
from .limits import MAX_INTEGER_DIGITS, MAX_NESTING_DEPTH

__all__ = ["dump_canonical", "number_text"]

_NOT_LINE_SAFE: Final = re.compile("[\x85\u2028\u2029\ud800-\udfff]")
"""What json writes as itself but a line must not hold: three line breaks a Unicode line
reader splits at (escaped) and lone surrogates, which UTF-8 cannot carry (refused)."""
_LINE_BREAK_ESCAPES: Final = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
_ASTRAL: Final = re.compile("[\U00010000-\U0010ffff]")
_int_digits_setting: Final = sys.get_int_max_str_digits
_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
)
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODE: Final = (
    None
    if _c_make_encoder is None
    else _c_make_encoder(
        None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", True, False, False
    )
)
"""_ENCODER's own C encoder, made once: ``encode`` makes one per call. Without json's
circular check, which :func:`_check_structure` (or a flat payload) made needless."""
_REPR_FIXED_LOW: Final = 1e-4
_REPR_FIXED_HIGH: Final = 1e16
"""``repr`` writes a float in [1e-4, 1e16) without an exponent, as ECMAScript does; only
an integral one differs there (``1.0`` against ``1``)."""
_EXACT_INTEGERS: Final = 2.0**53
"""Below it every integer is a double: an integral float's text is its ``int``'s digits."""


class _Needs(NamedTuple):
    """What the C encoder cannot write canonically."""

    decimal: bool
    """An integer longer than the interpreter's own conversion allows."""
    numbers: bool
    """A float whose ``repr`` is not its ECMAScript text, and not an integral one below
    2^53 either (those are written as the ``int`` of the same value)."""
    integral: bool = False
    """An integral float below 2^53, whose ``repr`` has ``.0``."""
    utf16_order: bool = False
    """A key with an astral character: code-point order may differ from UTF-16 order."""


def number_text(value: float) -> str:
    """ECMAScript's Number::toString of a finite float (RFC 8785 §3.2.2.3); -0 is ``0``.

    ``repr`` gives the shortest digits that read back as ``value``, the digits
    ECMAScript takes too; only where the decimal point goes differs.
    """
    if not math.isfinite(value):
        raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
    if value == 0:
        return "0"
    text = float.__repr__(abs(value))
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    all_digits = whole + fraction
    significant = all_digits.lstrip("0")
    # value = 0.<digits> x 10^point, with digits the significant ones, trailing zeros gone
    point = len(whole) + int(exponent or "0") - (len(all_digits) - len(significant))
    digits = significant.rstrip("0")
    sign = "-" if value < 0 else ""
    count = len(digits)
    if count <= point <= 21:
        return sign + digits + "0" * (point - count)
    if 0 < point <= 21:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -6 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    shown = point - 1
    power = f"e{'+' if shown > 0 else '-'}{abs(shown)}"
    if count == 1:
        return sign + digits + power
    return f"{sign}{digits[0]}.{digits[1:]}{power}"


@functools.lru_cache(maxsize=4)
def _ten_to(power: int) -> int:
    result: int = 10**power
    return result


def _check_structure(value: dict[Any, Any], count_digits: bool) -> _Needs:
    """Refuse non-str keys (json would coerce them), nesting beyond the bound and, with
    ``count_digits``, integers over the limit; say which numbers the C encoder cannot
    write. Iterative, and a container met twice on the way down (a cycle) is refused as
    too deep before any recursion.
    """
    setting = _int_digits_setting()
    ceiling = _ten_to(MAX_INTEGER_DIGITS)
    interpreter_ceiling = _ten_to(setting) if count_digits and setting else 0
    needs_decimal = needs_numbers = needs_integral = False
    low, high = _REPR_FIXED_LOW, _REPR_FIXED_HIGH
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
            if isinstance(item, str):  # the most common value, and nothing to check
                continue
            if isinstance(item, (dict, list, tuple)):
                stack.append((item, depth + 1))
            elif isinstance(item, float):
                # NaN and infinities stay with the C encoder, which refuses them.
                magnitude = abs(item)
                if magnitude < _EXACT_INTEGERS and item.is_integer():
                    needs_integral = True
                elif math.isfinite(item) and (
                    not low <= magnitude < high or item.is_integer()  # 2^53 up to 1e16
                ):
                    needs_numbers = True
            elif count_digits and isinstance(item, int) and not isinstance(item, bool):
                magnitude = -item if item < 0 else item
                if magnitude >= ceiling:
                    raise ValueError(f"payload integer has more than {MAX_INTEGER_DIGITS} digits")
                needs_decimal |= bool(interpreter_ceiling) and magnitude >= interpreter_ceiling
    return _Needs(needs_decimal, needs_numbers, needs_integral)


_NEEDS_NOTHING: Final = _Needs(decimal=False, numbers=False)
_TEXT_VALUE_TYPES: Final = frozenset({str, bool, type(None)})
_STR_KEYS: Final = frozenset({str})


def _flat_text_only(value: dict[Any, Any]) -> bool:
    """Whether every key is a str and every value a str, bool or None: the common payload,
    with nothing for :func:`_check_structure` to find, told at C speed."""
    return (
        type(value) is dict
        and _STR_KEYS.issuperset(map(type, value))
        and _TEXT_VALUE_TYPES.issuperset(map(type, value.values()))
    )


def _astral_key(value: Any) -> bool:
    """Whether a key of ``value``, at any depth, holds an astral character (bounded nesting)."""
    if isinstance(value, dict):
        return any(
            (not key.isascii() and _ASTRAL.search(key)) or _astral_key(item)
            for key, item in value.items()
        )
    if isinstance(value, (list, tuple)):
        return any(map(_astral_key, value))
    return False


def _utf16_key(item: tuple[str, Any]) -> bytes:
    return item[0].encode("utf-16-be", "surrogatepass")


def _in_utf16_order(value: Any) -> Any:
    """A copy of ``value`` whose objects hold their members in UTF-16 code unit order.

    Recursive: the nesting was bounded by :func:`_check_structure` first.
    """
    if isinstance(value, dict):
        return {
            key: _in_utf16_order(item) for key, item in sorted(value.items(), key=_utf16_key)
        }
    if isinstance(value, (list, tuple)):
        return [_in_utf16_order(item) for item in value]
    return value


def _decimal_text(value: int) -> str:
    import decimal  # only past the interpreter's own limit: not loaded at start-up

    return str(decimal.Decimal(value))


def _encode_in_python(value: dict[str, Any], needs: _Needs) -> str:
    """json's pure-Python encoder with the canonical number text and key order."""
    if needs.utf16_order:
        value = _in_utf16_order(value)
    chunks = json.encoder._make_iterencode(  # type: ignore[attr-defined]
        None,
        _ENCODER.default,
        json.encoder.encode_basestring,
        None,
        number_text,
        ":",
        ",",
        not needs.utf16_order,
        False,
        True,
        _intstr=_decimal_text if needs.decimal else int.__repr__,
    )
    return "".join(chunks(value, 0))


def _integral_as_int(value: Any) -> Any:
    """A copy of ``value`` with its integral floats below 2^53 as ints (bounded nesting)."""
    if isinstance(value, dict):
        return {key: _integral_as_int(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_integral_as_int(item) for item in value]
    if isinstance(value, float) and abs(value) < _EXACT_INTEGERS and value.is_integer():
        return int(value)
    return value


def _encode(value: dict[str, Any], needs: _Needs) -> str:
    try:
        if needs.decimal or needs.numbers or needs.utf16_order:
            return _encode_in_python(value, needs)
        plain = _integral_as_int(value) if needs.integral else value
        return _ENCODER.encode(plain) if _C_ENCODE is None else "".join(_C_ENCODE(plain, 0))
    except TypeError as exc:
        raise ValueError(f"payload is not JSON-serialisable: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"payload is not JSON: {exc}") from None


def dump_canonical(value: dict[str, Any]) -> str:
    """The canonical text of an object (``spec/canonical-form.md``), on one line.

    Raises ValueError for anything a signal cannot carry: a non-str key, a
    value json cannot serialise, NaN or Infinity, a lone surrogate, an integer
    over :data:`MAX_INTEGER_DIGITS` digits, nesting beyond the bound (a
    self-referential value counts).
    """
    if _flat_text_only(value):
        needs = _NEEDS_NOTHING
    else:
        needs = _check_structure(value, _int_digits_setting() != MAX_INTEGER_DIGITS)
    text = _encode(value, needs)
    # Only a text with an astral character can hold a key whose UTF-16 order differs.
    if not text.isascii() and _ASTRAL.search(text) and _astral_key(value):
        text = _encode(value, needs._replace(utf16_order=True))
    if not text.isascii() and _NOT_LINE_SAFE.search(text):
        text = text.translate(_LINE_BREAK_ESCAPES)
        if _NOT_LINE_SAFE.search(text):  # what the escapes leave: a lone surrogate
            raise ValueError("payload holds a lone surrogate, which UTF-8 cannot carry")
    return text
