"""The documented limits: what the grammar allows but no binding accepts.

A line the grammar accepts is still refused (parsers return None, formatters
raise ValueError) when its payload holds a lone surrogate (escaped or raw), a
number outside the double range (``1e400``), an integer of more than
:data:`MAX_INTEGER_DIGITS` digits, NaN or Infinity, or nesting deeper than
:data:`MAX_NESTING_DEPTH`.
"""

from typing import Final

__all__ = ["MAX_INTEGER_DIGITS", "MAX_NESTING_DEPTH"]

MAX_NESTING_DEPTH: Final = 64
"""Deepest nesting of objects and arrays in a payload; the payload object itself counts as 1."""
MAX_INTEGER_DIGITS: Final = 4300
"""Most decimal digits of an integer (sign excluded), counted by the binding itself.

It is CPython's default ``int_max_str_digits``; the verdict does not depend on
the interpreter's setting (``PYTHONINTMAXSTRDIGITS``, ``sys.set_int_max_str_digits``).
"""
