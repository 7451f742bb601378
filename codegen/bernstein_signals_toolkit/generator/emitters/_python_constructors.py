"""One typed constructor per kind, its parameters and docstring taken from the kind's schema."""

from __future__ import annotations

import ast
import dataclasses

from ..model import Kind, Property, Vocabulary
from ..roles import VERSION_ROLE
from ._escape import python_docstring
from ._header import python_header
from ._types import type_notation

__all__ = ["body_names", "constructors_module"]

_SCALARS = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "object": "dict[str, Any]",
    "null": "None",
}
_PROBE = "p_probe_parameter"


def _parameter(prop: Property) -> str:
    annotation = type_notation(prop.schema, _SCALARS, "Any")
    if prop.required:
        return f"{prop.name}: {annotation}"
    if not prop.nullable:
        annotation += " | None"
    default = "VOCABULARY_VERSION" if prop.role == VERSION_ROLE else "None"
    return f"{prop.name}: {annotation} = {default}"


def _docstring(kind: Kind) -> list[str]:
    lines = ['    """' + python_docstring(kind.description), ""]
    if kind.properties:
        lines.append("    Args:")
        lines += [
            f"        {prop.name}: {python_docstring(prop.description)}" for prop in kind.properties
        ]
        if kind.additional_properties:
            lines.append(
                "        extras: adapter-specific members, allowed beside the fields above."
            )
        lines.append("")
    lines += [
        f"    Returns the ``{kind.name}`` signal line (no newline); ``emit(line)`` writes it.",
        "    A field or extra left at None is omitted (format_signal writes an explicit",
        "    null). Raises SignalPayloadError when the payload breaks the schema, and",
        "    ValueError for a value JSON cannot carry on one line (as format_signal).",
    ]
    stamped = [prop.name for prop in kind.properties if prop.role == VERSION_ROLE]
    if stamped:
        lines += [
            f"    ``{stamped[0]}`` defaults to VOCABULARY_VERSION, the version this binding",
            "    was generated from; pass None to leave it out.",
        ]
    return [*lines, '    """']


def _constructor(kind: Kind) -> list[str]:
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
        body.append("    payload.update(_given(extras))")
    return [
        f"def {kind.snake}({', '.join(parameters)}) -> str:",
        *_docstring(kind),
        *body,
        f"    return format_signal(SignalKind.{kind.name}, payload or None)",
        "",
        "",
    ]


def body_names(kind: Kind) -> frozenset[str]:
    """Every name a constructor's body reads or binds besides its parameters.

    Read from a constructor generated for a probe property, so a name added
    to the body is reserved at once: no parameter can shadow it.
    """
    probes = tuple(
        Property(
            name=_PROBE + suffix,
            description="probe",
            required=required,
            types=("string",),
            schema_json='{"type": "string"}',
        )
        for suffix, required in (("_a", True), ("_b", False))
    )
    probe = dataclasses.replace(
        kind,
        name="PROBE_KIND",
        properties=probes,
        required=(probes[0].name,),
        additional_properties=True,
    )
    function = ast.parse("\n".join(_constructor(probe))).body[0]
    assert isinstance(function, ast.FunctionDef)
    found = {
        node.id
        for statement in function.body
        for node in ast.walk(statement)
        if isinstance(node, ast.Name)
    }
    found |= {arg.arg for arg in (function.args.vararg, function.args.kwarg) if arg is not None}
    return frozenset(name for name in found if not name.startswith(_PROBE))


def constructors_module(vocabulary: Vocabulary) -> str:
    functions = [line for kind in vocabulary.kinds for line in _constructor(kind)]
    names = ", ".join(repr(kind.snake) for kind in vocabulary.kinds)
    helpers = "_given, " if any(kind.additional_properties for kind in vocabulary.kinds) else ""
    lines = [
        python_header(vocabulary)
        + '"""Typed constructors, one per kind, each returning its line:'
        + ' ``emit(question("Apply?", options=["yes", "no"]))``."""',
        "",
        "from typing import Any",
        "",
        f"from .formatting import {helpers}format_signal",
        "from .kinds import VOCABULARY_VERSION, SignalKind",
        "",
        f"__all__ = [{names}]",
        "",
        "",
        *functions,
    ]
    return "\n".join(lines).rstrip("\n") + "\n"
