"""Properties: loosening keeps old payloads valid; what diff calls compatible for a side is.

OLD is a random kind-like object schema. In the first property NEW applies
random loosening steps to it: every payload OLD accepts (drawn from a pool of
JSON values each field accepts, checked by the ECMA-aware jsonschema oracle)
must pass NEW, diff must call every change compatible for producers, and read
backwards (the pair swapped, so it only tightens) compatible for consumers.
In the second NEW changes OLD in any direction (fields added and dropped,
bounds moved both ways, types swapped, required and extras redrawn): when
diff calls every change compatible for a side, the oracle must agree.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.tools.evolution import Category, compare_schemas
from ecma_jsonschema import validator

NAMES = ["a", "b", "c", "d"]
TYPES = ["string", "integer", "number", "null", "boolean", "array"]
POOL: list[Any] = [
    None, True, False, 0, 1, 2, -1, 3, 4, 6, 2.5, 10, "", "a", "ab", "abc", "abcd", "abcdef",
    "b1", "é", "A\n", [], ["a"], ["a", "a"], ["a", "bc", "d"], [1], {}, {"k": 1},
]  # fmt: skip


@st.composite
def _field(draw: st.DrawFn) -> dict[str, Any]:
    types = draw(st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True))
    schema: dict[str, Any] = {"type": types if len(types) > 1 else types[0]}
    if "string" in types:
        if draw(st.booleans()):
            schema["minLength"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            schema["maxLength"] = draw(st.integers(3, 6))
        if draw(st.booleans()):
            schema["pattern"] = draw(st.sampled_from(["^[a-z]+$", "^a", "\\d", "^.$"]))
    if "integer" in types or "number" in types:
        if draw(st.booleans()):
            schema["minimum"] = draw(st.integers(-1, 2))
        if draw(st.booleans()):
            schema["maximum"] = draw(st.integers(3, 10))
        if draw(st.booleans()):
            schema["exclusiveMaximum"] = draw(st.integers(4, 11))
        if draw(st.booleans()):
            schema["multipleOf"] = draw(st.sampled_from([1, 2, 4]))
    if "array" in types:
        if draw(st.booleans()):
            schema["items"] = {"type": "string", "minLength": draw(st.integers(0, 2))}
        if draw(st.booleans()):
            schema["minItems"] = draw(st.integers(0, 2))
        if draw(st.booleans()):
            schema["maxItems"] = draw(st.integers(2, 3))
        if draw(st.booleans()):
            schema["uniqueItems"] = True
    if draw(st.booleans()):
        schema["enum"] = draw(st.lists(st.sampled_from(POOL[:20]), min_size=1, max_size=6))
    return schema


@st.composite
def _old(draw: st.DrawFn) -> dict[str, Any]:
    props = draw(st.dictionaries(st.sampled_from(NAMES), _field(), max_size=4))
    required = draw(st.lists(st.sampled_from(sorted(props) or ["a"]), unique=True))
    schema: dict[str, Any] = {"type": "object", "properties": props}
    schema["required"] = [name for name in required if name in props]
    if draw(st.booleans()):
        schema["additionalProperties"] = False
    return schema


_LOOSER_BOUND = {
    "minLength": -1,
    "minimum": -1,
    "minItems": -1,
    "maxLength": 1,
    "maximum": 1,
    "exclusiveMaximum": 1,
    "maxItems": 1,
}


def _loosen_field(draw: st.DrawFn, field: dict[str, Any]) -> dict[str, Any]:
    field = copy.deepcopy(field)
    for keyword in sorted(field):
        step = draw(st.sampled_from(["keep", "keep", "drop", "move"]))
        if keyword == "type":
            if step == "drop":
                del field["type"]
            elif step == "move":
                types = field["type"] if isinstance(field["type"], list) else [field["type"]]
                extra = draw(st.sampled_from(TYPES))
                field["type"] = sorted({*types, extra})
        elif step == "drop":
            del field[keyword]
        elif step == "move":
            if keyword in _LOOSER_BOUND:
                moved = field[keyword] + _LOOSER_BOUND[keyword] * draw(st.integers(1, 3))
                field[keyword] = moved if keyword == "minimum" else max(0, moved)
            elif keyword == "enum":
                field["enum"] = [*field["enum"], *draw(st.lists(st.sampled_from(POOL), max_size=3))]
            elif keyword == "multipleOf" and field["multipleOf"] == 4:
                field["multipleOf"] = 2
            elif keyword == "items":
                field["items"] = {"type": ["string", "integer"]}
    return field


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    old = draw(_old())
    new = copy.deepcopy(old)
    for name in sorted(old["properties"]):
        new["properties"][name] = _loosen_field(draw, old["properties"][name])
    new["required"] = [name for name in old["required"] if draw(st.booleans())]
    if "additionalProperties" in old and draw(st.booleans()):
        del new["additionalProperties"]
    if "additionalProperties" not in new:  # open: forgetting a field lets anything through
        for name in sorted(old["properties"]):
            if name not in new["required"] and draw(st.integers(0, 4)) == 0:
                del new["properties"][name]
    return old, new


@st.composite
def _cases(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    old, new = draw(_pairs())
    instance: dict[str, Any] = {}
    for name, field in sorted(old["properties"].items()):
        oracle = validator(field)
        accepted = [value for value in POOL if oracle.is_valid(value)]
        if name in old["required"]:
            assume(accepted)
        if accepted and (name in old["required"] or draw(st.booleans())):
            instance[name] = draw(st.sampled_from(accepted))
    if old.get("additionalProperties") is not False and draw(st.booleans()):
        instance["z"] = draw(st.sampled_from(POOL))
    return old, new, instance


@settings(max_examples=400)
@given(_cases())
def test_loosening_keeps_old_payloads_valid_and_diff_agrees(
    case: tuple[dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    old, new, instance = case
    assert validator(old).is_valid(instance)
    assert validator(new).is_valid(instance), (old, new, instance)
    changes = compare_schemas(old, new, where="K", file="k.schema.json")
    verdicts = [(c.rule.id, c.pointer, c.producers) for c in changes]
    assert all(producers is Category.COMPATIBLE for _, _, producers in verdicts), verdicts
    if _normal(old) != _normal(new):
        assert changes, "a change went unreported"
    # Read backwards, the same pair only tightens: orchestrators on the looser side accept it all.
    backwards = compare_schemas(new, old, where="K", file="k.schema.json")
    assert all(c.consumers is Category.COMPATIBLE for c in backwards), [
        (c.rule.id, c.pointer) for c in backwards
    ]


def _normal(schema: Any) -> Any:
    """Type lists and enums as sorted sets: their order means nothing."""
    if isinstance(schema, dict):
        result = {key: _normal(value) for key, value in schema.items()}
        if "type" in result:
            names = result["type"] if isinstance(result["type"], list) else [result["type"]]
            result["type"] = sorted(set(names))
        if "enum" in result:  # nor the order or repetition of enum values
            result["enum"] = sorted({json.dumps(value) for value in result["enum"]})
        return result
    return schema


# -- any change: what diff calls compatible for a side must be compatible for it ------------

_TIGHTER_BOUND = {key: -step for key, step in _LOOSER_BOUND.items()}


def _change_field(draw: st.DrawFn, field: dict[str, Any]) -> dict[str, Any]:
    """Loosen, tighten, add or drop keywords at random."""
    field = _loosen_field(draw, field)
    for keyword in sorted(field):
        if keyword in _TIGHTER_BOUND and draw(st.integers(0, 3)) == 0:
            moved = field[keyword] + _TIGHTER_BOUND[keyword] * draw(st.integers(1, 3))
            field[keyword] = moved if keyword == "minimum" else max(0, moved)
        elif keyword == "enum" and draw(st.integers(0, 3)) == 0:
            field["enum"] = field["enum"][1:] or ["only"]
        elif keyword == "type" and draw(st.integers(0, 3)) == 0:
            field["type"] = draw(st.sampled_from(TYPES))
    return {**field, **draw(_field())} if draw(st.integers(0, 4)) == 0 else field


@st.composite
def _any_pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    old = draw(_old())
    new = copy.deepcopy(old)
    for name in sorted(old["properties"]):
        step = draw(st.sampled_from(["change", "change", "keep", "drop"]))
        if step == "change":
            new["properties"][name] = _change_field(draw, old["properties"][name])
        elif step == "drop":
            del new["properties"][name]
    for name in NAMES:
        if name not in new["properties"] and draw(st.integers(0, 3)) == 0:
            new["properties"][name] = draw(_field())
    names = sorted(new["properties"])
    new["required"] = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    if draw(st.integers(0, 3)) == 0:
        new["additionalProperties"] = draw(st.booleans())
    return old, new


@st.composite
def _instance(draw: st.DrawFn, schema: dict[str, Any]) -> dict[str, Any]:
    instance: dict[str, Any] = {}
    for name, field in sorted(schema["properties"].items()):
        oracle = validator(field)
        accepted = [value for value in POOL if oracle.is_valid(value)]
        if name in schema["required"]:
            assume(accepted)
        if accepted and (name in schema["required"] or draw(st.booleans())):
            instance[name] = draw(st.sampled_from(accepted))
    if schema.get("additionalProperties", True) is not False:
        for name in draw(st.lists(st.sampled_from([*NAMES, "z"]), max_size=2, unique=True)):
            if name not in schema["properties"]:
                instance[name] = draw(st.sampled_from(POOL))
    return instance


@settings(max_examples=400)
@given(st.data())
def test_what_diff_calls_compatible_is_compatible(data: st.DataObject) -> None:
    old, new = data.draw(_any_pairs())
    changes = compare_schemas(old, new, where="K", file="k.schema.json")
    producers_safe = all(c.producers is Category.COMPATIBLE for c in changes)
    consumers_safe = all(c.consumers is Category.COMPATIBLE for c in changes)
    if producers_safe:  # adapters on OLD: everything they send passes NEW
        sent = data.draw(_instance(old))
        assert validator(old).is_valid(sent)
        assert validator(new).is_valid(sent), ([(c.rule.id, c.pointer) for c in changes], sent)
    if consumers_safe:  # orchestrators on OLD: everything NEW adapters send passes OLD
        sent = data.draw(_instance(new))
        assert validator(new).is_valid(sent)
        assert validator(old).is_valid(sent), ([(c.rule.id, c.pointer) for c in changes], sent)
