"""One typed constructor per kind, its parameters and docstring taken from the kind's schema."""

from __future__ import annotations

from ..errors import ToolkitError
from ..model import Kind, Property, Vocabulary
from ._header import python_header
from ._types import type_notation

__all__ = ["constructors_module", "docstring_text"]

_SCALARS = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "object": "dict[str, Any]",
    "null": "None",
}
_LOCALS = frozenset({"payload", "extras"})


def _parameter(prop: Property) -> str:
    annotation = type_notation(prop.schema, _SCALARS, "Any")
    if prop.required:
        return f"{prop.name}: {annotation}"
    if not prop.nullable:
        annotation += " | None"
    return f"{prop.name}: {annotation} = None"


def docstring_text(text: str) -> str:
    """``text`` escaped to sit inside a triple-quoted docstring."""
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def _docstring(kind: Kind) -> list[str]:
    lines = ['    """' + docstring_text(kind.description), ""]
    if kind.properties:
        lines.append("    Args:")
        lines += [
            f"        {prop.name}: {docstring_text(prop.description)}" for prop in kind.properties
        ]
        if kind.additional_properties:
            lines.append(
                "        extras: adapter-specific members, allowed beside the fields above."
            )
        lines.append("")
    lines += [
        f"    Returns the ``{kind.name}`` signal line (no newline). A field left at None is",
        "    omitted. Raises SignalPayloadError when the payload breaks the schema, and",
        "    ValueError for a value JSON cannot carry on one line (as format_signal).",
        '    """',
    ]
    return lines


def _constructor(kind: Kind) -> list[str]:
    clashes = sorted(_LOCALS & {prop.name for prop in kind.properties})
    if clashes:
        raise ToolkitError(f"{kind.file_name}: property name(s) {clashes} clash with the binding")
    required = [_parameter(prop) for prop in kind.properties if prop.required]
    optional = [_parameter(prop) for prop in kind.properties if not prop.required]
    parameters = [*required, *(["*", *optional] if optional else [])]
    if kind.additional_properties:
        parameters.append("**extras: Any")
    filled = ", ".join(f"{prop.name!r}: {prop.name}" for prop in kind.properties if prop.required)
    body = [f"    payload: dict[str, Any] = {{{filled}}}"]
    for prop in kind.properties:
        if not prop.required:
            body += [
                f"    if {prop.name} is not None:",
                f"        payload[{prop.name!r}] = {prop.name}",
            ]
    if kind.additional_properties:
        body.append("    payload.update(extras)")
    return [
        f"def {kind.snake}({', '.join(parameters)}) -> str:",
        *_docstring(kind),
        *body,
        f"    return format_signal(SignalKind.{kind.name}, payload or None)",
        "",
        "",
    ]


def constructors_module(vocabulary: Vocabulary) -> str:
    functions = [line for kind in vocabulary.kinds for line in _constructor(kind)]
    names = ", ".join(repr(kind.snake) for kind in vocabulary.kinds)
    lines = [
        python_header(vocabulary)
        + '"""Typed constructors, one per kind: ``question("Apply?", options=["yes", "no"])``."""',
        "",
        "from typing import Any",
        "",
        "from .formatting import format_signal",
        "from .kinds import SignalKind",
        "",
        f"__all__ = [{names}]",
        "",
        "",
        *functions,
    ]
    return "\n".join(lines).rstrip("\n") + "\n"
