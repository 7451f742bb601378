"""diff's comparer is linear in the size of the schemas: 10x the input, at most 20x the time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bernstein_signals_toolkit.tools.evolution import compare_schemas
from linear_support import assert_linear


def _compare(old: Any, new: Any) -> Callable[[], object]:
    return lambda: compare_schemas(old, new, where="K", file="k.schema.json")


def _wide(size: int) -> Callable[[], object]:
    """Many fields: each one tightened, renamed or added."""
    old = {"type": "object", "properties": {f"f{i}": {"type": "string"} for i in range(size)}}
    new: dict[str, Any] = {"type": "object", "properties": {}}
    for i in range(size):
        field = {"type": "string", "minLength": 1}
        if i % 3 == 1:
            new["properties"][f"g{i}"] = {**field, "x-bernstein-renamed-from": f"f{i}"}
        else:
            new["properties"][f"f{i}"] = field
        new["properties"][f"n{i}"] = {"type": "integer"}
    return _compare(old, new)


def _long_values(size: int) -> Callable[[], object]:
    """Long enums, patterns and descriptions."""
    old = {"enum": [f"v{i}" for i in range(size)], "pattern": "a" * size, "description": "d" * size}
    new = {"enum": [f"v{i}" for i in range(size + 1)], "pattern": "b" * size, "description": "e"}
    return _compare(old, new)


def _nested(size: int) -> Callable[[], object]:
    """Objects 60 deep (the loader stops at 64), each level as wide as ``size``/60."""

    def level(depth: int, extra: str) -> dict[str, Any]:
        props: dict[str, Any] = {f"p{i}": {"type": "string"} for i in range(size // 60)}
        if depth:
            props["child"] = level(depth - 1, extra)
        props[extra] = {"type": "integer"}
        return {"type": "object", "properties": props}

    return _compare(level(30, "x"), level(30, "y"))


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("make", "size"),
    [(_wide, 400), (_long_values, 20_000), (_nested, 3_000)],
    ids=["wide", "long", "nested"],
)
def test_compare_is_linear(make: Callable[[int], Callable[[], object]], size: int) -> None:
    assert_linear(make, size, what=f"compare_schemas ({make.__name__})")
