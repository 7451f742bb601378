"""What the shell checks of a value: each schema keyword compiled to a shell test.

What the shell compiles is the ``shell`` column of ``keywords.KEYWORDS``; a field
whose schema uses anything else, or a value the shell cannot check faithfully,
raises :class:`PythonOnly` with the reason, so no check is ever silently lost.
The signature model (:mod:`.shell_signature`) reads these rules; the shell
emitter renders them.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeGuard

from .ecma_regex import EcmaPatternError, translate
from .keywords import Support, refusals, support
from .model import JSONValue, Kind, Property
from .schema_messages import BOUNDS, SIZE_RULES, plain_messages, plural

__all__ = [
    "SDD_PATH_PATTERN",
    "UNIQUE_DETAIL",
    "Check",
    "FieldRules",
    "PythonOnly",
    "field_rules",
    "kind_refusal",
]

SDD_PATH_PATTERN = "^\\.sdd(?:/(?!\\.\\.?(?:/|$))[^/\\\\\\u0000-\\u001f]+)+$"
"""The plan-path rule of the schemas; the shell enforces it with ``_bsig_is_sdd_path``."""

_CLASS_ESCAPE = r"\\[dw]|\\[!-/:-@\[-`{-~]"
_ONE_CLASS = re.compile(
    r"\^(?P<atom>" + _CLASS_ESCAPE + r"|\[(?!\^)(?:" + _CLASS_ESCAPE + r"|[ -\[^-~])+\])"
    r"(?P<count>[?*+]|\{(?P<low>\d+)(?P<comma>,(?P<high>\d*))?\})?\$"
)
"""Patterns the shell checks besides the .sdd/ rule: one ASCII class over the whole
value, ``^[a-z0-9_-]+$``, ``^\\d{3}$``, ``^\\w*$``. The class holds ASCII
characters, ranges, ``\\d``, ``\\w`` and escaped punctuation only, so it matches no
other code point; its members are read off ``ecma_regex.translate`` itself."""
_MAX_SHELL_COUNT = 10**9
_UNTRANSLATED = (
    "its pattern has no shell translation (the shell checks the .sdd/ path rule and one"
    " ASCII class over the whole value, such as ^[a-z0-9_-]+$)"
)


UNIQUE_DETAIL = "must not hold duplicate items"
"""The binding's words for uniqueItems (schema_compiler writes the same literal; its home
should be schema_messages)."""


_SCALARS = ("string", "integer", "boolean")
_MAX_DIVISOR = 10**9
"""The largest multipleOf the shell checks (``_bsig_int_mod``: nine digits a step in 64 bits)."""
_NUMERIC = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf")
_STRING = ("minLength", "maxLength", "pattern")
_ARRAY = ("items", "minItems", "maxItems", "uniqueItems")
_OBJECT = ("properties", "required", "additionalProperties")
"""Keywords that constrain only values of one JSON type: a no-op on a field of another type."""
_BUILT = {"type", "enum", "const", *_NUMERIC, *_STRING, *_ARRAY, *_OBJECT}
"""Every keyword this module compiles when the table says the shell compiles it."""


@dataclass(frozen=True)
class Check:
    """One shell test on a value: ``HEAD VALUE ARG...`` succeeds when the value passes."""

    head: str
    """The shell function (``_bsig_len_ge``)."""
    args: tuple[str, ...]
    """Its arguments after the value, unquoted (the emitter quotes them)."""
    message: str
    """What the value must be, after its name: ``must be at least 1 character long``."""


@dataclass(frozen=True)
class FieldRules:
    """How the shell carries one field: its scalar type and the checks on it."""

    scalar: str
    """The JSON type of the value (of each item, for an array): string, integer or boolean."""
    checks: tuple[Check, ...]
    """Checks on the value (on each item, for an array)."""
    array_checks: tuple[Check, ...]
    """Checks on the item count of an array; empty for scalars."""
    unique: bool = False
    """An array whose items must differ (uniqueItems)."""
    unique_message: str = UNIQUE_DETAIL
    """What a duplicate item is told (the binding's words for uniqueItems)."""


@dataclass(frozen=True)
class PythonOnly(Exception):
    """A field the shell cannot carry: the kind's helper leaves it out."""

    reason: str


def _message(schema: dict[str, JSONValue], keyword: str, default: str) -> str:
    """The binding's words for ``keyword``: the schema's ``x-bernstein-message`` for it (or
    for all its rules), else ``default``, the binding's raw detail (schema_messages)."""
    given = plain_messages(dict(schema)) or {}
    return given.get(keyword, given.get("", default))


def _size(schema: dict[str, JSONValue], keyword: str, count: int) -> str:
    """A minLength/maxLength/minItems/maxItems message, as the binding words it."""
    _family, _operator, words, noun = SIZE_RULES[keyword]
    return _message(schema, keyword, words.format(plural(count, noun)))


def _is_number(value: JSONValue) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _choice(value: JSONValue, scalar: str) -> str | None:
    """``value`` as the shell argument that gives it, if a ``scalar`` argument can."""
    if scalar == "string":
        return value if isinstance(value, str) and "\0" not in value else None
    if scalar == "boolean":
        return ("false", "true")[value] if isinstance(value, bool) else None
    if _is_number(value) and math.isfinite(value) and value == int(value):
        return str(int(value))
    return None


def _choices(schema: dict[str, JSONValue], keyword: str, scalar: str) -> Check:
    values = schema[keyword]
    listed = values if keyword == "enum" and isinstance(values, list) else [values]
    words = [word for value in listed if (word := _choice(value, scalar)) is not None]
    if not words:
        raise PythonOnly(f"no {keyword} value can be a {scalar} argument")
    shown = ", ".join(json.dumps(value, ensure_ascii=False) for value in listed)
    default = f"must be {shown}" if keyword == "const" else f"must be one of {shown}"
    return Check("_bsig_in", tuple(dict.fromkeys(words)), _message(schema, keyword, default))


def _bound(keyword: str, value: JSONValue) -> tuple[str, int]:
    """The inclusive integer bound a number keyword sets on an integer: (test, bound)."""
    if not _is_number(value) or not math.isfinite(value):
        raise PythonOnly(f"{keyword} {value!r} is not a finite number")
    exact = Fraction(value)
    if keyword == "minimum":
        return "_bsig_int_ge", math.ceil(exact)
    if keyword == "exclusiveMinimum":
        return "_bsig_int_ge", math.floor(exact) + 1
    if keyword == "maximum":
        return "_bsig_int_le", math.floor(exact)
    return "_bsig_int_le", math.ceil(exact) - 1


def _value_checks(schema: dict[str, JSONValue], scalar: str) -> list[Check]:
    """Checks on one shell argument holding a ``scalar`` value under ``schema``."""
    checks = []
    if scalar == "integer":
        checks.append(Check("_bsig_is_int", (), _message(schema, "type", "must be an integer")))
    elif scalar == "boolean":
        checks.append(Check("_bsig_is_bool", (), _message(schema, "type", "must be true or false")))
    for key, value in schema.items():
        if key in ("enum", "const"):
            checks.append(_choices(schema, key, scalar))
        elif scalar == "integer" and key in BOUNDS:
            test, bound = _bound(key, value)
            message = _message(schema, key, BOUNDS[key][1].format(value))
            checks.append(Check(test, (str(bound),), message))
        elif scalar == "integer" and key == "multipleOf":
            if not _is_number(value) or value != int(value) or not 0 < value <= _MAX_DIVISOR:
                raise PythonOnly(f"multipleOf {value!r} is not a whole number up to {_MAX_DIVISOR}")
            message = _message(schema, key, f"must be a multiple of {value}")
            checks.append(Check("_bsig_int_mod", (str(int(value)),), message))
        elif scalar == "string" and key in ("minLength", "maxLength") and isinstance(value, int):
            test = "_bsig_len_ge" if key == "minLength" else "_bsig_len_le"
            if (key, value) != ("minLength", 0):
                checks.append(Check(test, (str(value),), _size(schema, key, value)))
        elif scalar == "string" and key == "pattern":
            message = _message(schema, key, f"must match {value}")
            checks += _pattern_checks(value, message)
    return checks


def _pattern_checks(pattern: JSONValue, message: str) -> list[Check]:
    """The shell checks for ``pattern``, or PythonOnly when it has no faithful translation."""
    if pattern == SDD_PATH_PATTERN:
        return [Check("_bsig_is_sdd_path", (), message)]
    found = _ONE_CLASS.fullmatch(pattern) if isinstance(pattern, str) else None
    try:
        atom = found and re.compile(translate(f"^{found['atom']}$"))
        translate(str(pattern))
    except EcmaPatternError:
        atom = None
    if found is None or not atom:
        raise PythonOnly(_UNTRANSLATED)
    members = "".join(chr(code) for code in range(32, 127) if atom.search(chr(code)))
    low, high = {"?": (0, 1), "*": (0, None), "+": (1, None), None: (1, 1)}.get(
        found["count"], (0, 0)
    )
    if found["low"] is not None:
        low = int(found["low"])
        high = None if found["comma"] and not found["high"] else int(found["high"] or low)
    if not members or max(low, high or 0) > _MAX_SHELL_COUNT:
        raise PythonOnly(_UNTRANSLATED)
    checks = [Check("_bsig_only", (members,), message)]
    if low:
        checks.append(Check("_bsig_len_ge", (str(low),), message))
    if high is not None:
        checks.append(Check("_bsig_len_le", (str(high),), message))
    return checks


def _scalar_type(types: list[str]) -> str:
    concrete = [t for t in types if t != "null"]
    if len(concrete) != 1 or concrete[0] not in _SCALARS:
        raise PythonOnly(f"type {types} is not a string, integer or boolean")
    return concrete[0]


def field_rules(prop: Property) -> FieldRules:
    """The shell option or argument for ``prop``, or PythonOnly saying why it has none."""
    schema = prop.schema
    for pointer, keyword, _why in refusals(schema, "shell"):
        raise PythonOnly(f"{keyword!r} at {pointer} is not compiled for the shell")
    unbuilt = sorted(
        key for key in schema if support(key, "shell") is Support.COMPILED and key not in _BUILT
    )
    if unbuilt:  # never silently dropped: tests keep _BUILT equal to the table's column
        raise PythonOnly(f"the shell emitter does not build {unbuilt[0]!r}")
    if not prop.is_array:
        scalar = _scalar_type(list(prop.types))
        return FieldRules(scalar, tuple(_value_checks(schema, scalar)), ())
    if len([t for t in prop.types if t != "null"]) != 1:
        raise PythonOnly(f"type {list(prop.types)} mixes an array with another type")
    if "enum" in schema or "const" in schema:
        raise PythonOnly("enum or const of whole arrays")
    items = schema.get("items")
    if not isinstance(items, dict):
        raise PythonOnly("an array without an 'items' schema")
    item_type = items.get("type")
    scalar = _scalar_type([item_type] if isinstance(item_type, str) else ["(none)"])
    array_checks = []
    for key in ("minItems", "maxItems"):
        count = schema.get(key)
        if isinstance(count, int) and not isinstance(count, bool):
            test = "_bsig_int_ge" if key == "minItems" else "_bsig_int_le"
            array_checks.append(Check(test, (str(count),), _size(schema, key, count)))
    unique = schema.get("uniqueItems") is True
    duplicate = _message(schema, "uniqueItems", UNIQUE_DETAIL)
    checks = tuple(_value_checks(items, scalar))
    return FieldRules(scalar, checks, tuple(array_checks), unique, duplicate)


def kind_refusal(kind: Kind) -> str:
    """Why no shell helper can build a valid payload of ``kind`` ('' when one can)."""
    # Kind-level rules other than the members: the helper writes only declared
    # members, so additionalProperties holds whatever it says; $defs asserts
    # nothing itself (a member that refers into it is Python-only by its $ref).
    outside = ("properties", "additionalProperties", "$defs")
    rest = {k: v for k, v in kind.schema.items() if k not in outside}
    for pointer, keyword, _why in refusals(rest, "shell"):
        return f"the kind's {keyword!r} (at {pointer}) is not compiled for the shell"
    return ""
