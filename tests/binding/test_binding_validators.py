"""validate_payload (generated Python) agrees with jsonschema's Draft 2020-12 verdict.

The oracle reads patterns as ECMA-262 (``tests/ecma_jsonschema.py``), as the schemas mean them.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import SignalKind, validate_payload, validate_reply
from ecma_jsonschema import validator

SCHEMAS = Path(__file__).resolve().parents[2] / "schema"

ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=4),
    st.lists(st.text(max_size=2) | st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
PATHS = st.sampled_from(
    [
        ".sdd/plans/fix.md",
        ".sdd/x",
        ".sdd",
        ".sdd/",
        ".sdd//x",
        ".sdd/./x",
        ".sdd/../x",
        ".sdd/..",
        ".sdd/.",
        ".sdd/..x",
        ".sdd/.x",
        "../etc/passwd",
        "/etc/passwd",
        ".sdd/a\\b",
        ".sdd/a\x00",
        ".sdd/a\x1f",
        ".sdd/a\n",
        ".sdd/a\n\n",
        ".sdd/plans\n/x",
        "\n.sdd/x",
        ".sdd/a\r",
        ".sdd/é/😀",
        ".sdd/a\x7f",
        ".SDD/x",
        "sdd/x",
        "./.sdd/x",
        ".sdd/x/",
        "",
    ]
) | st.lists(st.sampled_from(["plans", "x.md", "..", ".", "", "a\\b", "a\n", "é"]), max_size=4).map(
    lambda parts: "/".join([".sdd", *parts])
)
STRINGS = st.sampled_from(["", "x", "yes", "\n"]) | st.text(max_size=3)
OPTIONS = st.lists(st.sampled_from(["yes", "no", "", "yes", 1, None, True]), max_size=4)


def _field(name: str) -> st.SearchStrategy[Any]:
    specific = {"path": PATHS, "options": OPTIONS}.get(name, STRINGS)
    return st.one_of(specific, specific, ANY)


@cache
def _schema(file_name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SCHEMAS / file_name).read_text(encoding="utf-8"))
    return schema


def _payloads(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    names = sorted(schema.get("properties", {}))
    fields = st.fixed_dictionaries({}, optional={name: _field(name) for name in names})
    extras = st.dictionaries(
        st.sampled_from(["extra", "summary", "ID", "", *names]), ANY, max_size=2
    )
    objects = st.builds(lambda f, e: {**e, **f}, fields, extras)
    return objects | ANY


@st.composite
def kinds_and_payloads(draw: st.DrawFn) -> tuple[SignalKind, Any]:
    kind = draw(st.sampled_from(SignalKind))
    return kind, draw(_payloads(_schema(f"{kind.lower()}.schema.json")))


def _jsonschema_fields(schema: dict[str, Any], payload: Any) -> set[str]:
    """The top-level members jsonschema faults (missing or wrong); "" for the payload itself."""
    fields = set()
    for error in validator(schema).iter_errors(payload):
        if error.validator == "required":
            fields.add(re.match(r"'(\w+)'", error.message)[1])  # type: ignore[index]
        else:
            fields.add(str(error.path[0]) if error.path else "")
    return fields


@settings(max_examples=2000)
@given(kinds_and_payloads())
def test_validate_payload_agrees_with_jsonschema(case: tuple[SignalKind, Any]) -> None:
    kind, payload = case
    schema = _schema(f"{kind.lower()}.schema.json")
    errors = validate_payload(kind, payload)
    assert (not errors) == validator(schema).is_valid(payload)
    assert {error.pointer.split("/")[1] if error.pointer else "" for error in errors} == (
        _jsonschema_fields(schema, payload)
    )


@settings(max_examples=500)
@given(_payloads(_schema("reply.schema.json")))
def test_validate_reply_agrees_with_jsonschema(payload: Any) -> None:
    schema = _schema("reply.schema.json")
    assert (not validate_reply(payload)) == validator(schema).is_valid(payload)


@pytest.mark.parametrize("kind", list(SignalKind))
def test_schema_examples_are_valid(kind: SignalKind) -> None:
    for payload in _schema(f"{kind.lower()}.schema.json")["examples"]:
        assert validate_payload(kind, payload) == []


def test_errors_name_pointer_rule_and_the_schemas_words() -> None:
    (error,) = validate_payload("PLAN_READY", {"path": ".sdd/../x"})
    assert (error.pointer, error.rule) == ("/path", "pattern")
    assert "never be sent outside .sdd/" in error.message
    errors = validate_payload(SignalKind.QUESTION, {"options": ["a", "a", 3]})
    assert {(e.pointer, e.rule) for e in errors} == {
        ("/question", "required"),
        ("/options", "uniqueItems"),
        ("/options/2", "type"),
    }
    (extra,) = validate_reply({"answer": "y", "in_reply_to": None, "x/y": 1})
    assert (extra.pointer, extra.rule) == ("/x~1y", "additionalProperties")


def test_unknown_kind_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown signal kind"):
        validate_payload("NOPE", {})
