"""Hostile strings in every slot of a compiled schema: the compiler writes valid Python that
runs nothing from the schema, or refuses with a SourceError; never a traceback."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator.emitters._python_validators import schema_module
from bernstein_signals_toolkit.generator.emitters._typescript_validators import (
    schema_module as typescript_schema_module,
)
from bernstein_signals_toolkit.toolkit_errors import SourceError

HOSTILE = st.sampled_from(
    [
        '"',
        "'",
        '"""',
        "'''",
        "\\",
        "\n",
        "\u2028",
        "\x00",
        "$(touch x)",
        "`id`",
        "%s",
        "{0}",
        "errors",
        "value",
        "pointer",
        "depth",
        "ABSENT",
        "__import__('os')",
        "~/",
        "#",
        "",
    ]
) | st.text(max_size=6)
COMPILED: list[str] = []
REFUSED: list[str] = []
SLOT = st.lists(HOSTILE, min_size=1, max_size=3).map("".join)


@st.composite
def _schema(draw: st.DrawFn) -> dict[str, Any]:
    name, other, text = draw(SLOT), draw(SLOT), draw(SLOT)
    return {
        "description": text,
        "x-bernstein-message": {"required": text} if draw(st.booleans()) else text or "m",
        "properties": {name: {"enum": [text, {other: [text]}], "description": text}},
        "required": [name, other],
        "patternProperties": {draw(SLOT): {"const": text}},
        "dependentRequired": {name: [other]},
        "$defs": {other: {"pattern": draw(SLOT), "x-bernstein-message": text or "m"}},
        "items": {"$ref": "#/$defs/" + other.replace("~", "~0").replace("/", "~1")},
        "additionalProperties": {"const": {text: name}},
    }


@settings(max_examples=300, deadline=None)
@given(_schema(), st.dictionaries(SLOT, SLOT, max_size=3))
def test_hostile_schema_strings_compile_safely_or_are_refused(
    schema: dict[str, Any], payload: dict[str, str]
) -> None:
    try:
        text = schema_module(schema, "hostile.schema.json")
    except SourceError as exc:
        REFUSED.append(str(exc))
        return
    COMPILED.append(text)
    namespace: dict[str, Any] = {
        "__name__": "bernstein_signals._h",
        "__package__": "bernstein_signals",
    }
    exec(compile(text, "<hostile>", "exec"), namespace)  # the compiler's own output
    for error in namespace["check"](payload):
        assert isinstance(error.message, str)
        assert isinstance(error.pointer, str)


def test_most_hostile_schemas_compiled_and_every_refusal_is_one_line() -> None:
    """Runs after the test above (file order)."""
    print(f"{len(COMPILED)} compiled, {len(REFUSED)} refused")
    assert len(COMPILED) >= 100, (len(COMPILED), len(REFUSED))
    assert all("\n" not in refusal for refusal in REFUSED)


@pytest.mark.parametrize("target", ["python", "typescript"])
@pytest.mark.parametrize(
    "index",
    # Digits str.isdigit() and int() read that RFC 6901 does not: superscripts, other
    # scripts' digits, leading zeros, signs, spaces, underscores; and indexes past the end.
    ["\u00b2", "\u0661", "\uff11", "01", "00", "-0", "+1", " 1", "1 ", "1_0", "0x0", "2", ""],
)
def test_a_ref_array_index_is_an_ascii_number_without_leading_zeros(
    target: str, index: str
) -> None:
    """Anything else is refused as pointing nowhere, never a ValueError out of the emitter."""
    schema = {"allOf": [{"type": "string"}, {"minLength": 1}], "$ref": f"#/allOf/{index}"}
    with pytest.raises(SourceError, match="points nowhere in the document"):
        _module(schema, target)
    assert _module({**schema, "$ref": "#/allOf/1"}, target)


def _module(schema: dict[str, Any], target: str) -> str:
    if target == "python":
        return schema_module(schema, "ref.schema.json")
    return typescript_schema_module(schema, "ref.schema.json", "file:///bernstein_signals/index.js")
