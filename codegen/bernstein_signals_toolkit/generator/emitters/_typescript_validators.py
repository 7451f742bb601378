"""The TypeScript binding's ``validators`` module: each payload schema compiled by the
schema compiler (:mod:`..schema_compiler`, target ``typescript``) and rendered as
JavaScript by :mod:`._typescript_checks`, with the same pointers, rules and messages
as the Python binding's ``validators``."""

from __future__ import annotations

import json

from ..model import SchemaDocument, Vocabulary
from ..schema_compiler import compile_document, compile_schema
from ..schema_messages import NOT_OBJECT
from ._escape import js_string
from ._typescript_checks import JsChecks, JsModule

__all__ = [
    "TARGET",
    "schema_module",
    "validators_declarations",
    "validators_module",
]

TARGET = "typescript"
"""The column of ``keywords.KEYWORDS`` this module compiles."""


def _check_function(document: SchemaDocument, module: JsModule, name: str) -> list[str]:
    compiled = compile_document(document.file_name, json.loads(document.schema_json), TARGET)
    body = JsChecks(compiled, module).body()
    return [
        f"/** Append the ways the payload breaks {js_string(document.file_name)[1:-1]}. */",
        f"function {name}(payload, errors, depth = 0) {{",
        *(f"  {line}" for line in body),
        "}",
        "",
    ]


def _imports(binding: str) -> list[str]:
    """The validators' imports, from the binding folder ``binding`` (a URL or ``.``)."""
    return [
        f'import {{ shown }} from "{binding}/_shown.js";',
        "import {",
        "  ABSENT, allUnique, isInteger, isNumber, isPlainObject, jsonKey, memberPointer,",
        "  multipleOf, passes, size,",
        f'}} from "{binding}/_validation.js";',
        f'import {{ PayloadError, SignalFormatError }} from "{binding}/errors.js";',
        f'import {{ MAX_NESTING_DEPTH }} from "{binding}/limits.js";',
    ]


def schema_module(schema: object, file_name: str, binding: str) -> str:
    """An ES module whose ``check(value)`` lists the ways ``value`` breaks ``schema`` (any
    root), importing the runtime from ``binding`` (a file URL of a generated package).

    The same compiler and renderer as the binding's; for tests against suites of
    arbitrary schemas. Raises SourceError where ``generate`` would.
    """
    module = JsModule()
    compiled = compile_schema(file_name, schema, TARGET)
    name = JsChecks(compiled, module).function(compiled.checks)
    return "\n".join(
        [
            *_imports(js_string(binding)[1:-1]),
            *(f"const {key} = {expression};" for key, expression in module.constants.items()),
            *module.functions,
            "export function check(value) {",
            "  const errors = [];",
            f'  {name}(value, "", errors, 0);',
            "  return errors;",
            "}",
            "",
        ]
    )


def validators_module(vocabulary: Vocabulary, header: str) -> str:
    module = JsModule()
    checks: list[str] = []
    documents: list[tuple[SchemaDocument, str]] = [
        (kind, f"_check_{kind.snake}") for kind in vocabulary.kinds
    ]
    documents.append((vocabulary.reply, "_check_reply"))
    for document, name in documents:
        checks += _check_function(document, module, name)
    table = ", ".join(f"[{js_string(kind.name)}, _check_{kind.snake}]" for kind in vocabulary.kinds)
    not_object = js_string(NOT_OBJECT)
    not_object_error = f'new PayloadError("", "type", {not_object}, {not_object})'
    return "\n".join(
        [
            header,
            "/** Payload validators, compiled from the schemas: no schema library at run time. */",
            *_imports("."),
            "",
            *(f"const {name} = {expression};" for name, expression in module.constants.items()),
            "",
            *module.functions,
            "",
            *checks,
            f"const CHECKS = new Map([{table}]);",
            "",
            "/** The ways `payload` breaks the schema of `kind`; empty means valid. */",
            "export function validatePayload(kind, payload) {",
            "  const check = typeof kind === 'string' ? CHECKS.get(kind) : undefined;",
            "  if (check === undefined) {",
            "    const message = `unknown signal kind ${shown(kind)}`;",
            '    throw new SignalFormatError(message, "unknown-kind");',
            "  }",
            f"  if (!isPlainObject(payload)) return [{not_object_error}];",
            "  const errors = [];",
            "  check(payload, errors);",
            "  return errors;",
            "}",
            "",
            "/** The ways `payload` breaks the reply schema; empty means valid. */",
            "export function validateReply(payload) {",
            f"  if (!isPlainObject(payload)) return [{not_object_error}];",
            "  const errors = [];",
            "  _check_reply(payload, errors);",
            "  return errors;",
            "}",
        ]
    )


def validators_declarations(header: str) -> str:
    return "\n".join(
        [
            header,
            'import type { PayloadError } from "./errors.js";',
            'import type { SignalKind } from "./kinds.js";',
            "",
            "/**",
            " * The ways `payload` breaks the schema of `kind` (empty: valid): the same pointers,",
            " * rules and messages as the Python binding. Throws SignalFormatError for an unknown",
            " * kind.",
            " */",
            "export declare function validatePayload(",
            "  kind: SignalKind,",
            "  payload: unknown,",
            "): PayloadError[];",
            "/** The ways `payload` breaks the reply schema (empty: valid). */",
            "export declare function validateReply(payload: unknown): PayloadError[];",
            "",
        ]
    )
