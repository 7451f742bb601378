"""The TypeScript binding's typed parts: payload interfaces and per-kind constructors.

Every source string lands in a double-quoted string (:func:`._escape.js_string`)
or a comment (:func:`._escape.js_comment_text`); property names are always
quoted, so no schema name is ever an identifier. Constructor names are.
"""

from __future__ import annotations

from ..model import JSONValue, Kind, Property, SchemaDocument, Vocabulary
from ..roles import VERSION_ROLE
from ._escape import js_comment_text, js_string
from ._types import declared_types

__all__ = ["constructor_name", "constructors_declarations", "constructors_module", "payloads"]

_SCALARS = {
    "string": "string",
    "integer": "number | bigint",
    "number": "number | bigint",
    "boolean": "boolean",
    "object": "JsonObject",
    "null": "null",
}
"""A JSON integer past Number.MAX_SAFE_INTEGER is read as a bigint, so both number types may."""


def _ts_type(schema: dict[str, JSONValue]) -> str:
    parts: list[str] = []
    for name in declared_types(schema):
        if name == "array":
            items = schema.get("items")
            inner = _ts_type(items) if isinstance(items, dict) else "JsonValue"
            parts.append(f"({inner})[]" if " " in inner else f"{inner}[]")
        elif isinstance(name, str) and name in _SCALARS:
            parts.append(_SCALARS[name])
    return " | ".join(dict.fromkeys(parts)) or "JsonValue"


def _doc(lines: list[str], indent: str = "") -> list[str]:
    return [
        f"{indent}/**",
        *(f"{indent} * {js_comment_text(line)}" for line in lines),
        f"{indent} */",
    ]


def _member(prop: Property) -> list[str]:
    optional = "" if prop.required else "?"
    return [
        *_doc([prop.description], "  "),
        f"  {js_string(prop.name)}{optional}: {_ts_type(prop.schema)};",
    ]


def _interface(document: SchemaDocument) -> list[str]:
    lines = [*_doc([document.description]), f"export interface {document.type_name} {{"]
    for prop in document.properties:
        lines += _member(prop)
    if document.additional_properties:
        lines += [
            "  /** Adapter-specific members, allowed beside the fields above. */",
            "  [member: string]: JsonValue | undefined;",
        ]
    return [*lines, "}", ""]


def payloads(vocabulary: Vocabulary, header: str) -> str:
    """payloads.d.ts: one interface per kind and the reply, and the kind -> payload map."""
    lines = [header, 'import type { JsonObject, JsonValue } from "./signals.js";', ""]
    for document in (*vocabulary.kinds, vocabulary.reply):
        lines += _interface(document)
    lines += ["/** Each kind's payload type. */", "export interface SignalPayloadMap {"]
    lines += [f"  {js_string(kind.name)}: {kind.type_name};" for kind in vocabulary.kinds]
    lines += ["}", "", "/** The payload of any signal kind. */"]
    union = " | ".join(kind.type_name for kind in vocabulary.kinds) or "never"
    return "\n".join([*lines, f"export type SignalPayload = {union};", ""])


def constructor_name(kind: Kind) -> str:
    """``plan_draft`` -> ``planDraft``: the kind's snake name in lower camel case."""
    head, *rest = kind.snake.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def _stamped(kind: Kind) -> Property | None:
    return next((prop for prop in kind.properties if prop.role == VERSION_ROLE), None)


def _constructor_doc(kind: Kind) -> list[str]:
    lines = [kind.description, ""]
    lines += [f"@param fields.{prop.name} {prop.description}" for prop in kind.properties]
    lines.append(
        f"@returns the {kind.name} signal line (no newline); an undefined field is omitted."
        " Throws SignalFormatError for a value JSON cannot carry (as formatSignal)."
    )
    stamped = _stamped(kind)
    if stamped is not None:
        lines.append(
            f"{stamped.name} defaults to VOCABULARY_VERSION; pass it as undefined to leave it out."
        )
    return lines


def constructors_module(vocabulary: Vocabulary, header: str) -> str:
    lines = [
        header,
        'import { build } from "./_constructing.js";',
        'import { VOCABULARY_VERSION } from "./kinds.js";',
        "",
    ]
    for kind in vocabulary.kinds:
        stamped = _stamped(kind)
        defaults = (
            "null" if stamped is None else f"{{ {js_string(stamped.name)}: VOCABULARY_VERSION }}"
        )
        lines += [
            *_doc(_constructor_doc(kind)),
            f"export function {constructor_name(kind)}(fields) {{",
            f"  return build({js_string(kind.name)}, fields, {defaults});",
            "}",
            "",
        ]
    return "\n".join(lines)


def constructors_declarations(vocabulary: Vocabulary, header: str) -> str:
    types = ", ".join(kind.type_name for kind in vocabulary.kinds)
    lines = [header, f'import type {{ {types} }} from "./payloads.js";' if types else "", ""]
    for kind in vocabulary.kinds:
        optional = "" if kind.required else "?"
        lines += [
            *_doc(_constructor_doc(kind)),
            f"export declare function {constructor_name(kind)}"
            f"(fields{optional}: {kind.type_name}): string;",
            "",
        ]
    if not vocabulary.kinds:
        lines.append("export {};")
    return "\n".join(lines)
