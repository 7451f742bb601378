"""Load schema/ and grammar/ into the frozen model, checking every rule on the way.

Every failure is a :class:`~.errors.SourceError` naming the file and the rule,
so that ``generate`` can print one line and exit 2 before writing anything.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import referencing.exceptions
from lark import Lark
from lark.exceptions import LarkError
from lark.lexer import PatternStr

from bernstein_signals_toolkit.toolkit_errors import SourceError

from .model import Grammar, JSONValue, Kind, Property, ReplySchema, Vocabulary
from .names import PROPERTY_NAME, check_vocabulary
from .roles import REPLY_DOCUMENT, ROLE_KEYWORD, VERSION_ROLE, check_document_roles

__all__ = [
    "DRAFT_2020_12",
    "MAX_SCHEMA_NESTING",
    "RESERVED_KIND_NAMES",
    "VOCABULARY_FILE",
    "load_grammar",
    "load_vocabulary",
    "read_json",
]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
VOCABULARY_FILE = "vocabulary.json"
REPLY_FILE = "reply.schema.json"
SCHEMA_SUFFIX = ".schema.json"

RESERVED_KIND_NAMES = frozenset({"ASK", "EMIT", "GUARD", "RUN"})
"""Kinds whose shell function ``bernstein_<kind>`` would collide with a fixed helper."""

_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)
_JSON_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})


# The generator's own strict-JSON hooks: the generator must never import the binding it
# writes (whose _strict_json refuses NaN for signals), and source files are stricter than
# signals (a duplicate key is an error here, "last wins" there). This is the one generator
# copy; tests/test_rule_homes.py fails on a third.
def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _read_text(path: Path) -> str:
    """A source file's text: UTF-8, or a SourceError naming the file."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceError(path, "read", exc.strerror or str(exc)) from None
    except UnicodeDecodeError as exc:
        raise SourceError(path, "utf-8", f"not UTF-8 at byte {exc.start}") from None


def read_json(path: Path) -> JSONValue:
    """Read a source JSON file strictly: UTF-8, no duplicate keys, no NaN."""
    text = _read_text(path)
    try:
        value: JSONValue = json.loads(
            text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant
        )
        return value
    except json.JSONDecodeError as exc:
        raise SourceError(f"{path}:{exc.lineno}:{exc.colno}", "json", exc.msg) from None
    except RecursionError:
        raise SourceError(path, "json", "nested too deeply to read") from None
    except ValueError as exc:
        raise SourceError(path, "json", str(exc)) from None


# ---------------------------------------------------------------------------
# Grammar
# ---------------------------------------------------------------------------


def load_grammar(path: Path) -> tuple[Grammar, Lark]:
    """Load the grammar with Lark (LALR) and read PREFIX and KIND from it."""
    text = _read_text(path)
    try:
        # source_path: a relative %import is read beside the grammar, not from the cwd.
        parser = Lark(text, parser="lalr", source_path=str(path))
    # Lark lets some of Python's own errors through: a regex repetition too large
    # for re (OverflowError), a grammar nested past the recursion limit, an
    # %import of a file that cannot be read (OSError).
    except (LarkError, ValueError, OverflowError, RecursionError, re.error, OSError) as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SourceError(path, "grammar", f"Lark cannot load it: {first_line}") from None
    terminals = {term.name: term for term in parser.terminals}
    for name in ("PREFIX", "KIND"):
        if name not in terminals:
            raise SourceError(path, "grammar", f"the terminal {name} is missing")
    prefix = terminals["PREFIX"].pattern
    if not isinstance(prefix, PatternStr):
        raise SourceError(path, "grammar", "PREFIX must be a literal string, not a pattern")
    grammar = Grammar(
        file_name=path.name,
        text=text,
        prefix=prefix.value,
        kind_pattern=terminals["KIND"].pattern.to_regexp(),
    )
    return grammar, parser


def _check_kind_against_grammar(path: Path, kind: str, grammar: Grammar, parser: Lark) -> None:
    if not re.fullmatch(grammar.kind_pattern, kind):
        raise SourceError(
            path,
            "kind-grammar",
            f"kind {kind!r} does not match the grammar's KIND token /{grammar.kind_pattern}/",
        )
    for line in (grammar.prefix + kind, grammar.prefix + kind + " {}"):
        try:
            parser.parse(line)
        except LarkError:
            raise SourceError(
                path, "kind-grammar", f"the grammar does not accept the line {line!r}"
            ) from None


# ---------------------------------------------------------------------------
# Schemas
# ---------------------------------------------------------------------------


def _require(path: Path, schema: dict[str, Any], key: str, kind: type, rule: str) -> Any:
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


def _properties(path: Path, schema: dict[str, Any], document: str) -> tuple[Property, ...]:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    for name in required:
        if name not in properties:
            raise SourceError(path, "required", f"required property {name!r} is not defined")
    result = []
    # Author order: it is the order docs list fields in; `required` fixes positionals.
    for name, subschema in properties.items():
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


MAX_SCHEMA_NESTING = 64
"""JSON levels a schema file may nest: schema checks and the compilers recurse on them."""


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


_JSONSCHEMA_CRASHES = (
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


def _crash(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _check_schema(path: Path, schema: JSONValue) -> dict[str, Any]:
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
    except _JSONSCHEMA_CRASHES as exc:
        why = f"jsonschema cannot check it: {_crash(exc)}"
        raise SourceError(path, "metaschema", why) from None
    if schema.get("type") != "object":
        raise SourceError(path, "payload-object", "a payload schema must have 'type': 'object'")
    for key in ("$id", "title", "description"):
        _require(path, schema, key, str, "schema")
    return schema


def _check_examples(path: Path, schema: dict[str, Any]) -> None:
    examples = _require(path, schema, "examples", list, "examples")
    validator = jsonschema.Draft202012Validator(schema)
    for index, example in enumerate(examples):
        try:
            error = jsonschema.exceptions.best_match(validator.iter_errors(example))
        except _JSONSCHEMA_CRASHES as exc:
            raise SourceError(
                path, "examples", f"jsonschema cannot check example {index}: {_crash(exc)}"
            ) from None
        if error is not None:
            where = "".join(f"/{part}" for part in error.absolute_path)
            raise SourceError(
                path,
                "examples",
                f"example {index} fails its schema at {where or '/'}: {error.message}",
            )


def _document_fields(
    path: Path, schema: dict[str, Any], type_name: str, document: str
) -> dict[str, Any]:
    """The model fields common to kinds and the reply; checks properties, then examples."""
    properties = _properties(path, schema, document)
    _check_examples(path, schema)
    return {
        "file_name": path.name,
        "type_name": type_name,
        "schema_id": schema["$id"],
        "title": schema["title"],
        "description": schema["description"],
        "properties": properties,
        "required": tuple(schema.get("required", [])),
        # Extras are allowed unless refused outright; a schema for them is the validators' to check.
        "additional_properties": schema.get("additionalProperties", True) is not False,
        "examples_json": json.dumps(schema["examples"], ensure_ascii=False),
        "schema_json": json.dumps(schema, ensure_ascii=False),
    }


def _load_kind(path: Path, grammar: Grammar, parser: Lark) -> Kind:
    schema = _check_schema(path, read_json(path))
    name = _require(path, schema, "x-bernstein-kind", str, "kind")
    stem = path.name[: -len(SCHEMA_SUFFIX)]
    if stem != name.lower():
        raise SourceError(path, "kind", f"kind {name!r} belongs in {name.lower()}{SCHEMA_SUFFIX}")
    _check_kind_against_grammar(path, name, grammar, parser)
    if name in RESERVED_KIND_NAMES:
        raise SourceError(
            path,
            "kind-reserved",
            f"kind {name!r} would generate the shell function bernstein_{name.lower()},"
            " which is a fixed helper",
        )
    terminal = schema.get("x-bernstein-terminal")
    if not isinstance(terminal, bool):
        raise SourceError(path, "kind", "'x-bernstein-terminal' must be true or false")
    type_name = "".join(part.capitalize() for part in stem.split("_")) + "Payload"
    return Kind(name=name, terminal=terminal, **_document_fields(path, schema, type_name, name))


def _load_reply(path: Path) -> ReplySchema:
    schema = _check_schema(path, read_json(path))
    if schema.get("x-bernstein-role") != "reply":
        raise SourceError(path, "reply", "the reply schema needs 'x-bernstein-role': 'reply'")
    return ReplySchema(**_document_fields(path, schema, "Reply", REPLY_DOCUMENT))


def _check_version_stamp(path: Path, kind: Kind, version: str) -> None:
    """The field the producers stamp with the vocabulary's version must accept that version."""
    field = kind.roles.get(VERSION_ROLE)
    if field is None:
        return
    try:
        valid = jsonschema.Draft202012Validator(kind.property(field).schema).is_valid(version)
    except _JSONSCHEMA_CRASHES as exc:
        raise SourceError(path, "role", f"jsonschema cannot check it: {_crash(exc)}") from None
    if not valid:
        raise SourceError(
            path,
            "role",
            f"at /properties/{field}: the field with role {VERSION_ROLE} refuses this"
            f" vocabulary's own version {version!r}, which every producer stamps in it",
        )


def _schema_files(schema_dir: Path) -> Iterator[Path]:
    try:
        entries = sorted(schema_dir.iterdir())
    except OSError as exc:
        raise SourceError(schema_dir, "read", exc.strerror or str(exc)) from None
    for entry in entries:
        if entry.name == VOCABULARY_FILE or entry.name.startswith("."):
            continue
        if not entry.name.endswith(SCHEMA_SUFFIX) or not entry.is_file():
            raise SourceError(
                entry, "layout", f"schema/ holds only {VOCABULARY_FILE} and *{SCHEMA_SUFFIX} files"
            )
        yield entry


def load_vocabulary(schema_dir: Path, grammar_path: Path) -> Vocabulary:
    """Load and check both sources of truth; raise SourceError on the first broken rule.

    Every rule that holds for all targets is checked here (names.check_vocabulary
    included); what is left to the emitters is what one target cannot carry.
    """
    grammar, parser = load_grammar(grammar_path)
    meta_path = schema_dir / VOCABULARY_FILE
    meta = read_json(meta_path)
    if not isinstance(meta, dict):
        raise SourceError(meta_path, "vocabulary", "must hold a JSON object")
    name = _require(meta_path, meta, "name", str, "vocabulary")
    version = _require(meta_path, meta, "version", str, "vocabulary")
    if not _SEMVER.fullmatch(version):
        raise SourceError(meta_path, "vocabulary", f"version {version!r} is not semver")
    description = _require(meta_path, meta, "description", str, "vocabulary")

    kinds: list[Kind] = []
    reply: ReplySchema | None = None
    for path in _schema_files(schema_dir):
        if path.name == REPLY_FILE:
            reply = _load_reply(path)
        else:
            kinds.append(_load_kind(path, grammar, parser))
    if reply is None:
        raise SourceError(schema_dir / REPLY_FILE, "reply", "the reply schema is missing")
    if not kinds:
        raise SourceError(schema_dir, "kinds", f"no *{SCHEMA_SUFFIX} kind schema found")
    if not any(kind.terminal for kind in kinds):
        raise SourceError(schema_dir, "kinds", "at least one kind must be terminal")
    for kind in kinds:
        _check_version_stamp(schema_dir / kind.file_name, kind, version)

    vocabulary = Vocabulary(
        name=name,
        version=version,
        description=description,
        kinds=tuple(sorted(kinds, key=lambda kind: kind.name)),
        reply=reply,
        grammar=grammar,
        source_names=(
            f"{schema_dir.name}/*{SCHEMA_SUFFIX}",
            f"{schema_dir.name}/{VOCABULARY_FILE}",
            f"{grammar_path.parent.name}/{grammar_path.name}",
        ),
    )
    # The emitters check this too; here it makes schema, validate and the
    # language server refuse exactly the sources generate refuses.
    check_vocabulary(vocabulary)
    return vocabulary
