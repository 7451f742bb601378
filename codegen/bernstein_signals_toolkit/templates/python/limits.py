"""The documented limits: what the grammar allows but no binding accepts.

A line the grammar accepts is still refused (parsers return None, formatters
raise ValueError) when its payload holds a lone surrogate (escaped or raw), a
number outside the double range (``1e400``), an integer Python refuses to
convert (over 4300 digits by default), NaN or Infinity, or nesting deeper than
:data:`MAX_NESTING_DEPTH`.
"""

from typing import Final

__all__ = ["MAX_NESTING_DEPTH"]

MAX_NESTING_DEPTH: Final = 64
"""Deepest nesting of objects and arrays in a payload; the payload object itself counts as 1."""
