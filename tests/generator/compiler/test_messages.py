"""``x-bernstein-message``: plain words for a rule, with the raw rule kept beside them."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.generator.emitters._python_validators import validators_module
from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.model import Vocabulary
from bernstein_signals_toolkit.toolkit_errors import SourceError

ROOT = Path(__file__).resolve().parents[3]


@cache
def _vocabulary() -> Vocabulary:
    return load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")


def _validate(properties: dict[str, Any], payload: dict[str, Any]) -> list[Any]:
    schema = {"type": "object", "properties": properties}
    vocabulary = _vocabulary()
    reply = dataclasses.replace(vocabulary.reply, schema_json=json.dumps(schema))
    text = validators_module(dataclasses.replace(vocabulary, reply=reply))
    namespace: dict[str, Any] = {
        "__name__": "bernstein_signals._m",
        "__package__": "bernstein_signals",
    }
    exec(compile(text, "<validators>", "exec"), namespace)  # the module text generate writes
    errors: list[Any] = namespace["validate_reply"](payload)
    return errors


def test_a_string_message_words_every_rule_of_its_subschema() -> None:
    field = {"type": "string", "pattern": "^a", "maxLength": 2, "x-bernstein-message": "say a"}
    errors = _validate({"f": field}, {"f": "bbb"})
    assert [(e.rule, e.message, e.detail) for e in errors] == [
        ("maxLength", "say a.", "must be at most 2 characters long"),
        ("pattern", "say a.", "must match ^a"),
    ]


def test_an_object_message_words_only_the_keywords_it_names() -> None:
    field = {
        "description": "The field.",
        "type": "string",
        "pattern": "^a",
        "maxLength": 2,
        "x-bernstein-message": {"pattern": "must start with a"},
    }
    errors = _validate({"f": field}, {"f": "bbb"})
    assert [(e.rule, e.message, e.detail) for e in errors] == [
        (
            "maxLength",
            "must be at most 2 characters long. The field.",
            "must be at most 2 characters long",
        ),
        ("pattern", "must start with a. The field.", "must match ^a"),
    ]
    assert str(errors[1]) == "/f: must start with a. The field. [pattern]"


def test_a_message_in_a_nested_schema_applies_there() -> None:
    field = {
        "type": "array",
        "items": {"type": "integer", "x-bernstein-message": {"type": "whole numbers only"}},
    }
    (error,) = _validate({"f": field}, {"f": [1, "x"]})
    assert (error.pointer, error.rule, error.message, error.detail) == (
        "/f/1",
        "type",
        "whole numbers only.",
        "must be an integer",
    )


@pytest.mark.parametrize(
    "given", ["", "  ", 3, [], {}, {"pattern": 1}, {"pattern": ""}, {"minLength": "x"}]
)
def test_a_malformed_message_is_refused(given: object) -> None:
    field = {"type": "string", "x-bernstein-message": given}
    with pytest.raises(
        SourceError, match=r"at /properties/f: 'x-bernstein-message' cannot be compiled"
    ):
        _validate({"f": field}, {})


def test_validate_json_keeps_the_raw_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = tmp_path / "p.json"
    payload.write_text('{"path": "../x"}\n')
    status = main(["validate", "--format", "json", "--payload", "PLAN_READY", str(payload)])
    (diagnostic,) = json.loads(capsys.readouterr().out)["files"][0]["diagnostics"]
    assert status == 1
    assert diagnostic["pointer"] == "/path"
    assert diagnostic["rule"].startswith("pattern: must match ^")


def test_a_member_words_its_own_absence() -> None:
    field = {"type": "string", "x-bernstein-message": {"required": "give f"}}
    vocabulary = _vocabulary()
    schema = {"type": "object", "required": ["f"], "properties": {"f": field}}
    reply = dataclasses.replace(vocabulary.reply, schema_json=json.dumps(schema))
    text = validators_module(dataclasses.replace(vocabulary, reply=reply))
    namespace: dict[str, Any] = {
        "__name__": "bernstein_signals._m",
        "__package__": "bernstein_signals",
    }
    exec(compile(text, "<validators>", "exec"), namespace)  # the module text generate writes
    (error,) = namespace["validate_reply"]({})
    assert (error.rule, error.message, error.detail) == ("required", "give f.", "is required")
