"""The conformance kit's generated half: ``conformance/`` in the output folder.

It holds what follows from the sources and the kit's one table of categories
(:mod:`._conformance_categories`): the categories as JSON, the JSON Schemas of
a vector file and of an answer, the vectors derived from the schemas, and a
README for implementers. The hand-written vectors live in the project's
top-level ``conformance/`` folder; the ``conformance`` command runs both.
"""

from __future__ import annotations

import json
from typing import Any

from ..model import Vocabulary
from ._conformance_categories import FORMAT_ERRORS, KIT_FORMAT, LINE_REASONS, VECTOR_TYPES
from ._conformance_schema_vectors import schema_vectors
from ._header import header_lines, markdown_header

__all__ = ["emit"]

_FOLDER = "conformance"
_JSON_TEXT = {"type": ["string", "null"], "description": "JSON text (integers exact), or null"}


def _document(vocabulary: Vocabulary, body: dict[str, Any]) -> str:
    header = {"//": " ".join(header_lines(vocabulary))}
    return json.dumps({**header, **body}, ensure_ascii=True, indent=1) + "\n"


def _vector_schema() -> dict[str, Any]:
    vector = {
        "type": "object",
        "required": ["id", "type", "expected"],
        "properties": {
            "id": {"type": "string", "minLength": 1},
            "type": {"enum": list(VECTOR_TYPES)},
            "note": {"type": "string"},
            "line": {"type": "string"},
            "line_base64": {"type": "string", "contentEncoding": "base64"},
            "lenient": {"type": "boolean"},
            "kind": {"type": "string"},
            "payload": _JSON_TEXT,
            "answer": {},
            "in_reply_to": {},
            "stream_base64": {"type": "string", "contentEncoding": "base64"},
            "expected": {
                "type": "object",
                "properties": {
                    "reason": {"enum": list(LINE_REASONS)},
                    "error": {"enum": list(FORMAT_ERRORS)},
                    "kind": {"type": ["string", "null"]},
                    "payload": _JSON_TEXT,
                    "reply": _JSON_TEXT,
                    "line": {"type": "string"},
                    "errors": {"$ref": "#/$defs/errors"},
                    "kinds": {"type": "array", "items": {"type": "string"}},
                    "terminal": {"type": "boolean"},
                    "diagnostics": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "the validator's codes for a stream, for stream checkers",
                    },
                },
            },
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A conformance vector file",
        "type": "object",
        "required": ["format", "vocabulary", "vectors"],
        "properties": {
            "format": {"const": KIT_FORMAT},
            "vocabulary": {
                "type": "object",
                "required": ["name", "version"],
                "properties": {"name": {"type": "string"}, "version": {"type": "string"}},
            },
            "vectors": {"type": "array", "items": vector},
        },
        "$defs": {"errors": _ERRORS},
    }


_ERRORS = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["pointer", "rule"],
        "properties": {"pointer": {"type": "string"}, "rule": {"type": "string"}},
    },
}


def _answer_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A harness's answer to one vector (one line of JSON)",
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string", "description": "the vector's id, echoed"},
            "kind": {"type": ["string", "null"]},
            "payload": _JSON_TEXT,
            "reply": _JSON_TEXT,
            "line": {"type": "string"},
            "error": {"enum": list(FORMAT_ERRORS)},
            "errors": _ERRORS,
            "kinds": {"type": "array", "items": {"type": "string"}},
            "terminal": {"type": "boolean"},
            "unsupported": {
                "type": "string",
                "description": "why this implementation cannot take the vector (counted apart)",
            },
        },
    }


def _table(title: str, rows: dict[str, str] | Any) -> list[str]:
    return [f"| {title} | meaning |", "|---|---|", *(f"| `{k}` | {v} |" for k, v in rows.items())]


def _readme(vocabulary: Vocabulary, count: int) -> str:
    lines = [
        markdown_header(vocabulary).rstrip("\n"),
        "",
        f"# Conformance vectors: {vocabulary.name} {vocabulary.version}",
        "",
        f"`vectors/schema.json` holds {count} vectors derived from the schemas; the"
        " project's `conformance/vectors/` holds the hand-written ones (the line corpus,"
        " JSONTestSuite inside payloads, the canonical form, replies, streams). Both follow"
        f" `vector.schema.json` (format `{KIT_FORMAT}`); a harness answers each vector with"
        " one line that follows `answer.schema.json`. The harness contract is in the"
        ' project README, section "Conformance kit". Payloads travel as JSON text, so'
        " integers beyond 2^53 keep every digit: read them with a reader that keeps"
        " integers exact (the canonical form's rule 6).",
        "",
        "## The harness contract",
        "",
        "The implementation under test is a command, started once, that reads one vector"
        " per line of JSON on stdin and writes one answer per line of JSON on stdout, in"
        " order, flushing after each. A vector is sent without its `expected` and `note`;"
        " the answer echoes its `id`, and a vector the implementation cannot take is"
        ' answered `{"id": ..., "unsupported": "why"}`. `bernstein-signals conformance'
        " --vectors DIR... -- CMD ARG...` runs the vectors through it and exits 0 only when"
        " every one passes (or fails as `--known-failures FILE` lists it).",
        "",
        "## Vector types",
        "",
        *_table("type", VECTOR_TYPES),
        "",
        "## Line reasons (in `expected.reason` of line vectors)",
        "",
        *_table("reason", LINE_REASONS),
        "",
        "## Format errors (in `error` of format and format-reply answers)",
        "",
        *_table("error", FORMAT_ERRORS),
        "",
    ]
    return "\n".join(lines)


def emit(vocabulary: Vocabulary) -> dict[str, str]:
    vectors = schema_vectors(vocabulary)
    identity = {"name": vocabulary.name, "version": vocabulary.version}
    categories = {
        "format": KIT_FORMAT,
        "vector_types": dict(VECTOR_TYPES),
        "line_reasons": dict(LINE_REASONS),
        "format_errors": dict(FORMAT_ERRORS),
    }
    return {
        f"{_FOLDER}/README.md": _readme(vocabulary, len(vectors)),
        f"{_FOLDER}/categories.json": _document(vocabulary, categories),
        f"{_FOLDER}/vector.schema.json": _document(vocabulary, _vector_schema()),
        f"{_FOLDER}/answer.schema.json": _document(vocabulary, _answer_schema()),
        f"{_FOLDER}/vectors/schema.json": _document(
            vocabulary, {"format": KIT_FORMAT, "vocabulary": identity, "vectors": vectors}
        ),
    }
