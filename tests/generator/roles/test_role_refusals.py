"""The role table and the refusals: a vocabulary that drops, doubles or mistypes a role."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator import load
from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.roles import (
    REPLY_DOCUMENT,
    ROLE_KEYWORD,
    ROLES,
    check_roles,
)
from bernstein_signals_toolkit.toolkit_errors import SourceError
from ecma_jsonschema import validator
from generator.roles.roles_support import SCHEMA, copy_sources, edit, generate, role_fields


def test_the_table_has_one_constant_per_row_and_schema_carries_every_role() -> None:
    constants = [role.constant for role in ROLES]
    assert len(set(constants)) == len(constants)
    assert len({(role.document, role.name) for role in ROLES}) == len(ROLES)
    marked = {(document, role) for document, role, _ in role_fields()}
    assert marked == {(role.document, role.name) for role in ROLES}
    vocabulary = load_vocabulary(SCHEMA, SCHEMA.parent / "grammar" / "signal.lark")
    check_roles(vocabulary)  # the shipped vocabulary carries every required role


def _refusal(tmp_path: Path, document: str, change: Any) -> str:
    schema, grammar = copy_sources(tmp_path / "src")
    edit(schema, document, change)
    result = generate(schema, grammar, tmp_path / "out")
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "out").exists(), "a refused vocabulary writes nothing"
    return result.stderr


def _drop_role(field: str) -> Any:
    def change(schema: dict[str, Any]) -> None:
        del schema["properties"][field][ROLE_KEYWORD]

    return change


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    ("document", "role", "field"),
    [case for case in role_fields() if any(r.required and r.name == case[1] for r in ROLES)],
)
def test_generate_refuses_a_vocabulary_that_drops_a_required_role(
    tmp_path: Path, document: str, role: str, field: str
) -> None:
    stderr = _refusal(tmp_path, document, _drop_role(field))
    feature = next(r.feature for r in ROLES if r.name == role and r.document == document)
    assert f"[role] {document} has no field with role {role}: {feature}" in stderr


def test_the_issue_example_names_ask_and_the_tracker(tmp_path: Path) -> None:
    stderr = _refusal(tmp_path, "QUESTION", _drop_role("question"))
    assert "QUESTION has no field with role question-text: ask()" in stderr
    assert "QuestionTracker need one" in stderr


def test_a_vocabulary_without_the_kind_a_role_needs_is_refused(tmp_path: Path) -> None:
    schema, grammar = copy_sources(tmp_path / "src")
    (schema / "plan_ready.schema.json").unlink()
    result = generate(schema, grammar, tmp_path / "out")
    assert result.returncode == 2
    assert "there is no PLAN_READY kind, so no field with role plan-path" in result.stderr


def test_dropping_an_optional_role_is_allowed(tmp_path: Path) -> None:
    schema, grammar = copy_sources(tmp_path / "src")
    edit(schema, "COMPLETED", _drop_role("vocabulary"))
    result = generate(schema, grammar, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    fields = (tmp_path / "out/python/bernstein_signals/fields.py").read_text(encoding="utf-8")
    assert "COMPLETED_VOCABULARY: Final[str | None] = None" in fields


@pytest.mark.parametrize(
    ("document", "change", "message"),
    [
        (
            "QUESTION",
            lambda s: s["properties"]["id"].update({ROLE_KEYWORD: "question-text"}),
            "at /properties/id: role question-text is already the field 'question''s",
        ),
        (
            "QUESTION",
            lambda s: s["properties"]["question"].update({"type": "integer"}),
            "at /properties/question: role question-text needs a field that admits string",
        ),
        (
            REPLY_DOCUMENT,
            lambda s: s["properties"]["in_reply_to"].update({"type": "string"}),
            "at /properties/in_reply_to: role reply-to needs a field that admits null and string",
        ),
        (
            "BLOCKED",
            lambda s: s["properties"]["reason"].update({ROLE_KEYWORD: "failure-reason"}),
            "at /properties/reason: BLOCKED has no role 'failure-reason'",
        ),
        (
            "QUESTION",
            lambda s: s["properties"]["options"].update({ROLE_KEYWORD: ["question-options"]}),
            "at /properties/options: 'x-bernstein-role' must be a role name (a string)",
        ),
        (
            "COMPLETED",
            lambda s: s.update(examples=[{}]) or s["properties"]["vocabulary"].update(pattern="^2"),
            "at /properties/vocabulary: the field with role vocabulary-version refuses this"
            " vocabulary's own version",
        ),
    ],
    ids=[
        "two-fields",
        "wrong-type",
        "reply-not-nullable",
        "wrong-kind",
        "not-a-string",
        "own-version-refused",
    ],
)
def test_load_refuses_a_role_twice_mistyped_or_on_the_wrong_kind(
    tmp_path: Path, document: str, change: Any, message: str
) -> None:
    schema, grammar = copy_sources(tmp_path / "src")
    edit(schema, document, change)
    with pytest.raises(SourceError) as caught:
        load_vocabulary(schema, grammar)
    assert message in str(caught.value)
    assert "[role]" in _refusal(tmp_path / "cli", document, change)


def test_any_kind_may_stamp_the_vocabulary_version(tmp_path: Path) -> None:
    """A fork's own terminal kind, copied from COMPLETED, keeps its vocabulary field."""
    schema, grammar = copy_sources(tmp_path / "src")
    copied = json.loads((schema / "completed.schema.json").read_text(encoding="utf-8"))
    copied.update({"x-bernstein-kind": "CANCELLED", "title": "CANCELLED", "$id": "urn:cancelled"})
    (schema / "cancelled.schema.json").write_text(json.dumps(copied), encoding="utf-8")
    assert load_vocabulary(schema, grammar).kind("CANCELLED").roles == {
        "vocabulary-version": "vocabulary"
    }


_VERSION_PATTERN = json.loads((SCHEMA / "completed.schema.json").read_text(encoding="utf-8"))[
    "properties"
]["vocabulary"]
_SEMVERISH = st.from_regex(
    r"\A[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}(-[0-9A-Za-z.\-]{0,8})?(\+[0-9A-Za-z.\-]{0,8})?\Z"
)


@given(st.one_of(_SEMVERISH, st.text(alphabet="0123456789.-+aZ\n", max_size=14)))
def test_the_vocabulary_field_accepts_exactly_what_load_takes_as_a_version(text: str) -> None:
    """The wire field's pattern and vocabulary.json's version rule agree on every string."""
    wire = not list(validator(_VERSION_PATTERN).iter_errors(text))
    assert wire == bool(load._SEMVER.fullmatch(text)), text


def test_the_vocabulary_field_takes_the_current_version() -> None:
    version = json.loads((SCHEMA / "vocabulary.json").read_text(encoding="utf-8"))["version"]
    assert not list(validator(_VERSION_PATTERN).iter_errors(version))
