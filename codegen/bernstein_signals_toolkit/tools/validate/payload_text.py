"""Places in a payload's text, read in place in its line (no copy of a long line).

:func:`duplicate_keys` is the validator's one detector of repeated keys (BS213),
for signal lines and payload files alike.
"""

from __future__ import annotations

import contextlib
import json
import json.encoder
import re
from typing import Any, Final

__all__ = ["MAX_DUPLICATE_KEYS_SHOWN", "content_end", "duplicate_keys", "last_key_span"]

MAX_DUPLICATE_KEYS_SHOWN = 20
"""BS213 names at most this many distinct duplicated keys per payload (each costs a pass)."""
_COLON = re.compile(r"[ \t]*:")


def content_end(text: str, start: int) -> int:
    """Where ``text`` ends without trailing whitespace, at ``start`` or later.

    A short run is walked back in place; only a long one is measured by a copy.
    """
    end = len(text)
    floor = max(start, end - 64)
    while end > floor and text[end - 1].isspace():
        end -= 1
    if end == floor > start:
        return max(len(text.rstrip()), start)
    return end


_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODE: Final = (
    None
    if _c_make_encoder is None
    else _c_make_encoder(
        None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False, True
    )
)
"""``_ENCODER``'s C encoder, made once (``encode`` makes one per call); no circular check:
a decoded payload is a tree."""


def _compact(value: object) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``."""
    return _ENCODER.encode(value) if _C_ENCODE is None else "".join(_C_ENCODE(value, 0))


def duplicate_keys(text: str, start: int, decoded: object = None) -> list[str]:
    """Keys repeated within one object of the payload at ``start``, in the order found.

    json's C scanner does the reading; at most MAX_DUPLICATE_KEYS_SHOWN are collected.
    ``decoded``, the value the payload was read as, spares that second reading when
    the payload is its compact ``json.dumps`` (as most producers write it): a dict
    holds each key once, so that text repeats none.
    """
    if text.count(":", start) < 2:
        return []
    if isinstance(decoded, dict):
        with contextlib.suppress(ValueError, TypeError, RecursionError):
            compact = _compact(decoded)
            if len(compact) == len(text) - start and text.endswith(compact):
                return []
    found: dict[str, None] = {}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) != len(items) and len(found) < MAX_DUPLICATE_KEYS_SHOWN:
            seen: set[str] = set()
            for key, _ in items:
                if key in seen:
                    found[key] = None
                    if len(found) >= MAX_DUPLICATE_KEYS_SHOWN:
                        break
                seen.add(key)
        return result

    with contextlib.suppress(ValueError, RecursionError):
        json.JSONDecoder(object_pairs_hook=pairs).raw_decode(text, start)
    return list(found)


def last_key_span(text: str, key: str, start: int, end: int) -> tuple[int, int]:
    """The span of the last ``"key":`` in ``text[start:end]`` (one backward pass), or all of it."""
    literal = json.dumps(key, ensure_ascii=False)
    limit = end
    while (at := text.rfind(literal, start, limit)) >= 0:
        if _COLON.match(text, at + len(literal)):
            return at, at + len(literal)
        limit = at + len(literal) - 1
    return start, end
