"""The reference page: the seed's kinds table and each kind's fields, rebuilt from the schemas."""

from __future__ import annotations

import json

from ..keywords import keyword_table
from ..model import JSONValue, Kind, Property, SchemaDocument, Vocabulary
from ..names import check_vocabulary
from ..roles import ROLES, role_field
from ._docs_fence import fence_section
from ._escape import markdown_cell, markdown_code, markdown_fence, markdown_text
from ._header import markdown_header
from ._types import type_notation

__all__ = ["emit", "type_expression"]

_SCALARS = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "object": "object",
    "null": "null",
}
_CONSTRAINTS = {
    "minLength": "at least {} character(s)",
    "maxLength": "at most {} character(s)",
    "minItems": "at least {} item(s)",
    "maxItems": "at most {} item(s)",
}


def type_expression(prop: Property) -> str:
    """The seed's notation for a field's type: ``list[str] | null``."""
    return type_notation(prop.schema, _SCALARS, "any")


def _shape(document: SchemaDocument) -> str:
    fields = [
        f'"{prop.name}"{"" if prop.required else "?"}: {type_expression(prop)}'
        for prop in document.properties
    ]
    if document.additional_properties:
        fields.append("...")
    return "{" + ", ".join(fields) + "}"


def _constraints(prop: Property) -> str:
    schema = prop.schema
    items = schema.get("items")
    notes = [text.format(schema[key]) for key, text in _CONSTRAINTS.items() if key in schema]
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        notes.append(f"matches {markdown_code(pattern)}")
    if isinstance(items, dict):
        notes += [
            f"each {text.format(items[key])}" for key, text in _CONSTRAINTS.items() if key in items
        ]
        each = items.get("pattern")
        if isinstance(each, str):
            notes.append(f"each matches {markdown_code(each)}")
    if schema.get("uniqueItems"):
        notes.append("no duplicates")
    return "; ".join(notes)


def _in_cell(markdown: str) -> str:
    """Markdown (code spans too) inside a table cell, where ``|`` still splits the row."""
    return markdown.replace("|", "\\|")


def _code_cell(text: str) -> str:
    return _in_cell(markdown_code(text))


def _fields_table(document: SchemaDocument) -> list[str]:
    if not document.properties:
        return ["No field is defined by the protocol.", ""]
    lines = [
        "| Field | Type | Required | Role | Constraints | Description |",
        "|---|---|---|---|---|---|",
    ]
    for prop in document.properties:
        role = _code_cell(prop.role) if prop.role is not None else ""
        lines.append(
            f"| {_code_cell(prop.name)} | {_code_cell(type_expression(prop))} |"
            f" {'yes' if prop.required else 'no'} | {role} | {_in_cell(_constraints(prop))} |"
            f" {markdown_cell(prop.description)} |"
        )
    extras = "allowed" if document.additional_properties else "not allowed"
    return [*lines, "", f"Other fields: {extras}.", ""]


def _canonical(payload: JSONValue) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _kind_section(vocabulary: Vocabulary, kind: Kind) -> list[str]:
    examples = [
        f"{vocabulary.grammar.prefix}{kind.name}" + (f" {_canonical(ex)}" if ex else "")
        for ex in kind.examples
    ]
    return [
        f"## {kind.name}",
        "",
        f"Terminal: {'yes' if kind.terminal else 'no'}."
        f" Schema: {markdown_code(kind.file_name)} ({markdown_code(kind.schema_id)}).",
        "",
        markdown_text(kind.description),
        "",
        *_fields_table(kind),
        "Examples:",
        "",
        *markdown_fence(examples),
        "",
    ]


def _roles_section(vocabulary: Vocabulary) -> list[str]:
    """The role table with this vocabulary's field for each role: what a rename keeps working."""
    lines = [
        "## Field roles",
        "",
        "The hand-written runtime reads these fields by role (`x-bernstein-role`), through"
        " generated constants (`bernstein_signals.fields`, the shell library's variables)."
        " A role-bearing field may be renamed; `generate` refuses a vocabulary that drops a"
        " required one.",
        "",
        "| Role | Kind | Field | Constant | Required | Needed by |",
        "|---|---|---|---|---|---|",
    ]
    for role in ROLES:
        field = role_field(vocabulary, role.document, role.name)
        lines.append(
            f"| {_code_cell(role.name)} | {_code_cell(role.document)} |"
            f" {_code_cell(field) if field is not None else '(none)'} |"
            f" {_code_cell(role.constant)} | {'yes' if role.required else 'no'} |"
            f" {markdown_cell(role.feature)} |"
        )
    return [*lines, ""]


def emit(vocabulary: Vocabulary) -> dict[str, str]:
    check_vocabulary(vocabulary)
    prefix = vocabulary.grammar.prefix
    reply = vocabulary.reply
    lines = [
        markdown_header(vocabulary).rstrip("\n"),
        "",
        f"# Stream-signal vocabulary {vocabulary.version}",
        "",
        markdown_text(vocabulary.description),
        "",
        f"Every signal is one line: {markdown_code(prefix + '<KIND>[ <json-object>]')}."
        f" The grammar is {markdown_code(vocabulary.grammar.file_name)};"
        " the payload of each kind is checked by its schema.",
        "",
        "## Kinds",
        "",
        'In the payload shapes, `"key"?` marks an optional field and `...` means that'
        " adapter-specific extras are allowed.",
        "",
        "| Kind | Terminal? | Payload shape |",
        "|---|---|---|",
        *(
            f"| `{kind.name}` | {'yes' if kind.terminal else 'no'} | {_code_cell(_shape(kind))} |"
            for kind in vocabulary.kinds
        ),
        "",
        "Conformance checks expect at least one terminal signal ("
        + " or ".join(kind.name for kind in vocabulary.terminal_kinds)
        + ") per adapter run; a run without one gets a MissingTerminalSignal warning.",
        "",
    ]
    for kind in vocabulary.kinds:
        lines += _kind_section(vocabulary, kind)
    lines += [
        "## Question reply",
        "",
        f"Schema: {markdown_code(reply.file_name)} ({markdown_code(reply.schema_id)})."
        f" Shape: {markdown_code(_shape(reply))}.",
        "",
        markdown_text(reply.description),
        "",
        *_fields_table(reply),
        "Examples:",
        "",
        *markdown_fence([_canonical(example) for example in reply.examples]),
        "",
        *_roles_section(vocabulary),
        *fence_section(),
        *keyword_table(),
    ]
    return {"docs/vocabulary.md": "\n".join(lines) + "\n"}
