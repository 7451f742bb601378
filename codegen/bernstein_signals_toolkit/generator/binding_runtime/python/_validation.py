"""Helpers the generated validators call, with JSON Schema's meaning of equality."""

from collections.abc import Callable, Sequence
from typing import Any, Final

from .errors import PayloadError, _shown
from .limits import MAX_NESTING_DEPTH

__all__ = ["ABSENT", "all_unique", "json_key", "member_pointer", "multiple_of", "passes"]

ABSENT: Final = object()
"""Stands for a member the payload does not have."""


def json_key(value: object, depth: int = 0) -> object:
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
            return (dict, frozenset((key, json_key(item, depth + 1)) for key, item in value.items()))
        return (list, tuple(json_key(item, depth + 1) for item in value))
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
        keys = {json_key(item) for item in items}
    except TypeError:  # a dict key that is not hashable: not JSON; compare as distinct
        return True
    return len(keys) == len(items)


def multiple_of(value: float, divisor: float) -> bool:
    """``multipleOf`` as jsonschema decides it: float division, exact when that overflows."""
    if isinstance(divisor, float):
        quotient = value / divisor
        try:
            return int(quotient) == quotient
        except (OverflowError, ValueError):  # an infinite quotient: exact, or no (inf, nan)
            from fractions import Fraction  # rare: not loaded at start-up

            try:
                return (Fraction(value) / Fraction(divisor)).denominator == 1
            except (OverflowError, ValueError):
                return False
    return not value % divisor


def passes(
    check: Callable[[Any, str, list[PayloadError], int], None], value: object, depth: int
) -> bool:
    """Whether ``value`` passes a compiled subschema (for anyOf, oneOf, not, if, contains)."""
    errors: list[PayloadError] = []
    check(value, "", errors, depth)
    return not errors


def member_pointer(pointer: str, key: object) -> str:
    """The JSON pointer of the member ``key`` of the object at ``pointer``."""
    name = key if isinstance(key, str) else _shown(key)
    return pointer + "/" + name.replace("~", "~0").replace("/", "~1")
