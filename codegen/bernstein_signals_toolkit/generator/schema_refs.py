"""The value a local ``$ref`` ("#" or "#/...") points at in a schema document.

RFC 6901: each token names a member of an object, or indexes an array when it is
"0" or an ASCII number without a leading zero ("01", "²" and U+0661 index nothing).
"""

from __future__ import annotations

import re
from typing import Any, Final

from bernstein_signals_toolkit.generator import json_pointer

__all__ = ["ref_target"]

_ARRAY_INDEX: Final = re.compile(r"0|[1-9][0-9]*")


def ref_target(root: object, ref: str) -> Any:
    """What ``ref`` points at below ``root``; LookupError, saying why, when ``ref`` is not
    local or points nowhere.
    """
    if ref != "#" and not ref.startswith("#/"):
        raise LookupError(f"only local references ('#/...') compile: {ref!r}")
    target: Any = root
    for step in ref[2:].split("/") if ref != "#" else []:
        part = json_pointer.name_of(step)
        if isinstance(target, dict) and part in target:
            target = target[part]
        elif isinstance(target, list) and _ARRAY_INDEX.fullmatch(part) and int(part) < len(target):
            target = target[int(part)]
        else:
            raise LookupError(f"{ref!r} points nowhere in the document")
    return target
