"""The walk over two schema trees: which keyword changes loosen, tighten or change a schema.

It follows keywords whose effect on validity is monotone (a looser subschema in
``properties``, ``items``, ``allOf``... makes the whole looser); everywhere else
(``not``, ``if``, ``oneOf``, ``$ref``...) a difference is "changed", which counts
as breaking on both sides. It reports rule ids; :mod:`.compare` turns them into
changes.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from functools import partial
from typing import Final, TypeAlias

from bernstein_signals_toolkit.generator.ecma_regex import EcmaPatternError, translate
from bernstein_signals_toolkit.generator.json_pointer import child as step
from bernstein_signals_toolkit.generator.keywords import Support, support
from bernstein_signals_toolkit.generator.model import JSONValue

__all__ = ["RENAMED_FROM", "Emit", "SchemaWalk"]

RENAMED_FROM: Final = "x-bernstein-renamed-from"
"""On a field: the name it had before, so that ``diff`` reports a rename."""

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
_MODEL_SUFFIX: Final = {"open": "", "closed": "-closed", "constrained": "-constrained"}
_LINE_BREAKS: Final = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
"""What JSON leaves raw but ``str.splitlines`` (and so many readers) breaks at."""


class _Absent(enum.Enum):
    """A keyword the schema does not have (``None`` would be JSON null)."""

    ABSENT = enum.auto()


_ABSENT: Final = _Absent.ABSENT

Value: TypeAlias = "JSONValue | _Absent"
"""A keyword's value in one of the two schemas, or its absence."""

Emit = Callable[[str, str, str], None]
"""(rule id, pointer, message)."""


def _show(value: Value) -> str:
    if value is _ABSENT:
        return "(any)"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True).translate(_LINE_BREAKS)
    return text if len(text) <= 60 else text[:57] + "..."


def _canonical(value: Value) -> str:
    return "" if value is _ABSENT else json.dumps(value, sort_keys=True, ensure_ascii=False)


def _number(value: Value) -> int | float | None:
    """The value if it is a JSON number (``true`` is not one)."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


class SchemaWalk:
    """Compare two schema trees; report every difference through ``emit``."""

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

    def _keywords(self, old: dict[str, JSONValue], new: dict[str, JSONValue], pointer: str) -> None:
        if _OBJECT_KEYWORDS & (old.keys() | new.keys()):
            self._object(old, new, pointer)
        for keyword in sorted(old.keys() | new.keys()):
            if keyword in _OBJECT_KEYWORDS or keyword in _SKIPPED:
                continue
            before: Value = old.get(keyword, _ABSENT)
            after: Value = new.get(keyword, _ABSENT)
            if before is not _ABSENT and _canonical(before) == _canonical(after):
                continue
            at = step(pointer, keyword)
            if support(keyword, "python") is Support.ANNOTATION:
                self._emit("annotation-changed", at, f"{keyword} changed")
            elif keyword == "type":
                self._type(before, after, at)
            elif keyword in _LOWER_BOUNDS or keyword in _UPPER_BOUNDS:
                self._bound(keyword, before, after, at)
            elif keyword in _MONOTONE_ONE:
                self._absent_or(keyword, before, after, at, partial(self._both, before, after, at))
            elif (
                keyword in _MONOTONE_LISTS
                and isinstance(before, list)
                and isinstance(after, list)
                and len(before) == len(after)
            ):
                for index, (one, other) in enumerate(zip(before, after, strict=True)):
                    self.node(one, other, step(at, index))
            else:
                self._value(keyword, before, after, at)

    def _both(self, before: Value, after: Value, at: str) -> None:
        """Walk into one subschema present on both sides."""
        if before is not _ABSENT and after is not _ABSENT:
            self.node(before, after, at)

    def _absent_or(
        self, keyword: str, before: Value, after: Value, at: str, both: Callable[[], None]
    ) -> None:
        if before is _ABSENT:
            self._emit("constraint-tightened", at, f"{keyword} added: {_show(after)}")
        elif after is _ABSENT:
            self._emit("constraint-loosened", at, f"{keyword} removed (was {_show(before)})")
        else:
            both()

    def _type(self, before: Value, after: Value, at: str) -> None:
        old, new = _accepted_types(before), _accepted_types(after)
        if old == new:
            return
        detail = f"type {_show(before)} -> {_show(after)}"
        if new < old:
            self._emit("type-narrowed", at, detail)
        elif new > old:
            self._emit("type-widened", at, detail)
        else:
            self._emit("type-changed", at, detail)

    def _bound(self, keyword: str, before: Value, after: Value, at: str) -> None:
        def ordered() -> None:
            old, new = _number(before), _number(after)
            detail = f"{keyword} {_show(before)} -> {_show(after)}"
            if old is None or new is None:
                self._emit("constraint-changed", at, detail)
                return
            tighter = new > old if keyword in _LOWER_BOUNDS else new < old
            self._emit("constraint-tightened" if tighter else "constraint-loosened", at, detail)

        self._absent_or(keyword, before, after, at, ordered)

    def _value(self, keyword: str, before: Value, after: Value, at: str) -> None:
        if keyword == "uniqueItems":  # false is the same as absent
            was, now = before is True, after is True
            if was != now:
                verdict = "tightened" if now else "loosened"
                detail = f"uniqueItems {json.dumps(was)} -> {json.dumps(now)}"
                self._emit(f"constraint-{verdict}", at, detail)
            return

        def both() -> None:
            verdict = _ordered_value(keyword, before, after)
            if verdict != "same":
                detail = f"{keyword} {_show(before)} -> {_show(after)}"
                self._emit(f"constraint-{verdict}", at, detail)

        self._absent_or(keyword, before, after, at, both)

    # -- objects: fields added, removed, renamed; required; extras -------------

    def _object(self, old: dict[str, JSONValue], new: dict[str, JSONValue], pointer: str) -> None:
        old_props = _members(old.get("properties"))
        new_props = _members(new.get("properties"))
        old_required = _names(old.get("required"))
        new_required = _names(new.get("required"))
        renamed = _renames(old_props, new_props)
        sources = set(renamed.values())
        properties = step(pointer, "properties")
        for name in old_props:
            if name not in new_props and name not in sources:
                self._removed(name, name in old_required, new, step(properties, name))
        for name in new_props:
            at = step(properties, name)
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
        extras_before = old.get("additionalProperties", True)
        extras_after = new.get("additionalProperties", True)
        self.node(extras_before, extras_after, step(pointer, "additionalProperties"))

    def _order(self, before: JSONValue, after: JSONValue, renamed: dict[str, str]) -> None:
        if not isinstance(before, list) or not isinstance(after, list):
            return
        named_before = [name for name in before if isinstance(name, str)]
        named_after = [renamed.get(name, name) for name in after if isinstance(name, str)]
        kept_old = [name for name in named_before if name in set(named_after)]
        kept_new = [name for name in named_after if name in named_before]
        if kept_old != kept_new:
            self._emit(
                "field-order-changed",
                "/required",
                f"required fields reordered: {_show(before)} -> {_show(after)}",
            )

    def _added(self, name: str, required: bool, old: dict[str, JSONValue], at: str) -> None:
        self._field("added", name, required, old, at=at, who="built before may already")

    def _removed(self, name: str, required: bool, new: dict[str, JSONValue], at: str) -> None:
        self._field("removed", name, required, new, at=at, who="built after may")

    def _field(
        self,
        event: str,
        name: str,
        required: bool,
        other: dict[str, JSONValue],
        *,
        at: str,
        who: str,
    ) -> None:
        """A field added or removed, judged by the content model of the side without it."""
        model = _content_model(other)
        presence = "required" if required else "optional"
        text = f"{presence} field {name!r} {event}"
        if model == "open" and not required:
            text += f"; adapters {who} send {name!r} as an extra of any type"
        self._emit(f"field-{event}-{presence}{_MODEL_SUFFIX[model]}", at, text)

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
        at = step(pointer, "required")
        for name in sorted(new_required - old_required):
            if name not in new_props:
                self._emit("constraint-tightened", at, f"{name!r} is now required")
        for name in sorted(old_required - new_required):
            if name not in old_props and name not in new_props:
                self._emit("constraint-loosened", at, f"{name!r} is no longer required")


def _content_model(schema: dict[str, JSONValue]) -> str:
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


def _accepted_types(value: Value) -> frozenset[str]:
    if value is _ABSENT:
        return _ALL_TYPES
    listed = value if isinstance(value, list) else [value]
    names = {name for name in listed if isinstance(name, str)}
    if "number" in names:
        names.add("integer")
    return frozenset(names)


def _same_pattern(before: str, after: str) -> bool:
    """Two spellings of one ECMA-262 pattern (``\\/`` and ``/``): the same translation."""
    try:
        return translate(before) == translate(after)
    except EcmaPatternError:
        return False


def _ordered_value(keyword: str, before: Value, after: Value) -> str:
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
    old_step, new_step = _number(before), _number(after)
    if keyword == "multipleOf" and old_step and new_step:
        if new_step / old_step == int(new_step / old_step):  # every multiple of NEW is one of OLD
            return "tightened"
        if old_step / new_step == int(old_step / new_step):
            return "loosened"
    if keyword == "dependentRequired" and isinstance(before, dict) and isinstance(after, dict):
        old_pairs = _pairs(before)
        new_pairs = _pairs(after)
        if new_pairs == old_pairs:
            return "same"
        if new_pairs >= old_pairs:
            return "tightened"
        if new_pairs <= old_pairs:
            return "loosened"
    return "changed"


def _pairs(dependencies: dict[str, JSONValue]) -> set[tuple[str, str]]:
    return {
        (key, name)
        for key, names in dependencies.items()
        if isinstance(names, list)
        for name in names
        if isinstance(name, str)
    }
