"""The schema compiler: payload schemas to the checks of :mod:`.schema_checks`.

Which keywords compile is read from :mod:`.keywords`; a schema using a keyword
the target refuses, at any depth, fails generation with one line, so no
binding's verdict silently differs from jsonschema's Draft 2020-12 one. The
messages are decided here, in the words of :mod:`.schema_messages`: each
error's message, ``x-bernstein-message`` and the description folded in, is
the same in every binding.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Final

from bernstein_signals_toolkit.generator import json_pointer

from ._compile_context import CompileContext, Site
from .schema_checks import (
    JSON_TYPES,
    Additional,
    Check,
    Conditional,
    Const,
    Contains,
    Count,
    DependentRequired,
    Document,
    EachItem,
    EachMember,
    Enum,
    IfPresent,
    ItemAt,
    Member,
    MemberPattern,
    MultipleOf,
    Not,
    NumberBound,
    Pattern,
    Pointer,
    RefCall,
    Required,
    Size,
    TypeBranch,
    TypeSwitch,
    Unique,
    Var,
)
from .schema_messages import BOUNDS, COUNTS, SIZE_RULES, plural

__all__ = ["compile_document", "compile_schema"]

_KEYWORD_FAMILY: Final[dict[str, str]] = {"integer": "number"}
"""Which keyword family applies to a JSON type (integers take the number keywords)."""


class _Compiler(CompileContext):
    """The keywords: what each one checks, on the value at a site."""

    # -- checks ----------------------------------------------------------------------

    def value(self, schema: object, site: Site, pointer: str) -> Iterator[Check]:
        """Checks of the value at ``site`` against ``schema`` (at ``pointer`` in the document)."""
        if schema is True:
            return
        if schema is False:
            yield self.fail(site, "false", "is not allowed")
            return
        if not isinstance(schema, dict):
            raise self.refuse(pointer, "schema", "a schema must be an object or a boolean")
        description = schema.get("description")
        site = replace(
            site,
            description=description if isinstance(description, str) else site.description,
            messages=self.messages(schema, pointer) or site.messages,
        )
        yield from self.typed(schema, site, pointer)
        yield from self.any_type(schema, site, pointer)

    def typed(self, schema: dict[str, Any], site: Site, pointer: str) -> Iterator[Check]:
        """One switch on the JSON type, each type with its family's keywords."""
        declared = schema.get("type")
        types = [declared] if isinstance(declared, str) else declared
        families: dict[str, tuple[Check, ...]] = {}
        branches: list[TypeBranch] = []
        for name in JSON_TYPES:
            if types is not None and name not in types:
                continue
            family = _KEYWORD_FAMILY.get(name, name)
            if family not in families:
                families[family] = tuple(self.keywords(family, schema, site, pointer))
            checks = families[family]
            if types is None and not checks:
                continue
            if branches and branches[-1].checks == checks:
                branches[-1] = TypeBranch((*branches[-1].types, name), checks)
            else:
                branches.append(TypeBranch((name,), checks))
        if types is None and not any(branch.checks for branch in branches):
            return
        otherwise = None
        if types is not None:
            names = " or ".join(shown for name, shown in JSON_TYPES.items() if name in types)
            otherwise = self.fail(site, "type", f"must be {names}")
        yield TypeSwitch(site.var, tuple(branches), otherwise)

    def keywords(
        self, family: str, schema: dict[str, Any], site: Site, pointer: str
    ) -> Iterator[Check]:
        """Checks of the keywords that apply to values of the JSON type ``family``."""
        for keyword, (applies_to, operator, words, noun) in SIZE_RULES.items():
            if keyword in schema and applies_to == family:
                count = schema[keyword]
                detail = words.format(plural(count, noun))
                yield Size(site.var, operator, count, self.fail(site, keyword, detail))
        if family == "number":
            yield from self.numbers(schema, site)
        elif family == "string" and "pattern" in schema:
            source = self.pattern(schema["pattern"], pointer + "/pattern")
            yield Pattern(site.var, source, self.fail(site, "pattern", f"must match {source}"))
        elif family == "array":
            yield from self.array(schema, site, pointer)
        elif family == "object":
            yield from self.obj(schema, site, pointer)

    def numbers(self, schema: dict[str, Any], site: Site) -> Iterator[Check]:
        for keyword, (operator, words) in BOUNDS.items():
            if keyword in schema:
                bound = schema[keyword]
                fail = self.fail(site, keyword, words.format(bound))
                yield NumberBound(site.var, operator, bound, fail)
        if "multipleOf" in schema:
            divisor = schema["multipleOf"]
            fail = self.fail(site, "multipleOf", f"must be a multiple of {divisor}")
            yield MultipleOf(site.var, divisor, fail)

    def array(self, schema: dict[str, Any], site: Site, pointer: str) -> Iterator[Check]:
        depth = site.depth
        if schema.get("uniqueItems") is True:
            yield Unique(site.var, self.fail(site, "uniqueItems", "must not hold duplicate items"))
        prefix = schema.get("prefixItems", [])
        item_var, index = Var("item", depth), Var("index", depth)
        for position, subschema in enumerate(prefix):
            at = site.at(item_var, site.pointer.below(str(position)))
            checks = tuple(self.value(subschema, at, f"{pointer}/prefixItems/{position}"))
            if checks:
                yield ItemAt(site.var, position, item_var, checks)
        items = schema.get("items", True)
        item = site.at(item_var, site.pointer.below(index))
        checks = tuple(self.value(items, item, f"{pointer}/items"))
        if items is False:
            detail = f"must hold at most {plural(len(prefix), 'item')}"
            yield Size(site.var, ">", len(prefix), self.fail(site, "items", detail))
        elif checks:
            yield EachItem(site.var, len(prefix), index, item_var, checks)
        if "contains" in schema:
            test = self.subschema(schema["contains"], item_var, f"{pointer}/contains")
            least, most = schema.get("minContains", 1), schema.get("maxContains")
            fail_least = self.fail(
                site, "contains", f"must hold at least {plural(least, 'matching item')}"
            )
            fail_most = None
            if most is not None:
                detail = f"must hold at most {plural(most, 'matching item')}"
                fail_most = self.fail(site, "maxContains", detail)
            count = Var("count", depth)
            yield Contains(site.var, item_var, count, test, least, most, fail_least, fail_most)

    def obj(self, schema: dict[str, Any], site: Site, pointer: str) -> Iterator[Check]:
        for name in schema.get("required", []):
            at = replace(site, pointer=site.pointer.below(json_pointer.token(name)))
            yield Required(site.var, name, self.fail(at, "required", "is required"))
        for name, needs in schema.get("dependentRequired", {}).items():
            for needed in needs:
                at = replace(site, pointer=site.pointer.below(json_pointer.token(needed)))
                detail = f"is required when {name} is present"
                yield DependentRequired(
                    site.var, name, needed, self.fail(at, "dependentRequired", detail)
                )
        for name, subschema in schema.get("dependentSchemas", {}).items():
            where = f"{pointer}/dependentSchemas/{json_pointer.token(name)}"
            checks = tuple(self.value(subschema, site, where))
            if checks:
                yield IfPresent(site.var, name, checks)
        member = Var("member", site.depth)
        for name, subschema in schema.get("properties", {}).items():
            at = site.at(member, site.pointer.below(json_pointer.token(name)))
            where = f"{pointer}/properties/{json_pointer.token(name)}"
            checks = tuple(self.value(subschema, at, where))
            if checks:
                yield Member(site.var, name, member, checks)
        yield from self.members(schema, site, pointer)

    def members(self, schema: dict[str, Any], site: Site, pointer: str) -> Iterator[Check]:
        """patternProperties, additionalProperties and propertyNames: a loop over the members."""
        patterns: dict[str, Any] = schema.get("patternProperties", {})
        additional = schema.get("additionalProperties", True)
        names = schema.get("propertyNames", True)
        depth = site.depth
        key, member = Var("key", depth), Var("member", depth)
        at = site.at(member, site.pointer.below(key))
        key_checks = tuple(self.value(names, replace(at, var=key), f"{pointer}/propertyNames"))
        compiled: list[MemberPattern] = []
        for source, subschema in patterns.items():
            where = f"{pointer}/patternProperties/{json_pointer.token(source)}"
            self.pattern(source, where)
            compiled.append(MemberPattern(source, tuple(self.value(subschema, at, where))))
        rest = None
        if additional is not True:
            known = tuple(schema.get("properties", {}))
            if additional is False:
                allowed = ", ".join(known)
                detail = (
                    f"is not allowed: the only members are {allowed}"
                    if known and not patterns
                    else "is not allowed"
                )
                checks: tuple[Check, ...] = (self.fail(at, "additionalProperties", detail),)
            else:
                checks = tuple(self.value(additional, at, f"{pointer}/additionalProperties"))
            rest = Additional(known, checks) if checks else None
        if key_checks or any(pattern.checks for pattern in compiled) or rest:
            yield EachMember(site.var, key, member, key_checks, tuple(compiled), rest)

    def any_type(self, schema: dict[str, Any], site: Site, pointer: str) -> Iterator[Check]:
        """Keywords that apply whatever the type: enum, const, $ref, the applicators."""
        if "enum" in schema:
            values = tuple(schema["enum"])
            shown = ", ".join(json.dumps(item, ensure_ascii=False) for item in values)
            yield Enum(site.var, values, self.fail(site, "enum", f"must be one of {shown}"))
        if "const" in schema:
            shown = json.dumps(schema["const"], ensure_ascii=False)
            yield Const(site.var, schema["const"], self.fail(site, "const", f"must be {shown}"))
        if "$ref" in schema:
            target = self.ref(schema["$ref"], pointer + "/$ref", site.description)
            yield RefCall(site.var, site.pointer, target)
        for index, subschema in enumerate(schema.get("allOf", [])):
            yield from self.value(subschema, site, f"{pointer}/allOf/{index}")
        for keyword, mode, detail in COUNTS:
            if keyword in schema:
                alternatives = tuple(
                    self.subschema(sub, site.var, f"{pointer}/{keyword}/{index}")
                    for index, sub in enumerate(schema[keyword])
                )
                fail = self.fail(site, keyword, detail)
                yield Count(site.var, mode, alternatives, fail)
        if "not" in schema:
            test = self.subschema(schema["not"], site.var, f"{pointer}/not")
            yield Not(site.var, test, self.fail(site, "not", "must not match the not schema"))
        if "if" in schema:
            test = self.subschema(schema["if"], site.var, f"{pointer}/if")
            then = tuple(self.value(schema.get("then", True), site, f"{pointer}/then"))
            otherwise = tuple(self.value(schema.get("else", True), site, f"{pointer}/else"))
            if then or otherwise:
                yield Conditional(site.var, test, then, otherwise)

    # -- the document -------------------------------------------------------------------

    def document(self) -> Iterator[Check]:
        """The payload's checks: each top-level member's own description and messages
        follow its rules, and a required member's absence is told with them."""
        self.check_refusals(self.root)
        schema = {key: value for key, value in self.root.items() if key != "type"}
        payload = Var("payload", 0)
        site = Site(payload, Pointer(False), 0, "", {})
        properties: dict[str, Any] = schema.pop("properties", {})
        required = schema.pop("required", [])
        for name in required:
            if name not in properties:
                at = replace(site, pointer=Pointer(False, (json_pointer.token(name),)))
                yield Required(payload, name, self.fail(at, "required", "is required"))
        for name, subschema in properties.items():
            described = isinstance(subschema, dict)
            description = subschema.get("description", "") if described else ""
            where = f"/properties/{json_pointer.token(name)}"
            words = self.messages(subschema, where) if described else {}
            pointer = Pointer(False, (json_pointer.token(name),))
            at = Site(Var("value", 1), pointer, 1, description, words)
            checks = tuple(self.value(subschema, at, where))
            absent = self.fail(at, "required", "is required") if name in required else None
            if checks or absent:
                yield Member(payload, name, at.var, checks, absent)
        rest = dict(schema)
        rest["properties"] = dict.fromkeys(properties, True)
        yield from self.members(rest, site, "")
        for keyword in ("patternProperties", "additionalProperties", "propertyNames", "properties"):
            rest.pop(keyword, None)
        yield from self.keywords("object", rest, site, "")
        yield from self.any_type(schema, site, "")


def compile_document(file_name: str, schema: dict[str, Any], target: str) -> Document:
    """A kind's or the reply's schema (an object at the root) as checks on the payload.

    Raises SourceError naming ``file_name``, the pointer, the keyword and ``target``
    for anything ``target`` does not compile.
    """
    compiler = _Compiler(file_name, schema, target)
    checks = tuple(compiler.document())
    return Document(file_name, Var("payload", 0), checks, compiler.refs)


def compile_schema(file_name: str, schema: object, target: str) -> Document:
    """Any schema (any root) as checks on a function's argument; for suites of schemas."""
    compiler = _Compiler(file_name, schema if isinstance(schema, dict) else {}, target)
    compiler.check_refusals(schema)
    site = Site.argument()
    checks = tuple(compiler.value(schema, site, ""))
    return Document(file_name, site.var, checks, compiler.refs)
