"""The binding's ``validators`` module: each payload schema compiled, rendered as Python.

The schema compiler (:mod:`..schema_compiler`) decides every check; the Python
renderer (:mod:`._python_checks`) writes them; this module assembles the
module around them (imports, constants, the per-kind table, the public
functions). A schema the Python target cannot compile fails generation with
one line, so the generated verdict never silently differs from jsonschema's
Draft 2020-12 one.
"""

from __future__ import annotations

import json

from ..model import SchemaDocument, Vocabulary
from ..schema_compiler import compile_document, compile_schema
from ..schema_messages import NOT_OBJECT
from ._header import python_header
from ._python_checks import PythonChecks, PythonModule

__all__ = ["TARGET", "schema_module", "validators_module"]

TARGET = "python"
"""The column of ``keywords.KEYWORDS`` this module compiles."""


def _check_function(document: SchemaDocument, module: PythonModule, name: str) -> list[str]:
    compiled = compile_document(document.file_name, json.loads(document.schema_json), TARGET)
    body = PythonChecks(compiled, module).body()
    return [
        f"def {name}(payload: dict[Any, Any], errors: list[PayloadError], depth: int = 0) -> None:",
        f'    """Append the ways ``payload`` breaks {document.file_name}."""',
        *(f"    {line}" for line in body),
        "",
        "",
    ]


def schema_module(schema: object, file_name: str) -> str:
    """A module whose ``check(value)`` lists the ways ``value`` breaks ``schema`` (any root).

    The same compiler as the binding's; for tests against suites of arbitrary schemas.
    Raises SourceError where ``generate`` would.
    """
    module = PythonModule()
    compiled = compile_schema(file_name, schema, TARGET)
    name = PythonChecks(compiled, module).function(compiled.checks)
    lines = [
        *_prelude(module),
        "",
        *module.functions,
        "def check(value: Any) -> list[PayloadError]:",
        "    errors: list[PayloadError] = []",
        f"    {name}(value, '', errors, 0)",
        "    return errors",
    ]
    return "\n".join(lines) + "\n"


def _prelude(module: PythonModule) -> list[str]:
    """Imports and module-level constants of a compiled module."""
    constants = "\n".join(module.constants.values())
    imports = [
        *(["import json"] if "json." in constants else []),
        *(["import numbers"] if "numbers" in module.helpers else []),
        *(["import re"] if "re." in constants else []),
        "from collections.abc import Callable",
        "from typing import Any, Final",
    ]
    helpers = sorted({"ABSENT", *(module.helpers - {"numbers", "MAX_NESTING_DEPTH"})})
    limits = (
        ["from .limits import MAX_NESTING_DEPTH"] if "MAX_NESTING_DEPTH" in module.helpers else []
    )
    return [
        *imports,
        "",
        f"from ._validation import {', '.join(helpers)}",
        "from .errors import PayloadError, _shown",
        "from .kinds import SignalKind",
        *limits,
        "",
        '__all__ = ["validate_payload", "validate_reply"]',
        "",
        f"_NOT_OBJECT: Final = {NOT_OBJECT!r}",
        *(f"{name}: Final = {expression}" for name, expression in module.constants.items()),
        "",
    ]


def validators_module(vocabulary: Vocabulary) -> str:
    """The ``validators`` module of the Python binding."""
    module = PythonModule()
    checks: list[str] = []
    documents: list[tuple[SchemaDocument, str]] = [
        (kind, f"_check_{kind.snake}") for kind in vocabulary.kinds
    ]
    documents.append((vocabulary.reply, "_check_reply"))
    for document, name in documents:
        checks += _check_function(document, module, name)
    table = ", ".join(f"{kind.name!r}: _check_{kind.snake}" for kind in vocabulary.kinds)
    lines = [
        python_header(vocabulary)
        + '"""Payload validators, compiled from the schemas: no schema library at run time.',
        "",
        "Each verdict equals jsonschema's Draft 2020-12 verdict on the same schema.",
        '"""',
        "",
        *_prelude(module),
        "",
        *module.functions,
        *checks,
        "_CHECKS: Final[dict[str, Callable[[dict[Any, Any], list[PayloadError]], None]]] = {"
        + table
        + "}",
        "",
        "",
        "def validate_payload(kind: SignalKind | str, payload: object) -> list[PayloadError]:",
        '    """The ways ``payload`` breaks the schema of ``kind``; empty means valid.',
        "",
        "    Raises ValueError for an unknown kind.",
        '    """',
        "    check = _CHECKS.get(kind) if isinstance(kind, str) else None",
        "    if check is None:",
        '        raise ValueError(f"unknown signal kind {_shown(kind)}")',
        "    if not isinstance(payload, dict):",
        "        return [PayloadError('', 'type', _NOT_OBJECT, _NOT_OBJECT)]",
        "    errors: list[PayloadError] = []",
        "    check(payload, errors)",
        "    return errors",
        "",
        "",
        "def validate_reply(payload: object) -> list[PayloadError]:",
        '    """The ways ``payload`` breaks the reply schema; empty means valid."""',
        "    if not isinstance(payload, dict):",
        '        return [PayloadError("", "type", _NOT_OBJECT, _NOT_OBJECT)]',
        "    errors: list[PayloadError] = []",
        "    _check_reply(payload, errors)",
        "    return errors",
    ]
    return "\n".join(lines) + "\n"
