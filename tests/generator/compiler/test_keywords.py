"""The keyword table: complete for 2020-12, and its refusals found at any depth."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from bernstein_signals_toolkit.generator.keywords import (
    KEYWORDS,
    REFUSAL_REASONS,
    TARGETS,
    Support,
    keyword_table,
    refusals,
    support,
)


def test_every_keyword_jsonschema_knows_has_a_row() -> None:
    known = set(jsonschema.Draft202012Validator.VALIDATORS)
    assert known - set(KEYWORDS) == set()


def test_unknown_words_are_refused_and_extensions_are_annotations() -> None:
    for target in TARGETS:
        assert support("enumm", target) is Support.REFUSED
        assert support("x-anything", target) is Support.ANNOTATION
        for word in ("title", "description", "deprecated", "readOnly", "writeOnly", "format"):
            assert support(word, target) is Support.ANNOTATION


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        ({"unevaluatedItems": False}, "/"),
        ({"properties": {"a/b": {"unevaluatedItems": False}}}, "/properties/a~1b"),
        ({"allOf": [{}, {"not": {"unevaluatedItems": False}}]}, "/allOf/1/not"),
        ({"$defs": {"d": {"items": {"unevaluatedItems": False}}}}, "/$defs/d/items"),
        (
            {"dependentSchemas": {"a": {"if": {"unevaluatedItems": False}}}},
            "/dependentSchemas/a/if",
        ),
    ],
)
def test_a_refused_keyword_is_found_at_any_depth(schema: dict[str, object], pointer: str) -> None:
    assert [(where, word) for where, word, _ in refusals(schema, "python")] == [
        (pointer, "unevaluatedItems")
    ]


def test_annotations_hide_nothing_and_a_nested_id_is_refused() -> None:
    assert (
        list(refusals({"examples": [{"unevaluatedItems": 1}], "x-y": {"$ref": 1}}, "python")) == []
    )
    assert [word for _, word, _ in refusals({"items": {"$id": "x"}}, "python")] == ["$id"]


def test_the_table_has_one_row_per_keyword_with_each_targets_support() -> None:
    """The Markdown the docs page and the README carry is the table itself, row for row."""
    lines = keyword_table()
    header = "| Keyword | " + " | ".join(TARGETS) + " | Note |"
    rows = lines[lines.index(header) + 2 : -1]
    assert len(rows) == len(KEYWORDS)
    for row, (keyword, supports) in zip(rows, KEYWORDS.items(), strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[0] == f"`{keyword}`"
        assert cells[1 : 1 + len(TARGETS)] == [support.value for support in supports]
        assert cells[-1] == REFUSAL_REASONS.get(keyword, "")
    assert lines[-1] == ""


def test_the_docs_page_and_the_readme_render_the_table_verbatim() -> None:
    root = Path(__file__).resolve().parents[3]
    table = "\n".join(keyword_table()).rstrip("\n")
    assert table in (root / "generated" / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    assert table in (root / "README.md").read_text(encoding="utf-8")
