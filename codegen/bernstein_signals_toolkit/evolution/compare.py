"""Walk two loaded vocabularies and name every change per kind and JSON pointer.

Each change is judged by one rule of :mod:`.rules`. The walk follows schema
keywords whose effect on validity is monotone (a looser subschema in
``properties``, ``items``, ``allOf``... makes the whole looser); everywhere
else (``not``, ``if``, ``oneOf``, ``$ref``, ``pattern``...) a difference is
"changed" and counts as breaking on both sides.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from lark import Lark
from lark.exceptions import LarkError

from ..ecma_regex import EcmaPatternError, translate
from ..keywords import Support, support
from ..model import JSONValue, SchemaDocument, Vocabulary
from .rules import Bump, Category, Rule, rule

__all__ = [
    "GRAMMAR_WHERE",
    "RENAMED_FROM",
    "REPLY_WHERE",
    "VOCABULARY_WHERE",
    "Change",
    "compare_grammars",
    "compare_schemas",
    "compare_vocabularies",
]

RENAMED_FROM: Final = "x-bernstein-renamed-from"
"""On a field: the name it had before, so that ``diff`` reports a rename."""

REPLY_WHERE: Final = "reply"
GRAMMAR_WHERE: Final = "grammar"
VOCABULARY_WHERE: Final = "vocabulary"

_KIND_KEYWORDS: Final = frozenset({"x-bernstein-kind", "x-bernstein-terminal"})
"""Judged by the kind rules, not as schema annotations."""

_SKIPPED: Final = _KIND_KEYWORDS | {RENAMED_FROM}
"""The rename hint is reported as the rename itself."""

_LOWER_BOUNDS: Final = (
    "minLength",
    "minItems",
    "minProperties",
    "minContains",
    "minimum",
    "exclusiveMinimum",
)
_UPPER_BOUNDS: Final = (
    "maxLength",
    "maxItems",
    "maxProperties",
    "maxContains",
    "maximum",
    "exclusiveMaximum",
)
_MONOTONE_ONE: Final = ("items", "contains", "propertyNames")
"""Keywords holding one subschema whose looseness the whole inherits."""
_MONOTONE_LISTS: Final = ("allOf", "anyOf", "prefixItems")
_OBJECT_KEYWORDS: Final = frozenset({"properties", "required", "additionalProperties"})
_ALL_TYPES: Final = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})


@dataclass(frozen=True)
class Change:
    """One change: where it is, the rule that judges it, and the verdict per side."""

    rule: Rule
    where: str
    """The kind (``QUESTION``), or ``reply``, ``grammar``, ``vocabulary``."""
    file: str
    """The source file, relative to its folder (``question.schema.json``)."""
    pointer: str
    """A JSON pointer into that file (into OLD's file for what NEW no longer has)."""
    message: str
    swapped: bool = False
    """The reply: adapters read it, so the rule's two columns trade places."""

    @property
    def producers(self) -> Category:
        return self.rule.consumers if self.swapped else self.rule.producers

    @property
    def consumers(self) -> Category:
        return self.rule.producers if self.swapped else self.rule.consumers

    @property
    def bump(self) -> Bump:
        return self.rule.bump


def _step(pointer: str, name: str | int) -> str:
    return f"{pointer}/{str(name).replace('~', '~0').replace('/', '~1')}"


_LINE_BREAKS: Final = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
"""What JSON leaves raw but ``str.splitlines`` (and so many readers) breaks at."""


def _show(value: JSONValue) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True).translate(_LINE_BREAKS)
    return text if len(text) <= 60 else text[:57] + "..."


def _show_type(value: JSONValue) -> str:
    return "(any)" if value is _ABSENT else _show(value)


def _canonical(value: JSONValue) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


_ABSENT: Final = object()
"""A keyword the schema does not have (``None`` would be JSON null)."""

Emit = Callable[[str, str, str], None]
"""(rule id, pointer, message)."""


class _Walk:
    """Compare two schema trees; report through ``emit``."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit

    def node(self, old: JSONValue, new: JSONValue, pointer: str) -> None:
        old, new = ({} if old is True else old), ({} if new is True else new)  # the same schema
        if _canonical(old) == _canonical(new):
            return
        if old is False or new is False:  # false accepts nothing
            verdict = "constraint-tightened" if new is False else "constraint-loosened"
            self._emit(verdict, pointer, f"{pointer or '/'}: {_show(old)} -> {_show(new)}")
            return
        if not isinstance(old, dict) or not isinstance(new, dict):
            self._emit("constraint-changed", pointer, "the schema changed shape")
            return
        self._keywords(old, new, pointer)

    def _keywords(self, old: dict[str, Any], new: dict[str, Any], pointer: str) -> None:
        if _OBJECT_KEYWORDS & (old.keys() | new.keys()):
            self._object(old, new, pointer)
        for keyword in sorted(old.keys() | new.keys()):
            if keyword in _OBJECT_KEYWORDS or keyword in _SKIPPED:
                continue
            before, after = old.get(keyword, _ABSENT), new.get(keyword, _ABSENT)
            if (
                before is not _ABSENT
                and after is not _ABSENT
                and _canonical(before) == _canonical(after)
            ):
                continue
            at = _step(pointer, keyword)
            if support(keyword, "python") is Support.ANNOTATION:
                self._emit("annotation-changed", at, f"{keyword} changed")
            elif keyword == "type":
                self._type(before, after, at)
            elif keyword in _LOWER_BOUNDS or keyword in _UPPER_BOUNDS:
                self._bound(keyword, before, after, at)
            elif keyword in _MONOTONE_ONE:
                self._absent_or(keyword, before, after, at, partial(self.node, before, after, at))
            elif (
                keyword in _MONOTONE_LISTS
                and isinstance(before, list)
                and isinstance(after, list)
                and len(before) == len(after)
            ):
                for index, (one, other) in enumerate(zip(before, after, strict=True)):
                    self.node(one, other, _step(at, index))
            else:
                self._value(keyword, before, after, at)

    def _absent_or(
        self,
        keyword: str,
        before: JSONValue,
        after: JSONValue,
        at: str,
        both: Callable[[], None],
    ) -> None:
        if before is _ABSENT:
            self._emit("constraint-tightened", at, f"{keyword} added: {_show(after)}")
        elif after is _ABSENT:
            self._emit("constraint-loosened", at, f"{keyword} removed (was {_show(before)})")
        else:
            both()

    def _type(self, before: JSONValue, after: JSONValue, at: str) -> None:
        old, new = _accepted_types(before), _accepted_types(after)
        if old == new:
            return
        detail = f"type {_show_type(before)} -> {_show_type(after)}"
        if new < old:
            self._emit("type-narrowed", at, detail)
        elif new > old:
            self._emit("type-widened", at, detail)
        else:
            self._emit("type-changed", at, detail)

    def _bound(self, keyword: str, before: JSONValue, after: JSONValue, at: str) -> None:
        def ordered() -> None:
            if not _is_number(before) or not _is_number(after):
                self._emit("constraint-changed", at, f"{keyword} {_show(before)} -> {_show(after)}")
                return
            lower = keyword in _LOWER_BOUNDS
            tighter = after > before if lower else after < before
            verdict = "constraint-tightened" if tighter else "constraint-loosened"
            self._emit(verdict, at, f"{keyword} {_show(before)} -> {_show(after)}")

        self._absent_or(keyword, before, after, at, ordered)

    def _value(self, keyword: str, before: JSONValue, after: JSONValue, at: str) -> None:
        def both() -> None:
            verdict = _ordered_value(keyword, before, after)
            if verdict == "same":
                return
            detail = f"{keyword} {_show(before)} -> {_show(after)}"
            self._emit(f"constraint-{verdict}", at, detail)

        if keyword == "uniqueItems":  # false is the same as absent
            before, after = before is True, after is True
            if before == after:
                return
            verdict = "tightened" if after else "loosened"
            self._emit(f"constraint-{verdict}", at, f"uniqueItems {before} -> {after}".lower())
            return
        self._absent_or(keyword, before, after, at, both)

    # -- objects: fields added, removed, renamed; required; extras -------------

    def _object(self, old: dict[str, Any], new: dict[str, Any], pointer: str) -> None:
        old_props = _members(old.get("properties"))
        new_props = _members(new.get("properties"))
        old_required = _names(old.get("required"))
        new_required = _names(new.get("required"))
        renamed = _renames(old_props, new_props)
        sources = set(renamed.values())
        for name in old_props:
            if name not in new_props and name not in sources:
                self._removed(
                    name, name in old_required, new, _step(_step(pointer, "properties"), name)
                )
        for name in new_props:
            at = _step(_step(pointer, "properties"), name)
            if name in renamed:
                before = renamed[name]
                self._emit("field-renamed", at, f"field {before!r} renamed to {name!r}")
                self._required(name, before in old_required, name in new_required, at)
                self.node(old_props[before], new_props[name], at)
            elif name not in old_props:
                self._added(name, name in new_required, old, at)
            else:
                self._required(name, name in old_required, name in new_required, at)
                self.node(old_props[name], new_props[name], at)
        self._bare_required(old_props, new_props, old_required, new_required, pointer)
        if not pointer:  # the document's own required list orders the helpers' arguments
            self._order(old.get("required"), new.get("required"), renamed)
        before = old.get("additionalProperties", True)
        after = new.get("additionalProperties", True)
        self.node(before, after, _step(pointer, "additionalProperties"))

    def _order(self, before: JSONValue, after: JSONValue, renamed: dict[str, str]) -> None:
        if not isinstance(before, list) or not isinstance(after, list):
            return
        old_names = {renamed.get(name, name) for name in after}
        kept_old = [name for name in before if name in old_names]
        kept_new = [renamed.get(name, name) for name in after if renamed.get(name, name) in before]
        if kept_old != kept_new:
            self._emit(
                "field-order-changed",
                "/required",
                f"required fields reordered: {_show(before)} -> {_show(after)}",
            )

    def _added(self, name: str, required: bool, old: dict[str, Any], at: str) -> None:
        model = _content_model(old)
        base = "field-added-required" if required else "field-added-optional"
        text = f"{'required' if required else 'optional'} field {name!r} added"
        if model == "open" and not required:
            text += f"; adapters built before may already send {name!r} as an extra of any type"
        self._emit(base + _MODEL_SUFFIX[model], at, text)

    def _removed(self, name: str, required: bool, new: dict[str, Any], at: str) -> None:
        model = _content_model(new)
        base = "field-removed-required" if required else "field-removed-optional"
        text = f"{'required' if required else 'optional'} field {name!r} removed"
        if model == "open" and not required:
            text += f"; adapters built after may send {name!r} as an extra of any type"
        self._emit(base + _MODEL_SUFFIX[model], at, text)

    def _required(self, name: str, before: bool, after: bool, at: str) -> None:
        if before and not after:
            self._emit("field-made-optional", at, f"field {name!r} is no longer required")
        elif after and not before:
            self._emit("field-made-required", at, f"field {name!r} is now required")

    def _bare_required(
        self,
        old_props: dict[str, JSONValue],
        new_props: dict[str, JSONValue],
        old_required: set[str],
        new_required: set[str],
        pointer: str,
    ) -> None:
        """``required`` names without a ``properties`` entry on either side."""
        at = _step(pointer, "required")
        for name in sorted(new_required - old_required):
            if name not in new_props:
                self._emit("constraint-tightened", at, f"{name!r} is now required")
        for name in sorted(old_required - new_required):
            if name not in old_props and name not in new_props:
                self._emit("constraint-loosened", at, f"{name!r} is no longer required")


_MODEL_SUFFIX: Final = {"open": "", "closed": "-closed", "constrained": "-constrained"}


def _content_model(schema: dict[str, Any]) -> str:
    extras = schema.get("additionalProperties", True)
    if extras is True or extras == {}:
        return "open"
    return "closed" if extras is False else "constrained"


def _members(value: JSONValue) -> dict[str, JSONValue]:
    return dict(value) if isinstance(value, dict) else {}


def _names(value: JSONValue) -> set[str]:
    return {name for name in value if isinstance(name, str)} if isinstance(value, list) else set()


def _renames(old: dict[str, JSONValue], new: dict[str, JSONValue]) -> dict[str, str]:
    """new name -> old name, for hints naming a field OLD had and NEW no longer has."""
    result: dict[str, str] = {}
    taken: set[str] = set()
    for name, schema in new.items():
        hint = schema.get(RENAMED_FROM) if isinstance(schema, dict) else None
        if (
            isinstance(hint, str)
            and hint in old
            and hint not in new
            and name not in old
            and hint not in taken
        ):
            result[name] = hint
            taken.add(hint)
    return result


def _is_number(value: JSONValue) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _accepted_types(value: JSONValue) -> frozenset[str]:
    if value is _ABSENT:
        return _ALL_TYPES
    names = {value} if isinstance(value, str) else set(value) if isinstance(value, list) else set()
    if "number" in names:
        names.add("integer")
    return frozenset(name for name in names if isinstance(name, str))


def _same_pattern(before: str, after: str) -> bool:
    """Two spellings of one ECMA-262 pattern (``\\/`` and ``/``): the same translation."""
    try:
        return translate(before) == translate(after)
    except EcmaPatternError:
        return False


def _ordered_value(keyword: str, before: JSONValue, after: JSONValue) -> str:
    """tightened, loosened, changed, or the same (values spelled differently)."""
    if keyword == "enum" and isinstance(before, list) and isinstance(after, list):
        old, new = {_canonical(v) for v in before}, {_canonical(v) for v in after}
        if new == old:
            return "same"
        if new <= old:
            return "tightened"
        if new >= old:
            return "loosened"
    if keyword == "pattern" and isinstance(before, str) and isinstance(after, str):
        return "same" if _same_pattern(before, after) else "changed"
    if keyword == "multipleOf" and _is_number(before) and _is_number(after):
        if after / before == int(after / before):  # every multiple of NEW is one of OLD
            return "tightened"
        if before / after == int(before / after):
            return "loosened"
    if keyword == "dependentRequired" and isinstance(before, dict) and isinstance(after, dict):
        old_pairs = {(k, n) for k, v in before.items() if isinstance(v, list) for n in v}
        new_pairs = {(k, n) for k, v in after.items() if isinstance(v, list) for n in v}
        if new_pairs == old_pairs:
            return "same"
        if new_pairs >= old_pairs:
            return "tightened"
        if new_pairs <= old_pairs:
            return "loosened"
    return "changed"


def compare_schemas(
    old: JSONValue, new: JSONValue, *, where: str, file: str, swapped: bool = False
) -> list[Change]:
    """Every change between two schema documents, judged for producers and consumers."""
    changes: list[Change] = []

    def emit(rule_id: str, pointer: str, message: str) -> None:
        changes.append(Change(rule(rule_id), where, file, pointer, message, swapped))

    _Walk(emit).node(old, new, "")
    return changes


def _document(old: SchemaDocument, new: SchemaDocument, where: str, swapped: bool) -> list[Change]:
    return compare_schemas(old.schema, new.schema, where=where, file=new.file_name, swapped=swapped)


def _grammar_shape(text: str) -> tuple[dict[str, str], list[str]]:
    """Terminals (name -> pattern) and rules of a grammar, comments and layout aside."""
    try:
        parser = Lark(text, parser="lalr")
    except LarkError:  # the loader already accepted it; a failure here is a changed grammar
        return {}, [text]
    terminals = {t.name: f"{t.pattern!r} priority {t.priority}" for t in parser.terminals}
    return terminals, sorted(repr(r) for r in parser.rules)


def compare_grammars(old: Vocabulary, new: Vocabulary) -> Iterator[Change]:
    """PREFIX, KIND and everything else of the wire grammar."""
    name = new.grammar.file_name

    def change(rule_id: str, pointer: str, message: str) -> Change:
        return Change(rule(rule_id), GRAMMAR_WHERE, name, pointer, message)

    if old.grammar.prefix != new.grammar.prefix:
        yield change(
            "grammar-prefix-changed",
            "/PREFIX",
            f"PREFIX {old.grammar.prefix!r} -> {new.grammar.prefix!r}",
        )
    if old.grammar.kind_pattern != new.grammar.kind_pattern:
        yield change(
            "grammar-kind-changed",
            "/KIND",
            f"KIND /{old.grammar.kind_pattern}/ -> /{new.grammar.kind_pattern}/",
        )
    if old.grammar.text == new.grammar.text:
        return
    old_terms, old_rules = _grammar_shape(old.grammar.text)
    new_terms, new_rules = _grammar_shape(new.grammar.text)
    for terminal in sorted((old_terms.keys() | new_terms.keys()) - {"PREFIX", "KIND"}):
        if old_terms.get(terminal) != new_terms.get(terminal):
            yield change("grammar-changed", f"/{terminal}", f"terminal {terminal} changed")
    if old_rules != new_rules:
        yield change("grammar-changed", "/rules", "the grammar's rules changed")


def compare_vocabularies(old: Vocabulary, new: Vocabulary) -> list[Change]:
    """Every change from OLD to NEW: vocabulary text, grammar, kinds, then the reply."""
    changes: list[Change] = []
    for field in ("name", "description"):
        if getattr(old, field) != getattr(new, field):
            changes.append(
                Change(
                    rule("annotation-changed"),
                    VOCABULARY_WHERE,
                    "vocabulary.json",
                    f"/{field}",
                    f"vocabulary {field} changed",
                )
            )
    changes.extend(compare_grammars(old, new))
    old_kinds = {kind.name: kind for kind in old.kinds}
    new_kinds = {kind.name: kind for kind in new.kinds}
    for name in sorted(old_kinds.keys() | new_kinds.keys()):
        before, after = old_kinds.get(name), new_kinds.get(name)
        if after is None:
            assert before is not None
            changes.append(
                Change(rule("kind-removed"), name, before.file_name, "", f"kind {name} removed")
            )
        elif before is None:
            rule_id = "kind-added-terminal" if after.terminal else "kind-added"
            terminal = "terminal " if after.terminal else ""
            changes.append(
                Change(rule(rule_id), name, after.file_name, "", f"{terminal}kind {name} added")
            )
        else:
            if before.terminal != after.terminal:
                state = "terminal" if after.terminal else "not terminal"
                changes.append(
                    Change(
                        rule("kind-terminal-changed"),
                        name,
                        after.file_name,
                        "/x-bernstein-terminal",
                        f"kind {name} is now {state}",
                    )
                )
            changes.extend(_document(before, after, name, swapped=False))
    changes.extend(_document(old.reply, new.reply, REPLY_WHERE, swapped=True))
    return changes
