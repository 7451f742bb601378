"""Helpers the generated validators call, with JSON Schema's meaning of equality."""

from collections.abc import Sequence
from typing import Final

__all__ = ["ABSENT", "all_unique"]

ABSENT: Final = object()
"""Stands for a member the payload does not have."""


def _key(value: object) -> object:
    """A hashable stand-in equal for JSON-equal values: 1 == 1.0, but True != 1."""
    if isinstance(value, bool) or value is None:
        return (type(value), value)
    if isinstance(value, (list, tuple)):
        return (list, tuple(_key(item) for item in value))
    if isinstance(value, dict):
        return (dict, frozenset((key, _key(item)) for key, item in value.items()))
    return value


def all_unique(items: Sequence[object]) -> bool:
    """``uniqueItems``: no two items are equal as JSON values."""
    try:
        # Python's equality is JSON's but for True == 1: distinct here is distinct there.
        if len(set(items)) == len(items):
            return True
    except TypeError:  # lists and dicts are unhashable
        pass
    try:
        return len({_key(item) for item in items}) == len(items)
    except TypeError:  # unhashable non-JSON values: compare pairwise
        keys = [_key(item) for item in items]
        return all(keys[i] != keys[j] for i in range(len(keys)) for j in range(i))
