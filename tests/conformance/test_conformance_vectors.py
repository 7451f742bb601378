"""The kit's vectors: their format, their coverage of schemas and corpora, their currency."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals import VOCABULARY_VERSION
from bernstein_signals_toolkit.generator.emitters._conformance_categories import (
    FORMAT_ERRORS,
    KIT_FORMAT,
    LINE_REASONS,
    VECTOR_TYPES,
)
from bernstein_signals_toolkit.generator.emitters._conformance_schema_vectors import (
    _MODELLED as MODELLED,
)
from bernstein_signals_toolkit.generator.emitters._conformance_schema_vectors import schema_vectors
from bernstein_signals_toolkit.generator.load import load_vocabulary
from conformance.conformance_support import KIT_VECTORS, ROOT, kit_vectors
from ecma_jsonschema import validator

KIT = ROOT / "generated" / "conformance"
VOCABULARY = load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")
FILES = sorted(path for folder in KIT_VECTORS for path in folder.glob("*.json"))
SCHEMA_VECTORS = [v for v in kit_vectors() if v["id"].startswith("schema/")]

_SPEC = importlib.util.spec_from_file_location(
    "_from_corpus", ROOT / "conformance" / "from_corpus.py"
)
assert _SPEC is not None
assert _SPEC.loader is not None
FROM_CORPUS = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(FROM_CORPUS)


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_vector_files_follow_the_kit_schema_and_carry_the_version(path: Path) -> None:
    document = _json(path)
    errors = list(validator(_json(KIT / "vector.schema.json")).iter_errors(document))
    assert not errors, errors[0].message
    assert document["format"] == KIT_FORMAT
    assert document["vocabulary"] == {"name": VOCABULARY.name, "version": VOCABULARY_VERSION}


def test_categories_file_is_the_table() -> None:
    categories = _json(KIT / "categories.json")
    assert categories["vector_types"] == dict(VECTOR_TYPES)
    assert categories["line_reasons"] == dict(LINE_REASONS)
    assert categories["format_errors"] == dict(FORMAT_ERRORS)
    answer = _json(KIT / "answer.schema.json")
    assert answer["properties"]["error"]["enum"] == list(FORMAT_ERRORS)


def test_every_category_is_exercised() -> None:
    vectors = kit_vectors()
    assert {v["expected"]["reason"] for v in vectors if v["type"] == "line"} == set(LINE_REASONS)
    errors = {
        v["expected"].get("error") for v in vectors if v["type"] in ("format", "format-reply")
    }
    assert errors - {None} == set(FORMAT_ERRORS)


def test_corpus_vectors_are_current() -> None:
    """Edit a corpus without `python conformance/from_corpus.py` and this fails."""
    for name, text in FROM_CORPUS.build().items():
        assert (ROOT / "conformance" / "vectors" / name).read_text(encoding="utf-8") == text, name


def test_every_corpus_case_is_a_vector() -> None:
    ids = {vector["id"] for vector in kit_vectors()}
    for path in (ROOT / "tests" / "corpus" / "lines").glob("*.line"):
        assert {f"corpus/{path.stem}/strict", f"corpus/{path.stem}/lenient"} <= ids
    for path in (ROOT / "tests" / "corpus" / "logs").glob("*.log"):
        assert f"corpus-logs/{path.stem}" in ids
    suite = ROOT / "tests" / "data" / "JSONTestSuite" / "test_parsing"
    left_out = {p.name for p in suite.iterdir() if f"json-test-suite/{p.name}/value" not in ids}
    assert left_out == {
        "y_array_with_1_and_newline.json",
        "y_number_double_close_to_zero.json",
        "y_object_with_newlines.json",
        "y_structure_trailing_newline.json",
    }  # a raw LF: a signal is one line


def test_every_required_field_and_constraint_has_a_vector() -> None:
    ids = {vector["id"] for vector in SCHEMA_VECTORS}
    rules = {
        (vector["kind"], error["pointer"].split("/")[1], error["rule"])
        for vector in SCHEMA_VECTORS
        if vector["type"] == "payload"
        for error in vector["expected"]["errors"]
    }
    for kind in VOCABULARY.kinds:
        assert any(i.startswith(f"schema/{kind.name}/example") for i in ids), kind.name
        for name in kind.required:
            assert (kind.name, name, "required") in rules
        for prop in kind.properties:
            schema = prop.schema
            items = schema.get("items")
            keywords = {*_keywords(schema), *_keywords(items if isinstance(items, dict) else {})}
            keywords -= {"items"}
            # A keyword the emitter does not model gets no boundary vectors: extend
            # emitters/_conformance_schema_vectors.py before a schema uses it.
            assert keywords <= MODELLED, (kind.name, prop.name, keywords - MODELLED)
            for rule in keywords:
                assert (kind.name, prop.name, rule) in rules, (kind.name, prop.name, rule)


def _keywords(schema: dict[str, Any]) -> set[str]:
    return {key for key in schema if not key.startswith(("description", "title", "x-bernstein-"))}


@pytest.mark.parametrize(
    "vector",
    [v for v in SCHEMA_VECTORS if v["type"] == "payload"],
    ids=lambda vector: vector["id"],
)
def test_schema_vectors_agree_with_jsonschema(vector: dict[str, Any]) -> None:
    """The emitter's worked-out errors against an independent validator's verdict and rules."""
    schema = VOCABULARY.kind(vector["kind"]).schema
    payload = json.loads(vector["payload"])
    found = sorted(
        ("/" + "/".join(str(step) for step in error.absolute_path), error.validator)
        for error in validator(schema).iter_errors(payload)
    )
    expected = sorted((e["pointer"], e["rule"]) for e in vector["expected"]["errors"])
    # jsonschema reports a missing required field at its object; the kit names the field.
    found = [
        (f"/{payload_key}", rule) if rule == "required" else (pointer, rule)
        for (pointer, rule), payload_key in zip(
            found, _missing(schema, payload, found), strict=True
        )
    ]
    assert sorted((p if p != "/" else "", r) for p, r in found) == expected


def _missing(schema: dict[str, Any], payload: Any, found: list[tuple[str, str]]) -> list[str]:
    missing = iter(name for name in schema.get("required", []) if name not in payload)
    return [next(missing) if rule == "required" else "" for _, rule in found]


def test_a_huge_bound_gets_no_vector(tmp_path: Path) -> None:
    """A schema's bound is source text: 10^9 must not make a 10^9-character vector."""
    shutil.copytree(ROOT / "schema", tmp_path / "schema")
    path = tmp_path / "schema" / "question.schema.json"
    schema = _json(path)
    huge = {"description": "Huge.", "minLength": 10**9, "maxLength": 10**9}
    schema["properties"]["note"] = {"type": "string", **huge}
    schema["properties"]["tags"] = {
        "type": "array",
        "description": "Huge.",
        "minItems": 10**9,
        "maxItems": 10**9,
    }
    path.write_text(json.dumps(schema), encoding="utf-8")
    vocabulary = load_vocabulary(tmp_path / "schema", ROOT / "grammar" / "signal.lark")
    vectors = schema_vectors(vocabulary)
    ids = {vector["id"] for vector in vectors}
    assert "schema/QUESTION/note: type null" in ids
    assert not any(
        i.startswith(("schema/QUESTION/note: m", "schema/QUESTION/tags: m")) for i in ids
    )
    assert max(len(json.dumps(vector)) for vector in vectors) < 10_000
