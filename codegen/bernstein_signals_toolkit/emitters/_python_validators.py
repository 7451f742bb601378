"""Compile each payload schema into straight-line Python: the binding's ``validators`` module.

Only the keywords in :data:`SUPPORTED_KEYWORDS` are compiled; a schema using
any other fails generation, so the generated verdict can never silently
differ from jsonschema's Draft 2020-12 verdict on the same schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import ToolkitError
from ..model import JSONValue, SchemaDocument, Vocabulary
from ._header import python_header

__all__ = ["SUPPORTED_KEYWORDS", "validators_module"]

_ANNOTATIONS = frozenset({"description", "title", "examples", "$comment", "default"})
_STRING_KEYWORDS = ("minLength", "maxLength", "pattern")
_ARRAY_KEYWORDS = ("minItems", "maxItems", "uniqueItems", "items")
SUPPORTED_KEYWORDS = frozenset({"type", *_STRING_KEYWORDS, *_ARRAY_KEYWORDS, *_ANNOTATIONS})

# JSON type -> (test on `{}`, the type named in messages). Order fixes branch order.
_TYPE_TESTS = {
    "null": ("{} is None", "null"),
    "boolean": ("isinstance({}, bool)", "a boolean"),
    "integer": (
        "(isinstance({0}, int) and not isinstance({0}, bool))"
        " or (isinstance({0}, float) and {0}.is_integer())",
        "an integer",
    ),
    "number": (
        "isinstance({0}, numbers.Number) and not isinstance({0}, bool)",
        "a number",
    ),
    "string": ("isinstance({}, str)", "a string"),
    "array": ("isinstance({}, list)", "an array"),
    "object": ("isinstance({}, dict)", "an object"),
}


# keyword -> (the JSON type it applies to, operator failing it, message, counted noun)
_COUNT_RULES = {
    "minLength": ("string", "<", "must be at least {} long", "character"),
    "maxLength": ("string", ">", "must be at most {} long", "character"),
    "minItems": ("array", "<", "must hold at least {}", "item"),
    "maxItems": ("array", ">", "must hold at most {}", "item"),
}


class _Site(NamedTuple):
    """Where a check runs: the variable, its JSON pointer (a Python expression), the field."""

    var: str
    pointer: str
    description: str
    depth: int


_Branches = Sequence[tuple[str, list[str]]]


def _chain(branches: _Branches, otherwise: list[str] | None) -> Iterator[str]:
    """An if/elif/else chain; neighbouring branches with the same body share one test."""
    merged: list[tuple[str, list[str]]] = []
    for test, body in branches:
        if merged and merged[-1][1] == body:
            merged[-1] = (f"{merged[-1][0]} or {test}", body)
        else:
            merged.append((test, body))
    if otherwise is None and not any(body for _, body in merged):
        return
    for index, (test, body) in enumerate(merged):
        yield f"{'if' if index == 0 else 'elif'} {test}:"
        yield from (f"    {line}" for line in body or ["pass"])
    if otherwise is not None:
        yield "else:"
        yield from (f"    {line}" for line in otherwise)


def _plural(count: JSONValue, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _item_pointer(pointer: str, index: str) -> str:
    """The pointer expression of an item, from its array's (a str literal or an f-string)."""
    body = pointer[2:-1] if pointer.startswith("f") else pointer[1:-1]
    return f'f"{body}/{{{index}}}"'


@dataclass
class _Compiler:
    """Collects the module-level regexes and helpers the checks need."""

    document: SchemaDocument
    patterns: dict[str, str]
    uses_unique: bool = False
    uses_numbers: bool = False

    def pattern_name(self, pattern: str) -> str:
        return self.patterns.setdefault(pattern, f"_PATTERN_{len(self.patterns)}")

    def error(self, site: _Site, rule: str, message: str) -> str:
        """The statement recording an error at ``site``."""
        text = f"{message}. {site.description}".strip()
        return f"errors.append(PayloadError({site.pointer}, {rule!r}, {text!r}))"

    def value(
        self, schema: dict[str, JSONValue], site: _Site, before: _Branches = ()
    ) -> Iterator[str]:
        """Checks of the value at ``site`` against ``schema``: one if/elif/else chain.

        ``before`` are branches tested first (a member's absence).
        """
        unknown = sorted(set(schema) - SUPPORTED_KEYWORDS)
        if unknown:
            raise ToolkitError(
                f"{self.document.file_name}: the Python validator cannot compile"
                f" {', '.join(unknown)} (at {site.pointer})"
            )
        declared = schema.get("type")
        types = [declared] if isinstance(declared, str) else declared
        branches = list(before)
        for name, (test, _) in _TYPE_TESTS.items():
            if types is not None and name not in types:
                continue
            body = self.keywords(name, schema, site)
            if types is None and not body:
                continue
            self.uses_numbers |= name == "number"
            branches.append((test.format(site.var), body))
        otherwise = None
        if types is not None:
            names = " or ".join(_TYPE_TESTS[name][1] for name in _TYPE_TESTS if name in types)
            otherwise = [self.error(site, "type", f"must be {names}")]
        yield from _chain(branches, otherwise)

    def keywords(self, json_type: str, schema: dict[str, JSONValue], site: _Site) -> list[str]:
        """Checks of the keywords that apply to values of ``json_type``."""
        lines: list[str] = []
        for keyword, (applies_to, operator, message, noun) in _COUNT_RULES.items():
            if keyword in schema and applies_to == json_type:
                count = schema[keyword]
                lines.append(f"if len({site.var}) {operator} {count}:")
                rendered = message.format(_plural(count, noun))
                lines.append("    " + self.error(site, keyword, rendered))
        if json_type == "string" and "pattern" in schema:
            pattern = schema["pattern"]
            lines.append(f"if {self.pattern_name(pattern)}.search({site.var}) is None:")
            lines.append("    " + self.error(site, "pattern", f"must match {pattern}"))
        if json_type != "array":
            return lines
        if schema.get("uniqueItems") is True:
            self.uses_unique = True
            lines.append(f"if not all_unique({site.var}):")
            lines.append("    " + self.error(site, "uniqueItems", "must not hold duplicate items"))
        items = schema.get("items")
        if isinstance(items, dict) and set(items) - _ANNOTATIONS:
            index = f"index_{site.depth}"
            item = _Site(
                f"item_{site.depth}",
                _item_pointer(site.pointer, index),
                site.description,
                site.depth + 1,
            )
            lines.append(f"for {index}, {item.var} in enumerate({site.var}):")
            lines.extend(f"    {line}" for line in self.value(items, item))
        elif items is False:
            lines.append(f"if {site.var}:")
            lines.append("    " + self.error(site, "items", "must be empty"))
        return lines

    def document_body(self) -> Iterator[str]:
        document = self.document
        for prop in document.properties:
            pointer = f'"/{prop.name}"'  # property names are lower_snake_case (load.py)
            site = _Site("value", pointer, prop.description, 1)
            absent = [self.error(site, "required", "is required")] if prop.required else []
            yield f"value = payload.get({prop.name!r}, ABSENT)"
            yield from self.value(prop.schema, site, [("value is ABSENT", absent)])
        if not document.additional_properties:
            allowed = sorted(prop.name for prop in document.properties)
            yield "for key in payload:"
            yield f"    if key not in {tuple(allowed)!r}:"
            yield "        name = key if isinstance(key, str) else _shown(key)"
            yield "        pointer = '/' + name.replace('~', '~0').replace('/', '~1')"
            message = f"is not allowed: the only members are {', '.join(allowed)}"
            site = _Site("key", "pointer", "", 1)
            yield "        " + self.error(site, "additionalProperties", message)


def _check_function(compiler: _Compiler, name: str) -> list[str]:
    document = compiler.document
    body = list(compiler.document_body())
    return [
        f"def {name}(payload: dict[Any, Any], errors: list[PayloadError]) -> None:",
        f'    """Append the ways ``payload`` breaks {document.file_name}."""',
        *(f"    {line}" for line in body),
        "",
        "",
    ]


def validators_module(vocabulary: Vocabulary) -> str:
    patterns: dict[str, str] = {}
    functions: list[str] = []
    flags = {"unique": False, "numbers": False}
    documents: list[tuple[SchemaDocument, str]] = [
        (kind, f"_check_{kind.snake}") for kind in vocabulary.kinds
    ]
    documents.append((vocabulary.reply, "_check_reply"))
    for document, name in documents:
        compiler = _Compiler(document, patterns)
        functions += _check_function(compiler, name)
        flags["unique"] |= compiler.uses_unique
        flags["numbers"] |= compiler.uses_numbers
    imports = ["import re", "from collections.abc import Callable", "from typing import Any, Final"]
    if flags["numbers"]:
        imports.insert(0, "import numbers")
    helpers = ["ABSENT", "all_unique"] if flags["unique"] else ["ABSENT"]
    table = ", ".join(f"{kind.name!r}: _check_{kind.snake}" for kind in vocabulary.kinds)
    lines = [
        python_header(vocabulary)
        + '"""Payload validators, compiled from the schemas: no schema library at run time.',
        "",
        "Each verdict equals jsonschema's Draft 2020-12 verdict on the same schema.",
        '"""',
        "",
        *imports,
        "",
        f"from ._validation import {', '.join(helpers)}",
        "from .errors import PayloadError, _shown",
        "from .kinds import SignalKind",
        "",
        '__all__ = ["validate_payload", "validate_reply"]',
        "",
        *(f"{name}: Final = re.compile({pattern!r})" for pattern, name in patterns.items()),
        "",
        "",
        *functions,
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
        "        return [PayloadError('', 'type', 'must be a JSON object')]",
        "    errors: list[PayloadError] = []",
        "    check(payload, errors)",
        "    return errors",
        "",
        "",
        "def validate_reply(payload: object) -> list[PayloadError]:",
        '    """The ways ``payload`` breaks the reply schema; empty means valid."""',
        "    if not isinstance(payload, dict):",
        '        return [PayloadError("", "type", "must be a JSON object")]',
        "    errors: list[PayloadError] = []",
        "    _check_reply(payload, errors)",
        "    return errors",
    ]
    return "\n".join(lines) + "\n"
