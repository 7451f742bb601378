"""JSON as a signal line carries it: the grammar's object, the documented limits, one line.

``json`` accepts more than the grammar (NaN, Infinity, CR/LF whitespace, lone
surrogates, any nesting) and writes what a line reader would split (U+2028).
Both directions are narrowed here, once, for signals and replies alike.
"""

import json
import math
import re
from collections.abc import Callable
from typing import Any, Final

from .limits import MAX_NESTING_DEPTH

__all__ = ["dump_canonical", "load_object"]

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_ESCAPE: Final = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)")
_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET: Final = re.compile(r"[\[\]{}]")
_LINE_BREAKS: Final = re.compile("[\x85\u2028\u2029\ud800-\udfff]")
_LINE_BREAK_ESCAPES: Final = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


class _Refused(ValueError):
    """A value the grammar allows but a documented limit refuses."""


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused(f"number {text[:20]} is outside the double range")
    return value


def _no_constant(name: str) -> None:
    raise _Refused(f"{name} is not JSON")


_DECODER: Final = json.JSONDecoder(parse_float=_finite_float, parse_constant=_no_constant)
# The C scanner itself: decode() would also skip whitespace the grammar refuses.
_scan_once: Final[Callable[[str, int], tuple[Any, int]]] = _DECODER.scan_once  # type: ignore[attr-defined]
_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
)


def _too_deep(text: str) -> bool:
    """Whether brackets outside strings nest deeper than the bound (exact for valid JSON)."""
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > MAX_NESTING_DEPTH:
            return True
    return False


def load_object(text: str, start: int = 0) -> dict[str, Any] | None:
    """The object ``text[start:]`` holds, or None unless it is exactly the grammar's ``object``.

    json's own scanner does the work; the checks around it refuse what it
    accepts beyond the grammar. Duplicate keys are grammatical: the last wins.
    ``start`` spares a reader copying the payload out of its line.
    """
    if not text.startswith("{", start):  # then only an object can end at len(text)
        return None
    if "\n" in text or "\r" in text:  # json whitespace; the grammar's is space and tab
        return None
    # Nesting deeper than the bound needs more openers than the bound, and twice the characters.
    if (
        len(text) - start > 2 * MAX_NESTING_DEPTH
        and text.count("{", start) + text.count("[", start) > MAX_NESTING_DEPTH
        and _too_deep(text[start:])
    ):
        return None
    if not text.isascii() and _SURROGATE.search(text, start):
        return None
    try:
        value, end = _scan_once(text, start)
    except (ValueError, RecursionError, StopIteration):
        return None
    if end != len(text):
        return None
    if "\\u" in text and _has_lone_surrogate_escape(text):
        return None
    result: dict[str, Any] = value
    return result


def _has_lone_surrogate_escape(text: str) -> bool:
    """Whether an escape in ``text`` is a surrogate not paired as high-then-low.

    Checked on the text, not the decoded value: a duplicate key may have
    dropped the member that held it.
    """
    if not _SURROGATE_ESCAPE.search(text):
        return False
    pending = -1  # where the escape after an unpaired high surrogate would have to start
    for match in _ESCAPE.finditer(text):
        code = int(match[1], 16) if match[1] else -1
        if pending >= 0:
            if match.start() != pending or not 0xDC00 <= code <= 0xDFFF:
                return True
            pending = -1
        elif 0xD800 <= code <= 0xDBFF:
            pending = match.end()
        elif 0xDC00 <= code <= 0xDFFF:
            return True
    return pending >= 0


def _check_structure(value: dict[Any, Any] | list[Any] | tuple[Any, ...], depth: int) -> None:
    """Refuse non-str keys (json would coerce them) and nesting beyond the bound."""
    if depth > MAX_NESTING_DEPTH:
        raise ValueError(f"payload nesting is deeper than {MAX_NESTING_DEPTH}")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"payload key {key!r} is not a str")
            if isinstance(item, (dict, list, tuple)):
                _check_structure(item, depth + 1)
    else:
        for item in value:
            if isinstance(item, (dict, list, tuple)):
                _check_structure(item, depth + 1)


def dump_canonical(value: dict[str, Any]) -> str:
    """The canonical text of an object: compact, keys sorted by code point, one line.

    Raises ValueError for anything a signal cannot carry: a non-str key, a
    value json cannot serialise, NaN or Infinity, a lone surrogate, nesting
    beyond the bound.
    """
    _check_structure(value, 1)
    try:
        text: str = _ENCODER.encode(value)
    except TypeError as exc:
        raise ValueError(f"payload is not JSON-serialisable: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"payload is not JSON: {exc}") from None
    if not text.isascii() and _LINE_BREAKS.search(text):
        if _SURROGATE.search(text):
            raise ValueError("payload holds a lone surrogate, which UTF-8 cannot carry")
        text = text.translate(_LINE_BREAK_ESCAPES)
    return text
