"""Compile each payload schema into straight-line Python: the binding's ``validators`` module.

Which keywords compile is read from :mod:`..keywords`; a schema using a keyword
the table refuses, at any depth, fails generation with one line, so the
generated verdict never silently differs from jsonschema's Draft 2020-12 one.
Simple checks are inlined; a subschema whose verdict an applicator needs
(``anyOf``, ``not``, ``if``, ``contains``...) or a ``$ref`` target becomes a
function, so recursive schemas compile to functions that call each other.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..ecma_regex import EcmaPatternError, translate
from ..errors import SourceError
from ..keywords import MESSAGE_KEYWORD, refusals
from ..model import SchemaDocument, Vocabulary
from ._header import python_header

__all__ = ["schema_module", "validators_module"]

_TARGET = "python"

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
_KEYWORD_TYPE = {"integer": "number", "number": "number"}
"""Which keyword family applies to a JSON type (integers take the number keywords)."""

# keyword -> (the family it applies to, operator failing it, message, counted noun)
_COUNT_RULES = {
    "minLength": ("string", "<", "must be at least {} long", "character"),
    "maxLength": ("string", ">", "must be at most {} long", "character"),
    "minItems": ("array", "<", "must hold at least {}", "item"),
    "maxItems": ("array", ">", "must hold at most {}", "item"),
    "minProperties": ("object", "<", "must have at least {}", "member"),
    "maxProperties": ("object", ">", "must have at most {}", "member"),
}
# keyword -> (operator failing it, message)
_BOUNDS = {
    "minimum": ("<", "must be at least {}"),
    "maximum": (">", "must be at most {}"),
    "exclusiveMinimum": ("<=", "must be greater than {}"),
    "exclusiveMaximum": (">=", "must be less than {}"),
}


class _Site(NamedTuple):
    """Where a check runs: the variable, its JSON pointer (a Python expression), the field."""

    var: str
    pointer: str
    description: str
    depth: int
    messages: dict[str, str]


def _one_chain(body: list[str]) -> bool:
    """Whether ``body`` is a single ``if`` statement (with its elif/else branches)."""
    return (
        bool(body)
        and body[0].startswith("if ")
        and all(line.startswith((" ", "elif ", "else:")) for line in body[1:])
    )


def _block(header: str, body: list[str]) -> list[str]:
    """A compound statement; an empty body becomes ``pass``, never an empty block.

    ``else: if`` becomes ``elif``, so the module reads as written by hand.
    """
    if header == "else:" and _one_chain(body):
        return ["el" + body[0], *body[1:]]
    return [header, *(f"    {line}" for line in body or ["pass"])]


def _if(test: str, body: list[str]) -> list[str]:
    """An ``if`` with no ``else``: ``if a: if b:`` is written ``if a and (b):``."""
    if _one_chain(body) and not any(line.startswith(("elif ", "else:")) for line in body):
        return [f"if {test} and ({body[0][3:-1]}):", *body[1:]]
    return _block(f"if {test}:", body)


def _plural(count: object, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _child_pointer(pointer: str, step: str) -> str:
    """The pointer expression one step below ``pointer`` (``step`` is an expression)."""
    return f"{pointer} + '/' + {step}"


def _escaped(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


@dataclass
class _Module:
    """What all documents share: module-level constants and helper functions."""

    constants: dict[str, str] = field(default_factory=dict)
    functions: list[str] = field(default_factory=list)
    refs: dict[tuple[str, str], str] = field(default_factory=dict)
    helpers: set[str] = field(default_factory=set)

    def constant(self, prefix: str, expression: str) -> str:
        """A module-level name for ``expression`` (shared when it repeats)."""
        for name, existing in self.constants.items():
            if existing == expression and name.startswith(f"_{prefix}_"):
                return name
        name = f"_{prefix}_{len(self.constants)}"
        self.constants[name] = expression
        return name


def _json_literal(value: object) -> str:
    """A Python expression for a JSON value: parsed from its JSON text, safely escaped."""
    return f"json.loads({json.dumps(value, ensure_ascii=False)!r})"


@dataclass
class _Compiler:
    """Compiles the schemas of one document into statements and functions."""

    file_name: str
    root: dict[str, Any]
    module: _Module

    # -- errors ------------------------------------------------------------

    def refuse(self, pointer: str, keyword: str, why: str) -> SourceError:
        return SourceError(
            self.file_name,
            "keyword",
            f"at {pointer or '/'}: {keyword!r} cannot be compiled for the {_TARGET} target: {why}",
        )

    def error(self, site: _Site, rule: str, message: str) -> str:
        """The statement recording an error at ``site``: the schema's message, if it gives one."""
        plain = site.messages.get(rule, site.messages.get("", message))
        text = f"{plain}. {site.description}".strip()
        return f"errors.append(PayloadError({site.pointer}, {rule!r}, {text!r}, {message!r}))"

    def messages(self, schema: dict[str, Any], pointer: str) -> dict[str, str]:
        """The ``x-bernstein-message`` of ``schema``: "" -> message, or keyword -> message."""
        given = schema.get(MESSAGE_KEYWORD)
        if given is None:
            return {}
        if isinstance(given, str) and given.strip():
            return {"": given}
        if (
            isinstance(given, dict)
            and given
            and all(isinstance(text, str) and text.strip() for text in given.values())
            and set(given) <= set(schema) | {"required", "type"}
        ):
            return dict(given)
        raise self.refuse(
            pointer,
            MESSAGE_KEYWORD,
            "it must be a non-empty string, or an object mapping keywords of its schema to"
            " non-empty strings",
        )

    # -- subschemas ----------------------------------------------------------

    def function(self, schema: object, pointer: str, description: str) -> str:
        """A module function ``(value, pointer, errors, depth)`` checking ``schema``."""
        name = f"_schema_{len(self.module.functions)}"
        self.module.functions.append("")  # reserve the slot: nested functions come after
        slot = len(self.module.functions) - 1
        site = _Site("value", "pointer", description, 0, {})
        body = list(self.value(schema, site, pointer))
        self.module.functions[slot] = "\n".join(
            [
                f"def {name}(value: Any, pointer: str, errors: list[PayloadError],"
                " depth: int) -> None:",
                *(f"    {line}" for line in body or ["pass"]),
                "",
                "",
            ]
        )
        return name

    def ref_function(self, ref: str, pointer: str, description: str) -> str:
        """The function checking the local target of ``$ref`` (made once; recursion allowed)."""
        key = (self.file_name, ref)
        if key in self.module.refs:
            return self.module.refs[key]
        if ref != "#" and not ref.startswith("#/"):
            raise self.refuse(pointer, "$ref", f"only local references ('#/...') compile: {ref!r}")
        target: Any = self.root
        for step in ref[2:].split("/") if ref != "#" else []:
            part = step.replace("~1", "/").replace("~0", "~")
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                raise self.refuse(pointer, "$ref", f"{ref!r} points nowhere in the document")
        name = f"_ref_{len(self.module.refs)}"
        self.module.refs[key] = name
        self.module.helpers.add("MAX_NESTING_DEPTH")
        site = _Site("value", "pointer", description, 0, {})
        body = list(self.value(target, site, ref[1:]))
        self.module.functions.append(
            "\n".join(
                [
                    f"def {name}(value: Any, pointer: str, errors: list[PayloadError],"
                    " depth: int) -> None:",
                    "    if depth > MAX_NESTING_DEPTH:",
                    "        errors.append(PayloadError(pointer, '$ref', 'nests too deeply',"
                    " 'nests too deeply'))",
                    "        return",
                    *(f"    {line}" for line in body or ["pass"]),
                    "",
                    "",
                ]
            )
        )
        return name

    def passes(self, schema: object, site: _Site, pointer: str) -> str:
        """An expression: does the value at ``site`` pass ``schema``?"""
        if schema is True or schema == {}:
            return "True"
        if schema is False:
            return "False"
        self.module.helpers.add("passes")
        return f"passes({self.function(schema, pointer, '')}, {site.var}, depth)"

    # -- statements ----------------------------------------------------------

    def value(self, schema: object, site: _Site, pointer: str) -> Iterator[str]:
        """Checks of the value at ``site`` against ``schema`` (at ``pointer`` in the document)."""
        if schema is True:
            return
        if schema is False:
            yield self.error(site, "false", "is not allowed")
            return
        if not isinstance(schema, dict):
            raise self.refuse(pointer, "schema", "a schema must be an object or a boolean")
        description = schema.get("description")
        site = site._replace(
            description=description if isinstance(description, str) else site.description,
            messages=self.messages(schema, pointer) or site.messages,
        )
        yield from self.typed(schema, site, pointer)
        yield from self.any_type(schema, site, pointer)

    def typed(self, schema: dict[str, Any], site: _Site, pointer: str) -> Iterator[str]:
        """One if/elif/else chain on the JSON type, with each type's keywords."""
        declared = schema.get("type")
        types = [declared] if isinstance(declared, str) else declared
        families: dict[str, list[str]] = {}
        branches: list[tuple[str, list[str]]] = []
        for name, (test, _) in _TYPE_TESTS.items():
            if types is not None and name not in types:
                continue
            family = _KEYWORD_TYPE.get(name, name)
            if family not in families:
                families[family] = self.keywords(family, schema, site, pointer)
            body = families[family]
            if types is None and not body:
                continue
            if name == "number":
                self.module.helpers.add("numbers")
            branches.append((test.format(site.var), body))
        merged: list[tuple[str, list[str]]] = []
        for test, body in branches:
            if merged and merged[-1][1] == body:
                merged[-1] = (f"{merged[-1][0]} or {test}", body)
            else:
                merged.append((test, body))
        if types is None and not any(body for _, body in merged):
            return
        mismatch = None
        if types is not None:
            names = " or ".join(_TYPE_TESTS[name][1] for name in _TYPE_TESTS if name in types)
            mismatch = [self.error(site, "type", f"must be {names}")]
        if mismatch and len(merged) == 1 and not merged[0][1]:
            yield from _block(f"if not ({merged[0][0]}):", mismatch)
            return
        for index, (test, body) in enumerate(merged):
            yield from _block(f"{'if' if index == 0 else 'elif'} {test}:", body)
        if mismatch:
            yield from _block("else:", mismatch)

    def keywords(self, family: str, schema: dict[str, Any], site: _Site, pointer: str) -> list[str]:
        """Checks of the keywords that apply to values of the JSON type ``family``."""
        lines: list[str] = []
        for keyword, (applies_to, operator, message, noun) in _COUNT_RULES.items():
            if keyword in schema and applies_to == family:
                count = schema[keyword]
                rendered = message.format(_plural(count, noun))
                lines += _block(
                    f"if len({site.var}) {operator} {count!r}:",
                    [self.error(site, keyword, rendered)],
                )
        if family == "number":
            lines += self.numbers(schema, site)
        elif family == "string" and "pattern" in schema:
            regex = self.pattern(schema["pattern"], pointer + "/pattern")
            lines += _block(
                f"if {regex}.search({site.var}) is None:",
                [self.error(site, "pattern", f"must match {schema['pattern']}")],
            )
        elif family == "array":
            lines += self.array(schema, site, pointer)
        elif family == "object":
            lines += self.obj(schema, site, pointer)
        return lines

    def pattern(self, pattern: str, pointer: str) -> str:
        """A module-level regex with ``pattern``'s ECMA-262 meaning, or a refusal."""
        try:
            translated = translate(pattern)
        except EcmaPatternError as exc:
            raise self.refuse(pointer, "pattern", str(exc)) from None
        return self.module.constant("PATTERN", f"re.compile({translated!r})")

    def numbers(self, schema: dict[str, Any], site: _Site) -> list[str]:
        lines: list[str] = []
        for keyword, (operator, message) in _BOUNDS.items():
            if keyword in schema:
                bound = schema[keyword]
                literal = self.module.constant("BOUND", _json_literal(bound))
                lines += _block(
                    f"if {site.var} {operator} {literal}:",
                    [self.error(site, keyword, message.format(bound))],
                )
        if "multipleOf" in schema:
            self.module.helpers.add("multiple_of")
            divisor = schema["multipleOf"]
            literal = self.module.constant("BOUND", _json_literal(divisor))
            lines += _block(
                f"if not multiple_of({site.var}, {literal}):",
                [self.error(site, "multipleOf", f"must be a multiple of {divisor}")],
            )
        return lines

    def child(self, site: _Site, var: str, step: str) -> _Site:
        return _Site(
            f"{var}_{site.depth}",
            _child_pointer(site.pointer, step),
            site.description,
            site.depth + 1,
            {},
        )

    def array(self, schema: dict[str, Any], site: _Site, pointer: str) -> list[str]:
        lines: list[str] = []
        if schema.get("uniqueItems") is True:
            self.module.helpers.add("all_unique")
            lines += _block(
                f"if not all_unique({site.var}):",
                [self.error(site, "uniqueItems", "must not hold duplicate items")],
            )
        prefix = schema.get("prefixItems", [])
        index = f"index_{site.depth}"
        item = self.child(site, "item", f"str({index})")
        for position, subschema in enumerate(prefix):
            at = _Site(
                f"item_{site.depth}",
                _child_pointer(site.pointer, repr(str(position))),
                site.description,
                site.depth + 1,
                {},
            )
            body = list(self.value(subschema, at, f"{pointer}/prefixItems/{position}"))
            if body:
                lines += _block(
                    f"if len({site.var}) > {position}:",
                    [f"{at.var} = {site.var}[{position}]", *body],
                )
        items = schema.get("items", True)
        body = list(self.value(items, item, f"{pointer}/items"))
        if items is False:
            lines += _block(
                f"if len({site.var}) > {len(prefix)}:",
                [self.error(site, "items", f"must hold at most {_plural(len(prefix), 'item')}")],
            )
        elif body:
            start = f", {len(prefix)}" if prefix else ""
            lines += _block(
                f"for {index}, {item.var} in enumerate({site.var}[{len(prefix)}:]{start}):"
                if prefix
                else f"for {index}, {item.var} in enumerate({site.var}):",
                body,
            )
        if "contains" in schema:
            test = self.passes(schema["contains"], item, f"{pointer}/contains")
            count = f"count_{site.depth}"
            least, most = schema.get("minContains", 1), schema.get("maxContains")
            lines.append(f"{count} = sum(1 for {item.var} in {site.var} if {test})")
            if least > 0:
                lines += _block(
                    f"if {count} < {least!r}:",
                    [
                        self.error(
                            site,
                            "contains",
                            f"must hold at least {_plural(least, 'matching item')}",
                        )
                    ],
                )
            if most is not None:
                lines += _block(
                    f"if {count} > {most!r}:",
                    [
                        self.error(
                            site,
                            "maxContains",
                            f"must hold at most {_plural(most, 'matching item')}",
                        )
                    ],
                )
        return lines

    def obj(self, schema: dict[str, Any], site: _Site, pointer: str) -> list[str]:
        lines: list[str] = []
        properties: dict[str, Any] = schema.get("properties", {})
        for name in schema.get("required", []):
            at = site._replace(pointer=_child_pointer(site.pointer, repr(_escaped(name))))
            lines += _block(
                f"if {name!r} not in {site.var}:", [self.error(at, "required", "is required")]
            )
        for name, trigger in schema.get("dependentRequired", {}).items():
            missing = [
                self.error(
                    site._replace(pointer=_child_pointer(site.pointer, repr(_escaped(needed)))),
                    "dependentRequired",
                    f"is required when {name} is present",
                )
                for needed in trigger
            ]
            for needed, error in zip(trigger, missing, strict=True):
                lines += _block(
                    f"if {name!r} in {site.var} and {needed!r} not in {site.var}:", [error]
                )
        for name, subschema in schema.get("dependentSchemas", {}).items():
            body = list(self.value(subschema, site, f"{pointer}/dependentSchemas/{_escaped(name)}"))
            if body:
                lines += _block(f"if {name!r} in {site.var}:", body)
        value = f"member_{site.depth}"
        for name, subschema in properties.items():
            at = _Site(
                value,
                _child_pointer(site.pointer, repr(_escaped(name))),
                site.description,
                site.depth + 1,
                {},
            )
            body = list(self.value(subschema, at, f"{pointer}/properties/{_escaped(name)}"))
            if body:
                lines.append(f"{value} = {site.var}.get({name!r}, ABSENT)")
                lines += _if(f"{value} is not ABSENT", body)
        lines += self.members(schema, site, pointer)
        return lines

    def members(self, schema: dict[str, Any], site: _Site, pointer: str) -> list[str]:
        """patternProperties, additionalProperties and propertyNames: a loop over the keys."""
        patterns: dict[str, Any] = schema.get("patternProperties", {})
        additional = schema.get("additionalProperties", True)
        names = schema.get("propertyNames", True)
        if not patterns and additional is True and names is True:
            return []
        self.module.helpers.add("member_pointer")
        key, member = f"key_{site.depth}", f"member_{site.depth}"
        at = _Site(
            member, f"member_pointer({site.pointer}, {key})", site.description, site.depth + 1, {}
        )
        body: list[str] = []
        if names is not True or patterns:  # a Python caller's dict may have non-str keys
            body += _block(f"if not isinstance({key}, str):", [f"{key} = _shown({key})"])
        if names is not True:
            key_site = at._replace(var=key)
            body += list(self.value(names, key_site, f"{pointer}/propertyNames"))
        matched: list[str] = []
        for source, subschema in patterns.items():
            regex = self.pattern(source, f"{pointer}/patternProperties/{_escaped(source)}")
            matched.append(f"{regex}.search({key}) is not None")
            checks = list(
                self.value(subschema, at, f"{pointer}/patternProperties/{_escaped(source)}")
            )
            if checks:
                body += _block(f"if {regex}.search({key}) is not None:", checks)
        if additional is not True:
            known = tuple(schema.get("properties", {}))
            others = [f"{key} not in {known!r}", *(f"not ({test})" for test in matched)]
            if additional is False:
                allowed = ", ".join(known)
                message = (
                    f"is not allowed: the only members are {allowed}"
                    if known and not matched
                    else "is not allowed"
                )
                checks = [self.error(at, "additionalProperties", message)]
            else:
                checks = list(self.value(additional, at, f"{pointer}/additionalProperties"))
            if checks:
                body += _block(f"if {' and '.join(others)}:", checks)
        if not body:
            return []
        if not re.search(rf"\b{member}\b", "\n".join(body)):  # keys alone: no .items()
            return _block(f"for {key} in {site.var}:", body)
        return _block(f"for {key}, {member} in {site.var}.items():", body)

    def any_type(self, schema: dict[str, Any], site: _Site, pointer: str) -> Iterator[str]:
        """Keywords that apply whatever the type: enum, const, the applicators, $ref."""
        if "enum" in schema or "const" in schema:
            self.module.helpers.add("json_key")
        if "enum" in schema:
            values = schema["enum"]
            choices = self.module.constant(
                "ENUM", f"frozenset(json_key(item) for item in {_json_literal(values)})"
            )
            shown = ", ".join(json.dumps(item, ensure_ascii=False) for item in values)
            yield from _block(
                f"if json_key({site.var}) not in {choices}:",
                [self.error(site, "enum", f"must be one of {shown}")],
            )
        if "const" in schema:
            constant = self.module.constant("CONST", f"json_key({_json_literal(schema['const'])})")
            shown = json.dumps(schema["const"], ensure_ascii=False)
            yield from _block(
                f"if json_key({site.var}) != {constant}:",
                [self.error(site, "const", f"must be {shown}")],
            )
        if "$ref" in schema:
            target = self.ref_function(schema["$ref"], pointer + "/$ref", site.description)
            yield f"{target}({site.var}, {site.pointer}, errors, depth + 1)"
        for index, subschema in enumerate(schema.get("allOf", [])):
            yield from self.value(subschema, site, f"{pointer}/allOf/{index}")
        for keyword, test in (("anyOf", "any"), ("oneOf", "one")):
            if keyword in schema:
                tests = [
                    self.passes(sub, site, f"{pointer}/{keyword}/{index}")
                    for index, sub in enumerate(schema[keyword])
                ]
                if test == "any":
                    failed = f"not ({' or '.join(tests)})"
                    message = "must match at least one of the anyOf schemas"
                else:
                    failed = f"[{', '.join(tests)}].count(True) != 1"
                    message = "must match exactly one of the oneOf schemas"
                yield from _block(f"if {failed}:", [self.error(site, keyword, message)])
        if "not" in schema:
            test = self.passes(schema["not"], site, f"{pointer}/not")
            yield from _block(
                f"if {test}:", [self.error(site, "not", "must not match the not schema")]
            )
        if "if" in schema:
            test = self.passes(schema["if"], site, f"{pointer}/if")
            then = list(self.value(schema.get("then", True), site, f"{pointer}/then"))
            otherwise = list(self.value(schema.get("else", True), site, f"{pointer}/else"))
            if then or otherwise:
                yield from _block(f"if {test}:", then)
                if otherwise:
                    yield from _block("else:", otherwise)

    # -- the document ----------------------------------------------------------

    def document_body(self) -> Iterator[str]:
        for pointer, keyword, why in refusals(self.root, _TARGET):
            raise self.refuse(pointer, keyword, why)
        schema = {key: value for key, value in self.root.items() if key != "type"}
        site = _Site("payload", "''", "", 0, {})
        # Each top-level member's own description follows its messages, as before.
        properties: dict[str, Any] = schema.pop("properties", {})
        required = schema.pop("required", [])
        for name in required:
            if name not in properties:
                at = site._replace(pointer=repr("/" + _escaped(name)))
                yield from _block(
                    f"if {name!r} not in payload:", [self.error(at, "required", "is required")]
                )
        for name, subschema in properties.items():
            description = subschema.get("description", "") if isinstance(subschema, dict) else ""
            where = f"/properties/{_escaped(name)}"
            words = self.messages(subschema, where) if isinstance(subschema, dict) else {}
            at = _Site("value", repr("/" + _escaped(name)), description, 1, words)
            body = list(self.value(subschema, at, where))
            absent = [self.error(at, "required", "is required")] if name in required else []
            yield f"value = payload.get({name!r}, ABSENT)"
            if absent:
                yield from _block("if value is ABSENT:", absent)
                if body:
                    yield from _block("else:", body)
            elif body:
                yield from _if("value is not ABSENT", body)
        rest = dict(schema)
        rest["properties"] = dict.fromkeys(properties, True)
        yield from self.members(rest, site, "")
        rest.pop("patternProperties", None)
        rest.pop("additionalProperties", None)
        rest.pop("propertyNames", None)
        rest.pop("properties")
        yield from self.keywords("object", rest, site, "")
        yield from self.any_type(schema, site, "")


def _check_function(compiler: _Compiler, name: str) -> list[str]:
    body = list(compiler.document_body())
    return [
        f"def {name}(payload: dict[Any, Any], errors: list[PayloadError], depth: int = 0) -> None:",
        f'    """Append the ways ``payload`` breaks {compiler.file_name}."""',
        *(f"    {line}" for line in body),
        "",
        "",
    ]


def schema_module(schema: object, file_name: str) -> str:
    """A module whose ``check(value)`` lists the ways ``value`` breaks ``schema`` (any root).

    The same compiler as the binding's; for tests against suites of arbitrary schemas.
    Raises SourceError where ``generate`` would.
    """
    module = _Module()
    compiler = _Compiler(file_name, schema if isinstance(schema, dict) else {}, module)
    for pointer, keyword, why in refusals(schema, _TARGET):
        raise compiler.refuse(pointer, keyword, why)
    name = compiler.function(schema, "", "")
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


def _prelude(module: _Module) -> list[str]:
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
        '_NOT_OBJECT: Final = "must be a JSON object"',
        *(f"{name}: Final = {expression}" for name, expression in module.constants.items()),
        "",
    ]


def validators_module(vocabulary: Vocabulary) -> str:
    """The ``validators`` module of the Python binding."""
    module = _Module()
    checks: list[str] = []
    documents: list[tuple[SchemaDocument, str]] = [
        (kind, f"_check_{kind.snake}") for kind in vocabulary.kinds
    ]
    documents.append((vocabulary.reply, "_check_reply"))
    for document, name in documents:
        compiler = _Compiler(document.file_name, json.loads(document.schema_json), module)
        checks += _check_function(compiler, name)
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
