"""The validator compiler on keywords the shipped schemas do not use yet, and its refusals."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals_toolkit.generator.emitters._python_checks import (
    _For,
    _If,
    _if_and,
    _Line,
    _printed,
)
from bernstein_signals_toolkit.generator.pipeline import render_sources, write
from bernstein_signals_toolkit.toolkit_errors import SourceError

ROOT = Path(__file__).resolve().parents[2]

PROBE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.invalid/probe.schema.json",
    "title": "PROBE",
    "description": "A kind that uses every keyword the Python validator compiles.",
    "type": "object",
    "x-bernstein-kind": "PROBE",
    "x-bernstein-terminal": False,
    "required": ["count"],
    "properties": {
        "count": {"description": "An integer.", "type": "integer"},
        "ratio": {"description": "A number or null.", "type": ["number", "null"]},
        "flag": {"description": "A boolean.", "type": "boolean"},
        "meta": {"description": "An object.", "type": "object"},
        "tags": {
            "description": "Short unique tags.",
            "type": "array",
            "items": {"type": "string", "maxLength": 3},
            "maxItems": 2,
            "uniqueItems": True,
        },
        "grid": {
            "description": "Rows of numbers.",
            "type": "array",
            "items": {"type": "array", "items": {"type": "number"}, "minItems": 1},
        },
        "mixed": {
            "description": "Items of any type; strings among them have rules.",
            "type": "array",
            "items": {"minLength": 2},
        },
    },
    "examples": [{"count": 1}],
}
PAYLOADS: list[Any] = [
    {"count": 1},
    {"count": 1.0},
    {"count": 1.5},
    {"count": True},
    {},
    [],
    {"count": 0, "ratio": None},
    {"count": 0, "ratio": 2},
    {"count": 0, "ratio": "2"},
    {"count": 0, "ratio": False},
    {"count": 0, "flag": 0},
    {"count": 0, "flag": False},
    {"count": 0, "meta": {}},
    {"count": 0, "meta": []},
    {"count": 0, "tags": ["a", "bb"]},
    {"count": 0, "tags": ["a", "a"]},
    {"count": 0, "tags": ["a", "b", "c"]},
    {"count": 0, "tags": ["abcd"]},
    {"count": 0, "tags": [1, True]},
    {"count": 0, "tags": [1, 1.0]},
    {"count": 0, "grid": [[1, 2.5], [3]]},
    {"count": 0, "grid": [[]]},
    {"count": 0, "grid": [[1, "x"]]},
    {"count": 0, "grid": [1]},
    {"count": 0, "mixed": ["a"]},
    {"count": 0, "mixed": ["ab", 1, None, [], {}]},
]
ISSUE_SCHEMA: dict[str, Any] = {
    **{key: PROBE_SCHEMA[key] for key in ("$schema", "$id", "title", "description", "type")},
    "x-bernstein-kind": "PROBE",
    "x-bernstein-terminal": False,
    "description": "The fields and kind-level rules issue 11 names.",
    "maxProperties": 4,
    "dependentRequired": {"percent": ["status"]},
    "not": {"required": ["debug"]},
    "patternProperties": {"^x_": {"type": "string"}},
    "additionalProperties": False,
    "properties": {
        "percent": {"description": "Done.", "type": "integer", "minimum": 0, "maximum": 100},
        "status": {"description": "State.", "enum": ["running", "done"], "type": "string"},
        "usage": {
            "description": "Tokens.",
            "type": "object",
            "required": ["tokens"],
            "properties": {"tokens": {"type": "integer", "exclusiveMinimum": 0}},
            "additionalProperties": False,
        },
        "spots": {
            "description": "Places.",
            "type": "array",
            "items": {"$ref": "#/$defs/spot"},
        },
        "debug": {"description": "Never sent.", "type": "boolean"},
    },
    "$defs": {
        "spot": {
            "type": "object",
            "required": ["file", "line"],
            "properties": {"file": {"type": "string"}, "line": {"type": "integer", "minimum": 1}},
        }
    },
    "examples": [{"percent": 5, "status": "running"}],
}
ISSUE_PAYLOADS: list[Any] = [
    {},
    {"percent": 5, "status": "done"},
    {"percent": 5},
    {"percent": 5.0, "status": "done"},
    {"percent": 101, "status": "done"},
    {"percent": -1, "status": "done"},
    {"percent": True, "status": "done"},
    {"status": "paused"},
    {"debug": False},
    {"x_note": "a"},
    {"x_note": 1},
    {"other": 1},
    {"percent": 1, "status": "done", "x_a": "a", "x_b": "b"},
    {"percent": 1, "status": "done", "x_a": "a", "x_b": "b", "x_c": "c"},
    {"usage": {"tokens": 1}},
    {"usage": {"tokens": 0}},
    {"usage": {}},
    {"usage": {"tokens": 1, "more": 2}},
    {"spots": [{"file": "a.py", "line": 1}]},
    {"spots": [{"file": "a.py", "line": 0}]},
    {"spots": [{"file": "a.py"}]},
    {"spots": [{"file": 1, "line": 2.0}]},
]
_CHECK = """
import json, sys
import jsonschema
import bernstein_signals as b
schema, payloads = json.loads(sys.stdin.read())
validator = jsonschema.Draft202012Validator(schema)
for payload in payloads:
    ours = not b.validate_payload("PROBE", payload)
    assert ours == validator.is_valid(payload), (payload, b.validate_payload("PROBE", payload))
print(len(payloads))
"""


def _vocabulary(tmp_path: Path, schema: dict[str, Any]) -> tuple[Path, Path]:
    shutil.copytree(ROOT / "schema", tmp_path / "schema")
    (tmp_path / "schema" / "probe.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    return tmp_path / "schema", ROOT / "grammar" / "signal.lark"


@pytest.mark.parametrize(
    ("schema", "payloads"), [(PROBE_SCHEMA, PAYLOADS), (ISSUE_SCHEMA, ISSUE_PAYLOADS)]
)
def test_compiled_keywords_agree_with_jsonschema(
    tmp_path: Path, schema: dict[str, Any], payloads: list[Any]
) -> None:
    out = tmp_path / "out"
    # Python only: the shell emitter refuses the probe's number field, by design.
    write(out, render_sources(*_vocabulary(tmp_path, schema), targets=["python"]))
    result = subprocess.run(
        [sys.executable, "-c", _CHECK],
        input=json.dumps([schema, payloads]),
        env={"PYTHONPATH": str(out / "python")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.strip() == str(len(payloads)), result.stderr


@pytest.mark.parametrize(
    ("where", "keyword", "pointer"),
    [
        (("properties", "meta"), "unevaluatedProperties", "/properties/meta"),
        (("properties", "tags", "items"), "$dynamicRef", "/properties/tags/items"),
        ((), "unevaluatedProperties", "/"),
        (("properties", "count"), "enumm", "/properties/count"),
    ],
)
def test_a_keyword_it_cannot_compile_stops_generation(
    tmp_path: Path, where: tuple[str, ...], keyword: str, pointer: str
) -> None:
    schema = json.loads(json.dumps(PROBE_SCHEMA))
    target = schema
    for step in where:
        target = target[step]
    target[keyword] = False if keyword.startswith("un") else "#x"
    expected = (
        rf"probe\.schema\.json: \[keyword\] at {re.escape(pointer)}: '{re.escape(keyword)}'"
        r" cannot be compiled for the python target"
    )
    with pytest.raises(SourceError, match=expected) as caught:
        render_sources(*_vocabulary(tmp_path, schema), targets=["python"])
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "items", [{"uniqueItems": False}, True, {}, {"items": True}, {"description": "any"}]
)
def test_an_items_schema_that_compiles_to_nothing_generates(tmp_path: Path, items: Any) -> None:
    schema = json.loads(json.dumps(PROBE_SCHEMA))
    schema["properties"]["tags"]["items"] = items
    schema["properties"]["grid"]["items"] = {"type": "array", "items": items}
    files = render_sources(*_vocabulary(tmp_path, schema), targets=["python"])
    source = files["python/bernstein_signals/validators.py"]
    compile(source, "validators.py", "exec")


def test_statements_print_as_written_by_hand_from_their_structure() -> None:
    """``else: if`` prints as ``elif``, a lone plain ``if`` joins its guard's test, an
    empty block is ``pass``: decided on the statement tree, never on printed source."""
    chain = _If("a", (_Line("x()"),), (_If("b", (), (_Line("y()"),)),))
    assert _printed([chain]) == ["if a:", "    x()", "elif b:", "    pass", "else:", "    y()"]
    assert _printed([_For("for k in d:", ())]) == ["for k in d:", "    pass"]
    joined = _if_and("v is not ABSENT", [_If("len(v) > 2", (_Line("e()"),))])
    assert joined == _If("v is not ABSENT and (len(v) > 2)", (_Line("e()"),))
    with_else = _If("len(v) > 2", (_Line("e()"),), (_Line("f()"),))
    assert _if_and("p", [with_else]) == _If("p", (with_else,))
    assert _if_and("p", [_Line("e()"), _If("q", ())]).test == "p"
    # An ``else`` holding more than one statement stays an ``else`` block.
    two = _If("a", (), (_If("b", ()), _Line("z()")))
    assert _printed([two]) == ["if a:", "    pass", "else:", "    if b:", "        pass", "    z()"]
