"""A source schema file's shape: the checks every kind schema and the reply schema pass.

The metaschema (with what jsonschema lets escape on odd schemas turned into a
SourceError), the nesting bound, the keys the model needs, each property's
name, type, description and role, every pattern's cost (:mod:`.pattern_cost`),
and the examples against their own schema.
:mod:`.load` reads the files and builds the model from what passes here.
"""

from __future__ import annotations

import json
import keyword
import re
from pathlib import Path
from typing import Any

import jsonschema
import referencing.exceptions

from bernstein_signals_toolkit.toolkit_errors import SourceError

from .ecma_regex import EcmaPatternError
from .model import JSONValue, Property
from .names import PROPERTY_NAME
from .pattern_cost import check_linear
from .roles import ROLE_KEYWORD, check_document_roles
from .subschemas import pattern_sites

__all__ = [
    "DRAFT_2020_12",
    "JSONSCHEMA_CRASHES",
    "MAX_SCHEMA_NESTING",
    "check_examples",
    "check_patterns",
    "check_schema",
    "crash",
    "properties",
    "require",
]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

MAX_SCHEMA_NESTING = 64
"""JSON levels a schema file may nest: schema checks and the compilers recurse on them."""

_JSON_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})

JSONSCHEMA_CRASHES = (
    re.error,
    OverflowError,
    RecursionError,
    ValueError,
    TypeError,
    referencing.exceptions.Unresolvable,
    referencing.exceptions.Unretrievable,
    referencing.exceptions.CannotDetermineSpecification,
)
"""What jsonschema lets escape on schemas its metaschema allows: a pattern Python's re
refuses (``a{99999999999}``: OverflowError), a ``$ref`` to nowhere, deep recursion."""


def crash(exc: Exception) -> str:
    """One of :data:`JSONSCHEMA_CRASHES` in words: its type, and its message if any."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def require(path: Path, schema: dict[str, Any], key: str, kind: type, rule: str) -> Any:
    """``schema[key]``, which must be a ``kind`` (and not blank, for a string)."""
    value = schema.get(key)
    if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
        raise SourceError(path, rule, f"the schema needs a non-empty {key!r} ({kind.__name__})")
    return value


def _types(path: Path, name: str, subschema: dict[str, Any]) -> tuple[str, ...]:
    declared = subschema.get("type")
    types = [declared] if isinstance(declared, str) else declared
    if not isinstance(types, list) or not types or not set(types) <= _JSON_TYPES:
        raise SourceError(
            path, "property-type", f"property {name!r} needs a 'type' of JSON type names"
        )
    return tuple(sorted(types))


def _role(path: Path, name: str, subschema: dict[str, Any]) -> str | None:
    role = subschema.get(ROLE_KEYWORD)
    if role is not None and not isinstance(role, str):
        raise SourceError(
            path, "role", f"at /properties/{name}: {ROLE_KEYWORD!r} must be a role name (a string)"
        )
    return role


def properties(path: Path, schema: dict[str, Any], document: str) -> tuple[Property, ...]:
    """The schema's top-level properties as the model's, in the author's order."""
    declared = schema.get("properties", {})
    required = schema.get("required", [])
    for name in required:
        if name not in declared:
            raise SourceError(path, "required", f"required property {name!r} is not defined")
    result = []
    # Author order: it is the order docs list fields in; `required` fixes positionals.
    for name, subschema in declared.items():
        if not PROPERTY_NAME.fullmatch(name) or keyword.iskeyword(name):
            raise SourceError(
                path,
                "property-name",
                f"property {name!r} must be lower_snake_case and not a Python keyword,"
                " so every binding can use it as a parameter and a shell option",
            )
        if not isinstance(subschema, dict):
            raise SourceError(path, "property-type", f"property {name!r} must be a schema object")
        description = subschema.get("description")
        if not isinstance(description, str) or not description.strip():
            raise SourceError(
                path, "description", f"property {name!r} needs a description (editors show it)"
            )
        result.append(
            Property(
                name=name,
                description=description,
                required=name in required,
                types=_types(path, name, subschema),
                schema_json=json.dumps(subschema, ensure_ascii=False),
                role=_role(path, name, subschema),
            )
        )
    check_document_roles(path, document, tuple(result))
    return tuple(result)


def _nesting(value: JSONValue) -> int:
    """How deeply ``value`` nests (a scalar is 0), measured without recursion."""
    deepest, level = 0, [(value, 1)]
    while level:
        item, depth = level.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            level.extend(
                (child, depth + 1) for child in children if isinstance(child, (dict, list))
            )
    return deepest


def check_schema(path: Path, schema: JSONValue) -> dict[str, Any]:
    """A payload schema: an object schema jsonschema accepts, with ``$id``, title, description."""
    if not isinstance(schema, dict):
        raise SourceError(path, "schema", "a schema file must hold a JSON object")
    if _nesting(schema) > MAX_SCHEMA_NESTING:
        raise SourceError(
            path, "schema", f"the schema nests deeper than {MAX_SCHEMA_NESTING} JSON levels"
        )
    if schema.get("$schema") != DRAFT_2020_12:
        raise SourceError(path, "schema", f"'$schema' must be {DRAFT_2020_12!r}")
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(part) for part in exc.absolute_path) or "(root)"
        raise SourceError(path, "metaschema", f"at {where}: {exc.message}") from None
    except JSONSCHEMA_CRASHES as exc:
        why = f"jsonschema cannot check it: {crash(exc)}"
        raise SourceError(path, "metaschema", why) from None
    if schema.get("type") != "object":
        raise SourceError(path, "payload-object", "a payload schema must have 'type': 'object'")
    for key in ("$id", "title", "description"):
        require(path, schema, key, str, "schema")
    check_patterns(path, schema)
    return schema


def check_patterns(path: Path, schema: dict[str, Any]) -> None:
    """Every pattern in the document runs in time linear in the value on every binding.

    Checked before the examples are: jsonschema runs the patterns on them.
    """
    for pointer, pattern in pattern_sites(schema):
        try:
            check_linear(pattern)
        except EcmaPatternError as exc:
            raise SourceError(path, "pattern", f"at {pointer}: {exc}") from None


def check_examples(path: Path, schema: dict[str, Any]) -> None:
    """The schema's ``examples`` exist and each one passes the schema."""
    examples = require(path, schema, "examples", list, "examples")
    validator = jsonschema.Draft202012Validator(schema)
    for index, example in enumerate(examples):
        try:
            error = jsonschema.exceptions.best_match(validator.iter_errors(example))
        except JSONSCHEMA_CRASHES as exc:
            raise SourceError(
                path, "examples", f"jsonschema cannot check example {index}: {crash(exc)}"
            ) from None
        if error is not None:
            where = "".join(f"/{part}" for part in error.absolute_path)
            raise SourceError(
                path,
                "examples",
                f"example {index} fails its schema at {where or '/'}: {error.message}",
            )
