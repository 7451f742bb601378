"""A value the shell refuses is told the binding's words (issue 13: one home for each rule).

For each check the shell compiles, a call breaking it prints ``FUNCTION: LABEL
WORDS`` where the binding's ``PayloadError.message`` for the same payload is
``WORDS. DESCRIPTION`` (the schema's ``x-bernstein-message`` or the raw detail,
both from ``schema_messages``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bernstein_signals_toolkit.tools.runtime_vocabulary import compile_folder
from shell_support import kind_schema, run, temporary_library

FIELDS: dict[str, dict[str, object]] = {
    "name": {"description": "A name.", "type": "string", "minLength": 2, "maxLength": 4},
    "code": {"description": "A code.", "type": "string", "pattern": "^[A-C]{2,3}$"},
    "mode": {"description": "A mode.", "type": "string", "enum": ["on", "off"]},
    "level": {"description": "A level.", "type": "integer", "const": 3},
    "low": {"description": "Low.", "type": "integer", "minimum": 2, "maximum": 9},
    "open": {
        "description": "Open.",
        "type": "integer",
        "exclusiveMinimum": 2,
        "exclusiveMaximum": 9,
    },
    "step": {"description": "Step.", "type": "integer", "multipleOf": 5},
    "worded": {
        "description": "Worded.",
        "type": "string",
        "minLength": 3,
        "x-bernstein-message": {"minLength": "needs three letters"},
    },
    "tags": {
        "description": "Tags.",
        "type": "array",
        "items": {"type": "string", "minLength": 1},
        "minItems": 2,
        "maxItems": 3,
        "uniqueItems": True,
    },
}
VIOLATIONS = [
    # (arguments after the required positional, field, JSON value, rule)
    (["--name", "a"], "name", "a", "minLength"),
    (["--name", "abcde"], "name", "abcde", "maxLength"),
    (["--code", "AD"], "code", "AD", "pattern"),
    (["--mode", "up"], "mode", "up", "enum"),
    (["--level", "4"], "level", 4, "const"),
    (["--low", "1"], "low", 1, "minimum"),
    (["--low", "10"], "low", 10, "maximum"),
    (["--open", "2"], "open", 2, "exclusiveMinimum"),
    (["--open", "9"], "open", 9, "exclusiveMaximum"),
    (["--step", "7"], "step", 7, "multipleOf"),
    (["--worded", "ab"], "worded", "ab", "minLength"),
    (["--tags", "a"], "tags", ["a"], "minItems"),
    (
        ["--tags", "a", "--tags", "b", "--tags", "c", "--tags", "d"],
        "tags",
        list("abcd"),
        "maxItems",
    ),
    (["--tags", "a", "--tags", "a"], "tags", ["a", "a"], "uniqueItems"),
    (["--tags", "", "--tags", "b"], "tags", ["", "b"], "minLength"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("messages")
    temporary_library(path, kind_schema("CHECKED", FIELDS, []))
    return path


@pytest.mark.parametrize(("arguments", "field", "value", "rule"), VIOLATIONS)
def test_the_shell_says_what_the_binding_says(
    folder: Path, arguments: list[str], field: str, value: object, rule: str
) -> None:
    runtime = compile_folder(folder / "schema")
    errors = [e for e in runtime.validate_payload("CHECKED", {field: value}) if e.rule == rule]
    assert errors, (field, value, rule)
    result = run(
        "bash", 'bernstein_checked "$@"', *arguments, library=folder / "bernstein-signals.sh"
    )
    assert result.status == 2
    [said] = result.stderr.decode().splitlines()
    item = errors[0].pointer.count("/") > 1
    prefix = (
        f"bernstein_checked: each --{field} item " if item else f"bernstein_checked: --{field} "
    )
    assert said.startswith(prefix), said
    words = said.removeprefix(prefix)
    assert errors[0].message == f"{words}. {FIELDS[field]['description']}", (said, errors[0])
