"""The one table of JSON Schema 2020-12 keywords and what each target does with them.

Every emitter reads this table: a keyword a target compiles is enforced,
an annotation is accepted and ignored alike everywhere, and anything else
(refused here, or missing from the table) stops ``generate`` with a
one-line error, so no binding can silently drop a rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import Final

from bernstein_signals_toolkit.generator import json_pointer

from .load import DRAFT_2020_12
from .subschemas import ONE_SCHEMA, SCHEMA_LISTS, SCHEMA_MAPS

__all__ = [
    "EXTENSION_PREFIX",
    "KEYWORDS",
    "MESSAGE_KEYWORD",
    "REFUSAL_REASONS",
    "TARGETS",
    "Support",
    "keyword_table",
    "refusals",
    "support",
]


class Support(Enum):
    """What a target does with a keyword."""

    COMPILED = "compiled"
    ANNOTATION = "annotation"
    REFUSED = "refused"


TARGETS: Final = ("python", "shell", "typescript")
"""The targets that compile schemas, in the table's column order."""

EXTENSION_PREFIX: Final = "x-"
"""Keywords starting with this are extensions: annotations for every target."""

MESSAGE_KEYWORD: Final = "x-bernstein-message"
"""A plain message for the subschema's rules: a string, or an object keyword -> string."""

_C, _A, _R = Support.COMPILED, Support.ANNOTATION, Support.REFUSED

KEYWORDS: Final[dict[str, tuple[Support, Support, Support]]] = {
    # keyword: (python, shell, typescript)
    # core
    "$schema": (_A, _A, _A),
    "$id": (_A, _A, _A),
    "$comment": (_A, _A, _A),
    "$defs": (_C, _R, _C),
    "$ref": (_C, _R, _C),
    "$anchor": (_R, _R, _R),
    "$dynamicRef": (_R, _R, _R),
    "$dynamicAnchor": (_R, _R, _R),
    "$vocabulary": (_R, _R, _R),
    # meta-data
    "title": (_A, _A, _A),
    "description": (_A, _A, _A),
    "default": (_A, _A, _A),
    "examples": (_A, _A, _A),
    "deprecated": (_A, _A, _A),
    "readOnly": (_A, _A, _A),
    "writeOnly": (_A, _A, _A),
    "format": (_A, _A, _A),
    "contentEncoding": (_A, _A, _A),
    "contentMediaType": (_A, _A, _A),
    "contentSchema": (_A, _A, _A),
    # any instance
    "type": (_C, _C, _C),
    "enum": (_C, _C, _C),
    "const": (_C, _C, _C),
    # numbers
    "minimum": (_C, _C, _C),
    "maximum": (_C, _C, _C),
    "exclusiveMinimum": (_C, _C, _C),
    "exclusiveMaximum": (_C, _C, _C),
    "multipleOf": (_C, _C, _C),
    # strings
    "minLength": (_C, _C, _C),
    "maxLength": (_C, _C, _C),
    "pattern": (_C, _C, _C),
    # arrays
    "items": (_C, _C, _C),
    "prefixItems": (_C, _R, _C),
    "minItems": (_C, _C, _C),
    "maxItems": (_C, _C, _C),
    "uniqueItems": (_C, _C, _C),
    "contains": (_C, _R, _C),
    "minContains": (_C, _R, _C),
    "maxContains": (_C, _R, _C),
    "unevaluatedItems": (_R, _R, _R),
    # objects
    "properties": (_C, _C, _C),
    "required": (_C, _C, _C),
    "additionalProperties": (_C, _C, _C),
    "patternProperties": (_C, _R, _C),
    "propertyNames": (_C, _R, _C),
    "minProperties": (_C, _R, _C),
    "maxProperties": (_C, _R, _C),
    "dependentRequired": (_C, _R, _C),
    "dependentSchemas": (_C, _R, _C),
    "unevaluatedProperties": (_R, _R, _R),
    # applicators
    "allOf": (_C, _R, _C),
    "anyOf": (_C, _R, _C),
    "oneOf": (_C, _R, _C),
    "not": (_C, _R, _C),
    "if": (_C, _R, _C),
    "then": (_C, _R, _C),
    "else": (_C, _R, _C),
}
"""keyword -> (python, shell, typescript). Python and TypeScript render every check of
:mod:`.schema_checks`, so their columns are what :mod:`.schema_compiler` compiles.
The shell column is what shell arguments can carry: a field whose schema uses a
keyword the shell refuses is left out of its kind's shell helper (``bernstein_emit``
still reaches it), and so is a field whose value the shell cannot check faithfully
(a number type, a pattern other than the ``.sdd/`` path rule or one ASCII class over
the whole value, a multipleOf that is not a whole number up to 10^9)."""

REFUSAL_REASONS: Final[dict[str, str]] = {
    "$anchor": "only local '#/$defs/...' references are compiled",
    "$dynamicRef": "dynamic scopes are not compiled",
    "$dynamicAnchor": "dynamic scopes are not compiled",
    "$vocabulary": "only the standard 2020-12 vocabularies are compiled",
    "unevaluatedItems": "it needs annotation tracking across applicators; use items",
    "unevaluatedProperties": (
        "it needs annotation tracking across applicators; use additionalProperties"
    ),
}
"""Why a keyword is refused everywhere, for the error and the reference page."""


def support(keyword: str, target: str) -> Support:
    """What ``target`` does with ``keyword``; extensions are annotations, unknown words refused."""
    if keyword.startswith(EXTENSION_PREFIX):
        return Support.ANNOTATION
    row = KEYWORDS.get(keyword)
    if row is None:
        return Support.REFUSED
    return row[TARGETS.index(target)]


def refusals(schema: object, target: str, pointer: str = "") -> Iterator[tuple[str, str, str]]:
    """(JSON pointer, keyword, why) for each keyword ``target`` refuses, at any depth.

    A nested ``$id`` is refused too: it would change what ``$ref`` resolves against.
    """
    if not isinstance(schema, dict):
        return
    for keyword, value in schema.items():
        where = json_pointer.child(pointer, keyword)
        if support(keyword, target) is Support.REFUSED:
            reason = REFUSAL_REASONS.get(keyword, "not supported by this target")
            if keyword not in KEYWORDS and not keyword.startswith(EXTENSION_PREFIX):
                reason = "not a JSON Schema 2020-12 keyword (extensions start with x-)"
            yield pointer or "/", keyword, reason
        elif keyword == "$id" and pointer:
            yield pointer, keyword, "a nested $id changes the base of $ref"
        elif keyword == "$schema" and value != DRAFT_2020_12:
            yield pointer or "/", keyword, f"only {DRAFT_2020_12} is compiled"
        elif keyword in ONE_SCHEMA:
            yield from refusals(value, target, where)
        elif keyword in SCHEMA_LISTS and isinstance(value, list):
            for index, item in enumerate(value):
                yield from refusals(item, target, f"{where}/{index}")
        elif keyword in SCHEMA_MAPS and isinstance(value, dict):
            for name, item in value.items():
                yield from refusals(item, target, json_pointer.child(where, name))


def keyword_table() -> list[str]:
    """The table as Markdown lines, for the reference page and the README."""
    lines = [
        "## Schema keywords",
        "",
        "What each target does with each JSON Schema 2020-12 keyword, at any depth of a kind"
        " schema or the reply schema: *compiled* is enforced, *annotation* is accepted and"
        " ignored, *refused* stops `generate` with a one-line error naming the file, the JSON"
        " pointer, the keyword and the target (exit status 2); in the shell column, refused"
        " means the field is left out of its kind's shell helper instead (bernstein_emit still"
        " reaches it). A keyword not listed is refused;"
        f" keywords starting with `{EXTENSION_PREFIX}` are annotations. `{MESSAGE_KEYWORD}`"
        " gives a plain message for the rules of its subschema: a string for all of them, or"
        " an object from keyword (or `required`, for the member's absence) to message. The"
        " validator keeps the raw rule beside it.",
        "",
        "| Keyword | " + " | ".join(TARGETS) + " | Note |",
        "|---|" + "---|" * len(TARGETS) + "---|",
    ]
    for keyword, row in KEYWORDS.items():
        cells = " | ".join(support.value for support in row)
        lines.append(f"| `{keyword}` | {cells} | {REFUSAL_REASONS.get(keyword, '')} |")
    return [*lines, ""]
