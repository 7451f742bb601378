"""The binding's documented limits, explained: one home for the line checker and payload files.

Python's json module reads more than readers accept (NaN, ``1e400`` as
infinity, lone surrogates, any nesting) and refuses some of it for its own
reasons (recursion depth, the interpreter's integer-digit setting). The probe
here decodes with hooks that record or refuse each case, so both the line
checker and ``validate --payload`` name the same limit in the same words.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

from bernstein_signals import MAX_INTEGER_DIGITS, MAX_NESTING_DEPTH

__all__ = ["LimitExceeded", "PayloadProbe", "limit_problem"]

_PIECE = 640  # the smallest int_max_str_digits setting Python allows
_SURROGATE = re.compile("[\ud800-\udfff]")
DEEP = f"nesting deeper than {MAX_NESTING_DEPTH} levels, the deepest readers accept"
OUT_OF_RANGE = "a number outside the double range"
LONE_SURROGATE = "a lone surrogate escape, which is not Unicode text"
NON_FINITE = "NaN or Infinity, which are not JSON"


class LimitExceeded(ValueError):
    """JSON the probe refuses because of a documented limit, not its syntax."""


def _integer(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INTEGER_DIGITS:
        raise LimitExceeded(
            f"an integer of {digits} digits, over the {MAX_INTEGER_DIGITS}-digit limit"
        )
    setting = sys.get_int_max_str_digits()
    if setting and digits > setting:  # within the bound, over this interpreter's own setting
        return _big_int(text)
    return int(text)


def _big_int(text: str) -> int:
    """An integer of at most MAX_INTEGER_DIGITS digits, read in pieces the interpreter allows."""
    sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text)
    value = 0
    for start in range(0, len(digits), _PIECE):
        piece = digits[start : start + _PIECE]
        value = value * 10 ** len(piece) + int(piece)
    return sign * value


class PayloadProbe:
    """json decoding with hooks that remember what strict readers would refuse.

    ``decode`` raises :class:`json.JSONDecodeError` for bad syntax and
    :class:`LimitExceeded` for an integer over the digit limit or nesting too
    deep to decode; NaN, Infinity and doubles out of range are only recorded.
    """

    def __init__(self) -> None:
        self.non_finite = False
        self.out_of_range = False
        self._decoder = json.JSONDecoder(
            parse_constant=self._constant, parse_float=self._float, parse_int=_integer
        )

    def _constant(self, name: str) -> float:
        self.non_finite = True
        return float(name.replace("Infinity", "inf"))

    def _float(self, text: str) -> float:
        value = float(text)
        if math.isinf(value):
            self.out_of_range = True
        return value

    def decode(self, text: str, start: int = 0) -> tuple[Any, int]:
        """The value at ``start`` (after JSON whitespace) and where it ends."""
        try:
            return self._decoder.raw_decode(text, start)
        except RecursionError:
            raise LimitExceeded(DEEP) from None


def limit_problem(value: Any, probe: PayloadProbe | None = None) -> str | None:
    """Which documented limit a decoded value breaks, if any: a walk without recursion."""
    if probe is not None and probe.out_of_range:
        return OUT_OF_RANGE
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > MAX_NESTING_DEPTH:
                return DEEP
            stack += [(key, depth) for key in item]
            stack += [(child, depth + 1) for child in item.values()]
        elif isinstance(item, list):
            if depth > MAX_NESTING_DEPTH:
                return DEEP
            stack += [(child, depth + 1) for child in item]
        elif isinstance(item, float) and math.isinf(item):
            return OUT_OF_RANGE
        elif isinstance(item, str) and not item.isascii() and _SURROGATE.search(item):
            return LONE_SURROGATE
    return None
