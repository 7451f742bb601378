"""Load schema/ and grammar/ into the frozen model, checking every rule on the way.

This module reads the files (strict JSON, the grammar with Lark) and builds the
model; each schema file's shape is checked by :mod:`._schema_shape` first.
Every failure is a :class:`~bernstein_signals_toolkit.toolkit_errors.SourceError`
naming the file and the rule, so that ``generate`` can print one line and exit 2
before writing anything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
from lark import Lark
from lark.exceptions import LarkError
from lark.lexer import PatternStr

from bernstein_signals_toolkit.toolkit_errors import SourceError

from ._schema_shape import (
    DRAFT_2020_12,
    JSONSCHEMA_CRASHES,
    MAX_SCHEMA_NESTING,
    check_examples,
    check_schema,
    crash,
    properties,
    require,
)
from .model import Grammar, JSONValue, Kind, ReplySchema, Vocabulary
from .names import check_vocabulary
from .roles import REPLY_DOCUMENT, VERSION_ROLE

__all__ = [
    "DRAFT_2020_12",
    "MAX_SCHEMA_NESTING",
    "RESERVED_KIND_NAMES",
    "VOCABULARY_FILE",
    "load_grammar",
    "load_vocabulary",
    "read_json",
]

VOCABULARY_FILE = "vocabulary.json"
REPLY_FILE = "reply.schema.json"
SCHEMA_SUFFIX = ".schema.json"

RESERVED_KIND_NAMES = frozenset({"ASK", "EMIT", "GUARD", "RUN"})
"""Kinds whose shell function ``bernstein_<kind>`` would collide with a fixed helper."""

_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)


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
# The model
# ---------------------------------------------------------------------------


def _document_fields(
    path: Path, schema: dict[str, Any], type_name: str, document: str
) -> dict[str, Any]:
    """The model fields common to kinds and the reply; checks properties, then examples."""
    fields = properties(path, schema, document)
    check_examples(path, schema)
    return {
        "file_name": path.name,
        "type_name": type_name,
        "schema_id": schema["$id"],
        "title": schema["title"],
        "description": schema["description"],
        "properties": fields,
        "required": tuple(schema.get("required", [])),
        # Extras are allowed unless refused outright; a schema for them is the validators' to check.
        "additional_properties": schema.get("additionalProperties", True) is not False,
        "examples_json": json.dumps(schema["examples"], ensure_ascii=False),
        "schema_json": json.dumps(schema, ensure_ascii=False),
    }


def _load_kind(path: Path, grammar: Grammar, parser: Lark) -> Kind:
    schema = check_schema(path, read_json(path))
    name = require(path, schema, "x-bernstein-kind", str, "kind")
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
    schema = check_schema(path, read_json(path))
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
    except JSONSCHEMA_CRASHES as exc:
        raise SourceError(path, "role", f"jsonschema cannot check it: {crash(exc)}") from None
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
    name = require(meta_path, meta, "name", str, "vocabulary")
    version = require(meta_path, meta, "version", str, "vocabulary")
    if not _SEMVER.fullmatch(version):
        raise SourceError(meta_path, "vocabulary", f"version {version!r} is not semver")
    description = require(meta_path, meta, "description", str, "vocabulary")

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
