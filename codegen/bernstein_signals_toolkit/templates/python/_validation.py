"""Helpers the generated validators call, with JSON Schema's meaning of equality."""

from collections.abc import Sequence
from typing import Final

from .limits import MAX_NESTING_DEPTH

__all__ = ["ABSENT", "all_unique"]

ABSENT: Final = object()
"""Stands for a member the payload does not have."""


def _key(value: object, depth: int = 0) -> object:
    """A hashable stand-in equal for JSON-equal values: 1 == 1.0, but True != 1.

    Bounded: below :data:`MAX_NESTING_DEPTH` levels (which no signal can
    carry; a self-referential value reaches it too), and for values that are
    not JSON and not hashable, a value is equal only to itself.
    """
    if isinstance(value, bool) or value is None:
        return (type(value), value)
    if isinstance(value, (list, tuple, dict)):
        if depth >= MAX_NESTING_DEPTH:
            return (id, id(value))
        if isinstance(value, dict):
            return (dict, frozenset((key, _key(item, depth + 1)) for key, item in value.items()))
        return (list, tuple(_key(item, depth + 1) for item in value))
    try:
        hash(value)
    except TypeError:
        return (id, id(value))
    return value


def all_unique(items: Sequence[object]) -> bool:
    """``uniqueItems``: no two items are equal as JSON values."""
    try:
        "".join(items)  # type: ignore[arg-type]
    except TypeError:
        pass
    else:  # only str items (the usual case), whose hashing cannot recurse as a deep tuple's does
        return len(set(items)) == len(items)
    try:
        keys = {_key(item) for item in items}
    except TypeError:  # a dict key that is not hashable: not JSON; compare as distinct
        return True
    return len(keys) == len(items)
