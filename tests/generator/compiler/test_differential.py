"""The compiled validators against jsonschema's Draft 2020-12 verdict, on generated schemas.

Hypothesis draws schemas from every keyword the Python target compiles (see
``keywords.KEYWORDS``), nested and combined, and instances from a small value
space so that many land on the edge of validity. Each schema is compiled in
memory (the module text is exec'd in a fresh namespace inside the installed
binding's package, so its relative imports resolve) and both verdicts must
agree. Patterns are ECMA-262 on both sides: the oracle's ``pattern`` keyword
searches with ``ecma_regex.translate`` (itself checked against node on every
code point in ``test_ecma_regex.py``), so ``$``, ``\\d`` and ``\\w`` meet strings
with a final newline and non-ASCII letters; ``patternProperties`` keys are
ASCII without newlines, where Python ``re`` and ECMA-262 agree.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator.emitters._python_validators import validators_module
from bernstein_signals_toolkit.generator.keywords import KEYWORDS, Support
from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.model import Vocabulary
from ecma_jsonschema import ECMAValidator as ORACLE

ROOT = Path(__file__).resolve().parents[3]
NAMES = ("a", "b", "c")
# ECMA-262 on both sides; $, \\d and \\w are where Python re would differ (see the docstring).
PATTERNS = (
    "^a",
    "b",
    "^[ab]+c",
    "a|^b",
    "^(ab)*b",
    "c{2}",
    "[^a]",
    "^[ab]+$",
    "\\d",
    "^\\w+$",
    "a$",
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, 1.0, 1.5, -2.0, 3.0, 2.5]),
    st.text(alphabet="abc\n1\u00e9\u0661", max_size=4),
)
INSTANCES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from([*NAMES, "x", "ab"]), inner, max_size=4)
    ),
    max_leaves=10,
)
NUMBERS = st.integers(-2, 3) | st.sampled_from([0.5, 1.5, 2.0])
COUNTS = st.integers(0, 3)
TYPES = st.sampled_from(["null", "boolean", "integer", "number", "string", "array", "object"])
USED: set[str] = set()
PAIRS: list[int] = [0]
VALID: list[int] = [0]


def _pick(options: dict[str, st.SearchStrategy[Any]], most: int) -> st.SearchStrategy[Any]:
    """A schema with up to ``most`` of ``options``: few keywords, so instances often pass."""
    return st.lists(st.sampled_from(sorted(options)), max_size=most, unique=True).flatmap(
        lambda keys: st.fixed_dictionaries({key: options[key] for key in keys})
    )


LEAF: dict[str, st.SearchStrategy[Any]] = {
    "type": TYPES | st.lists(TYPES, min_size=1, max_size=3, unique=True),
    "enum": st.lists(SCALARS, min_size=1, max_size=3),
    "const": SCALARS,
    "minimum": NUMBERS,
    "maximum": NUMBERS,
    "exclusiveMinimum": NUMBERS,
    "exclusiveMaximum": NUMBERS,
    "multipleOf": st.sampled_from([1, 2, 0.5, 1.5]),
    "minLength": COUNTS,
    "maxLength": COUNTS,
    "pattern": st.sampled_from(PATTERNS),
    "minItems": COUNTS,
    "maxItems": COUNTS,
    "uniqueItems": st.booleans(),
    "minProperties": COUNTS,
    "maxProperties": COUNTS,
    "required": st.lists(st.sampled_from(NAMES), max_size=2, unique=True),
    "dependentRequired": st.dictionaries(
        st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=2, unique=True)
    ),
    "minContains": COUNTS,
    "maxContains": COUNTS,
    "$ref": st.just("#/$defs/tree"),
    "x-bernstein-message": st.just("a plain message"),
    "description": st.just("annotated"),
}


def _schemas(depth: int) -> st.SearchStrategy[Any]:
    leaf = _pick(LEAF, 3)
    if depth == 0:
        return st.booleans() | leaf
    inner = _schemas(depth - 1)
    small = st.lists(inner, min_size=1, max_size=3)
    nested = _pick(
        {
            "items": inner,
            "prefixItems": small,
            "contains": inner,
            "properties": st.dictionaries(st.sampled_from(NAMES), inner, max_size=2),
            "patternProperties": st.dictionaries(st.sampled_from(PATTERNS), inner, max_size=2),
            "additionalProperties": inner,
            "propertyNames": inner,
            "dependentSchemas": st.dictionaries(st.sampled_from(NAMES), inner, max_size=1),
            "allOf": small,
            "anyOf": small,
            "oneOf": small,
            "not": inner,
            "if": inner,
            "then": inner,
            "else": inner,
        },
        2,
    )
    # Objects as vocabularies write them: members, some required, maybe no extras.
    objects = st.fixed_dictionaries(
        {
            "type": st.just("object"),
            "properties": st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
            "required": st.lists(st.sampled_from(NAMES), max_size=2, unique=True),
        },
        optional={"additionalProperties": st.booleans() | inner},
    )
    combined = st.tuples(leaf, nested).map(lambda pair: {**pair[0], **pair[1]})
    return st.one_of(leaf, combined, objects, inner)


TREE = {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#/$defs/tree"}}]}


@st.composite
def _documents(draw: st.DrawFn) -> dict[str, Any]:
    """A root object schema: random object keywords, members ``a``-``c`` with any schema."""
    root = draw(_schemas(1).filter(lambda schema: isinstance(schema, dict)))
    root.pop("type", None)
    root.pop("$ref", None)
    members = draw(st.dictionaries(st.sampled_from(NAMES), _schemas(3), min_size=1, max_size=3))
    root["properties"] = {**root.get("properties", {}), **members}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.invalid/differential.schema.json",
        "$defs": {"tree": TREE},
        **root,
        "type": "object",
    }


@cache
def _vocabulary() -> Vocabulary:
    return load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")


def _compiled(schema: dict[str, Any]) -> Callable[[object], list[Any]]:
    vocabulary = _vocabulary()
    reply = dataclasses.replace(vocabulary.reply, schema_json=json.dumps(schema))
    text = validators_module(dataclasses.replace(vocabulary, reply=reply))
    namespace: dict[str, Any] = {
        "__name__": "bernstein_signals._differential",
        "__package__": "bernstein_signals",
    }
    exec(compile(text, "<validators>", "exec"), namespace)  # the module text generate writes
    validate: Callable[[object], list[Any]] = namespace["validate_reply"]
    return validate


def _keywords(schema: object) -> set[str]:
    if isinstance(schema, dict):
        return set(schema) | {word for value in schema.values() for word in _keywords(value)}
    if isinstance(schema, list):
        return {word for value in schema for word in _keywords(value)}
    return set()


@pytest.mark.timeout(240)
@settings(max_examples=1000, suppress_health_check=list(HealthCheck), deadline=None)
@given(_documents(), st.lists(INSTANCES, min_size=1, max_size=12))
def test_compiled_verdict_equals_jsonschema(schema: dict[str, Any], instances: list[Any]) -> None:
    USED.update(_keywords(schema))
    validate = _compiled(schema)
    oracle = ORACLE(schema)
    for instance in instances:
        for payload in (instance, {"a": instance}, {"b": instance, "c": [instance]}):
            if not isinstance(payload, dict):
                continue
            ours, theirs = validate(payload), oracle.is_valid(payload)
            PAIRS[0] += 1
            VALID[0] += theirs
            assert (not ours) == theirs, (schema, payload, ours)


def test_the_schemas_drawn_cover_every_compiled_keyword_in_thousands_of_pairs() -> None:
    """Runs after the differential test (file order): it drew each keyword the table compiles."""
    compiled = {word for word, row in KEYWORDS.items() if row[0] is Support.COMPILED}
    if not USED:
        pytest.fail("run with the differential test: it records the keywords drawn")
    assert compiled - USED == set()
    print(f"{PAIRS[0]} schema-instance pairs, {VALID[0]} valid")
    assert PAIRS[0] >= 2000, PAIRS[0]
    assert PAIRS[0] // 5 <= VALID[0] <= PAIRS[0] * 4 // 5, (VALID[0], PAIRS[0])
