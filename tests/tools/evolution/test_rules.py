"""Table-driven: before/after schema pairs for every rule, with the expected category per side."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.tools.evolution import RULES, Bump, Category, compare_schemas
from bernstein_signals_toolkit.tools.evolution.compare import compare_vocabularies
from bernstein_signals_toolkit.tools.evolution.rules import rule, rule_table_markdown

ROOT = Path(__file__).resolve().parents[3]
B, W, C = "breaking", "warning", "compatible"

S: dict[str, Any] = {"type": "string", "description": "s"}


def obj(props: dict[str, Any], required: tuple[str, ...] = (), **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(required), **more}


# (case id, OLD, NEW, [(rule, producers, consumers), ...]) on one kind schema.
SCHEMA_CASES: list[tuple[str, Any, Any, list[tuple[str, str, str]]]] = [
    ("same", obj({"a": S}), obj({"a": S}), []),
    ("add required, open", obj({}), obj({"a": S}, ("a",)), [("field-added-required", B, C)]),
    ("add optional, open", obj({}), obj({"a": S}), [("field-added-optional", W, C)]),
    (
        "add required, closed",
        obj({}, additionalProperties=False),
        obj({"a": S}, ("a",), additionalProperties=False),
        [("field-added-required-closed", B, B)],
    ),
    (
        "add optional, closed",
        obj({}, additionalProperties=False),
        obj({"a": S}, additionalProperties=False),
        [("field-added-optional-closed", C, B)],
    ),
    (
        "add required, constrained",
        obj({}, additionalProperties=S),
        obj({"a": S}, ("a",), additionalProperties=S),
        [("field-added-required-constrained", B, W)],
    ),
    (
        "add optional, constrained",
        obj({}, additionalProperties=S),
        obj({"a": S}, additionalProperties=S),
        [("field-added-optional-constrained", W, W)],
    ),
    ("remove required, open", obj({"a": S}, ("a",)), obj({}), [("field-removed-required", C, B)]),
    ("remove optional, open", obj({"a": S}), obj({}), [("field-removed-optional", C, W)]),
    (
        "remove required, closed",
        obj({"a": S}, ("a",), additionalProperties=False),
        obj({}, additionalProperties=False),
        [("field-removed-required-closed", B, B)],
    ),
    (
        "remove optional, closed",
        obj({"a": S}, additionalProperties=False),
        obj({}, additionalProperties=False),
        [("field-removed-optional-closed", B, C)],
    ),
    (
        "remove required, constrained",
        obj({"a": S}, ("a",), additionalProperties=S),
        obj({}, additionalProperties=S),
        [("field-removed-required-constrained", W, B)],
    ),
    (
        "remove optional, constrained",
        obj({"a": S}, additionalProperties=S),
        obj({}, additionalProperties=S),
        [("field-removed-optional-constrained", W, W)],
    ),
    (
        "rename",
        obj({"a": S}, ("a",)),
        obj({"b": {**S, "x-bernstein-renamed-from": "a"}}, ("b",)),
        [("field-renamed", B, B)],
    ),
    (
        "rename and tighten",
        obj({"a": S}),
        obj({"b": {**S, "minLength": 1, "x-bernstein-renamed-from": "a"}}, ("b",)),
        [("field-renamed", B, B), ("field-made-required", B, C), ("constraint-tightened", B, C)],
    ),
    (
        "two fields claim one old name: the first is the rename",
        obj({"a": S}),
        obj(
            {
                "b": {**S, "x-bernstein-renamed-from": "a"},
                "c": {**S, "x-bernstein-renamed-from": "a"},
            }
        ),
        [("field-renamed", B, B), ("field-added-optional", W, C)],
    ),
    (
        "stale rename hint is an addition",
        obj({"b": S}),
        obj({"b": S, "c": {**S, "x-bernstein-renamed-from": "a"}}),
        [("field-added-optional", W, C)],
    ),
    (
        "required fields reordered",
        obj({"a": S, "b": S}, ("a", "b")),
        obj({"a": S, "b": S}, ("b", "a")),
        [("field-order-changed", W, C)],
    ),
    (
        "a required field inserted before the others is not a reorder",
        obj({"a": S, "b": S}, ("a", "b")),
        obj({"a": S, "b": S, "c": S}, ("c", "a", "b")),
        [("field-added-required", B, C)],
    ),
    (
        "a renamed field keeps its place",
        obj({"a": S, "b": S}, ("a", "b")),
        obj({"z": {**S, "x-bernstein-renamed-from": "a"}, "b": S}, ("z", "b")),
        [("field-renamed", B, B)],
    ),
    ("made required", obj({"a": S}), obj({"a": S}, ("a",)), [("field-made-required", B, C)]),
    ("made optional", obj({"a": S}, ("a",)), obj({"a": S}), [("field-made-optional", C, B)]),
    (
        "type narrowed",
        obj({"a": {"type": ["string", "null"]}}),
        obj({"a": {"type": "string"}}),
        [("type-narrowed", B, C)],
    ),
    (
        "type widened",
        obj({"a": {"type": "integer"}}),
        obj({"a": {"type": "number"}}),
        [("type-widened", C, B)],
    ),
    (
        "type added narrows",
        obj({"a": {}}),
        obj({"a": {"type": "string"}}),
        [("type-narrowed", B, C)],
    ),
    (
        "type changed",
        obj({"a": {"type": "string"}}),
        obj({"a": {"type": "integer"}}),
        [("type-changed", B, B)],
    ),
    (
        "content closed",
        obj({"a": S}),
        obj({"a": S}, additionalProperties=False),
        [("constraint-tightened", B, C)],
    ),
    (
        "content opened",
        obj({"a": S}, additionalProperties=False),
        obj({"a": S}),
        [("constraint-loosened", C, B)],
    ),
    (
        "nested field added",
        obj({"a": obj({"x": S})}),
        obj({"a": obj({"x": S, "y": S})}),
        [("field-added-optional", W, C)],
    ),
    (
        "items tightened",
        obj({"a": {"type": "array", "items": S}}),
        obj({"a": {"type": "array", "items": {**S, "maxLength": 3}}}),
        [("constraint-tightened", B, C)],
    ),
    (
        "description",
        obj({"a": S}),
        obj({"a": {**S, "description": "t"}}),
        [("annotation-changed", C, C)],
    ),
    (
        "message",
        obj({"a": S}),
        obj({"a": {**S, "minLength": 1, "x-bernstein-message": "m"}}),
        [("annotation-changed", C, C), ("constraint-tightened", B, C)],
    ),
    (
        "one pattern spelled two ways",
        obj({"a": {"pattern": "^a\\/b$"}}),
        obj({"a": {"pattern": "^a/b$"}}),
        [],
    ),
    (
        "boolean schema closed",
        obj({"a": True}),
        obj({"a": False}),
        [("constraint-tightened", B, C)],
    ),
    (
        "true is the empty schema",
        obj({"a": {"type": "string"}}),
        obj({"a": True}),
        [("type-widened", C, B)],
    ),
    ("true and {} are the same", obj({"a": True}), obj({"a": {}}), []),
    (
        "false opened",
        obj({"a": False}),
        obj({"a": {"type": "string"}}),
        [("constraint-loosened", C, B)],
    ),
    (
        "const null is a value, not an absence",
        obj({"a": {"const": None}}),
        obj({"a": {"const": "x"}}),
        [("constraint-changed", B, B)],
    ),
]

# Every compiled constraint keyword: (keyword, looser value, tighter value).
ORDERED = [
    ("minLength", 1, 2),
    ("maxLength", 5, 4),
    ("minItems", 0, 1),
    ("maxItems", 3, 2),
    ("minProperties", 0, 1),
    ("maxProperties", 3, 2),
    ("minContains", 1, 2),
    ("maxContains", 3, 2),
    ("minimum", 0, 1),
    ("maximum", 10, 9.5),
    ("exclusiveMinimum", 0, 1),
    ("exclusiveMaximum", 10, 9),
    ("multipleOf", 2, 4),
    ("enum", ["a", "b"], ["a"]),
    ("uniqueItems", False, True),
    ("dependentRequired", {"a": ["b"]}, {"a": ["b", "c"]}),
]
# Keywords whose change is not ordered: (keyword, value, another value).
UNORDERED = [
    ("pattern", "^a", "^b"),
    ("const", "a", "b"),
    ("enum", ["a", "b"], ["a", "c"]),
    ("multipleOf", 2, 3),
    ("not", {"type": "string"}, {"type": "integer"}),
    ("oneOf", [{"type": "string"}], [{"type": "integer"}]),
    ("if", {"type": "string"}, {"type": "integer"}),
    ("$ref", "#/$defs/a", "#/$defs/b"),
    ("patternProperties", {"^a": S}, {"^b": S}),
    ("dependentSchemas", {"a": S}, {"a": {"type": "integer"}}),
    ("prefixItems", [S], [S, S]),
]
# Keywords that hold one subschema the whole inherits its looseness from.
MONOTONE = ["items", "contains", "propertyNames", "additionalProperties"]


def _judged(old: Any, new: Any, *, swapped: bool = False) -> list[tuple[str, str, str]]:
    changes = compare_schemas(old, new, where="K", file="k.schema.json", swapped=swapped)
    return [(c.rule.id, c.producers.value, c.consumers.value) for c in changes]


@pytest.mark.parametrize(
    ("old", "new", "expected"), [c[1:] for c in SCHEMA_CASES], ids=[c[0] for c in SCHEMA_CASES]
)
def test_schema_pairs(old: Any, new: Any, expected: list[tuple[str, str, str]]) -> None:
    assert sorted(_judged(old, new)) == sorted(expected)


@pytest.mark.parametrize(("keyword", "loose", "tight"), ORDERED, ids=[c[0] for c in ORDERED])
def test_every_ordered_keyword(keyword: str, loose: Any, tight: Any) -> None:
    def schema(value: Any) -> dict[str, Any]:
        return obj({"a": {keyword: value}})

    tightened, loosened = ("constraint-tightened", B, C), ("constraint-loosened", C, B)
    assert _judged(schema(loose), schema(tight)) == [tightened]
    assert _judged(schema(tight), schema(loose)) == [loosened]
    assert _judged(obj({"a": {}}), schema(tight)) in ([tightened], [])  # added
    assert _judged(schema(tight), obj({"a": {}})) in ([loosened], [])  # removed


@pytest.mark.parametrize(
    ("keyword", "one", "other"), UNORDERED, ids=[f"{c[0]}-{i}" for i, c in enumerate(UNORDERED)]
)
def test_unordered_keywords_are_changed_and_break_both(keyword: str, one: Any, other: Any) -> None:
    assert _judged(obj({"a": {keyword: one}}), obj({"a": {keyword: other}})) == [
        ("constraint-changed", B, B)
    ]
    assert _judged(obj({"a": {}}), obj({"a": {keyword: one}})) == [("constraint-tightened", B, C)]


@pytest.mark.parametrize("keyword", MONOTONE)
def test_subschema_keywords_pass_their_direction_up(keyword: str) -> None:
    loose, tight = {"type": ["string", "integer"]}, {"type": "string"}
    assert _judged({keyword: loose}, {keyword: tight}) == [("type-narrowed", B, C)]
    assert _judged({keyword: tight}, {keyword: loose}) == [("type-widened", C, B)]


def test_reply_swaps_the_sides() -> None:
    """Adapters read the reply: a tighter reply breaks orchestrators on OLD, not adapters."""
    old, new = obj({"a": S}), obj({"a": {**S, "maxLength": 9}})
    assert _judged(old, new, swapped=True) == [("constraint-tightened", C, B)]
    assert _judged(old, obj({"a": S, "b": S}), swapped=True) == [("field-added-optional", C, W)]


def test_unknown_keyword_change_is_conservative() -> None:
    assert _judged({"frobnicate": 1}, {"frobnicate": 2}) == [("constraint-changed", B, B)]


# -- whole vocabularies: kinds, terminal status, grammar, version text ---------------


def _project(tmp_path: Path, name: str, edit: Callable[[Path], None] | None = None) -> Path:
    root = tmp_path / name
    shutil.copytree(ROOT / "schema", root / "schema")
    shutil.copytree(ROOT / "grammar", root / "grammar")
    if edit is not None:
        edit(root)
    return root


def _load(root: Path) -> Any:
    return load_vocabulary(root / "schema", root / "grammar" / "signal.lark")


def _edit_json(root: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = root / "schema" / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def _new_kind(terminal: bool) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        schema = json.loads((root / "schema" / "blocked.schema.json").read_text())
        schema.update({"$id": "https://example.invalid/paused", "title": "PAUSED"})
        schema.update({"x-bernstein-kind": "PAUSED", "x-bernstein-terminal": terminal})
        (root / "schema" / "paused.schema.json").write_text(json.dumps(schema))

    return edit


def _grammar(old: str, new: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / "grammar" / "signal.lark"
        path.write_text(path.read_text().replace(old, new))

    return edit


VOCABULARY_CASES: list[tuple[str, Callable[[Path], None], list[tuple[str, str, str]]]] = [
    ("kind added", _new_kind(False), [("kind-added", C, W)]),
    ("terminal kind added", _new_kind(True), [("kind-added-terminal", C, B)]),
    (
        "kind removed",
        lambda root: (root / "schema" / "blocked.schema.json").unlink(),
        [("kind-removed", B, C)],
    ),
    (
        "terminal status",
        lambda root: _edit_json(
            root, "blocked.schema.json", lambda s: s.update({"x-bernstein-terminal": True})
        ),
        [("kind-terminal-changed", B, B)],
    ),
    (
        "prefix",
        _grammar('PREFIX: "BERNSTEIN:"', 'PREFIX: "BERN:"'),
        [("grammar-prefix-changed", B, B)],
    ),
    (
        "kind token",
        _grammar("KIND: /[A-Z][A-Z0-9_]*/", "KIND: /[A-Z][A-Z_]*/"),
        [("grammar-kind-changed", B, B)],
    ),
    ("separator", _grammar('SEPARATOR: " "', "SEPARATOR: /[ ]/"), [("grammar-changed", B, B)]),
    ("grammar comment only", _grammar("// Load with:", "// Load it with:"), []),
    (
        "vocabulary description",
        lambda root: _edit_json(
            root, "vocabulary.json", lambda s: s.update({"description": "other"})
        ),
        [("annotation-changed", C, C)],
    ),
    (
        "reply tightened",
        lambda root: _edit_json(
            root, "reply.schema.json", lambda s: s["properties"]["answer"].update({"maxLength": 99})
        ),
        [("constraint-tightened", C, B)],
    ),
]


@pytest.mark.parametrize(
    ("edit", "expected"), [c[1:] for c in VOCABULARY_CASES], ids=[c[0] for c in VOCABULARY_CASES]
)
def test_vocabulary_pairs(
    tmp_path: Path, edit: Callable[[Path], None], expected: list[tuple[str, str, str]]
) -> None:
    old, new = _load(_project(tmp_path, "old")), _load(_project(tmp_path, "new", edit))
    changes = compare_vocabularies(old, new)
    assert sorted((c.rule.id, c.producers.value, c.consumers.value) for c in changes) == sorted(
        expected
    )


def test_every_rule_has_a_case() -> None:
    """A rule added to the table without a before/after pair here fails."""
    covered = {case[0] for _, _, _, expected in SCHEMA_CASES for case in expected}
    covered |= {case[0] for _, _, expected in VOCABULARY_CASES for case in expected}
    # test_every_ordered_keyword and test_unordered_keywords_are_changed... cover these three.
    covered |= {"constraint-tightened", "constraint-loosened", "constraint-changed"}
    assert covered == {entry.id for entry in RULES}


def test_bumps_follow_the_categories() -> None:
    for entry in RULES:
        breaking = Category.BREAKING in (entry.producers, entry.consumers)
        expected = Bump.MAJOR if breaking else Bump.NONE if entry.wording else Bump.MINOR
        assert entry.bump is expected, entry.id
    assert rule("annotation-changed").bump is Bump.NONE


def test_rule_table_lists_every_rule_once() -> None:
    table = rule_table_markdown()
    for entry in RULES:
        assert table.count(f"| `{entry.id}` |") == 1
    assert len(table.splitlines()) == len(RULES) + 2
