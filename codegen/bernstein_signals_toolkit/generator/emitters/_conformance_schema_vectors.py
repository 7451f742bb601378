"""Conformance vectors derived from the schemas: examples, every required field omitted,
the boundary values of every string and array constraint, and every wrong type.

Each vector's expected errors are worked out here from the one keyword it
exercises (lengths counted in code points, patterns matched as ECMA-262 with
the ``u`` flag through :func:`..ecma_regex.translate`), so the vectors are an
oracle independent of any binding's validator. A property using a keyword
this module does not model, or a pattern ``translate`` refuses, gets its
examples and omission vectors only; a bound above :data:`MAX_BOUND` gets no
vector at that bound (its value would be as large as the bound).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..ecma_regex import EcmaPatternError, translate
from ..json_pointer import child
from ..model import Kind, Vocabulary

__all__ = ["MAX_BOUND", "schema_vectors"]

MAX_BOUND = 4096
"""The largest length or item bound that gets boundary vectors."""

_MODELLED = frozenset(
    {"type", "minLength", "maxLength", "pattern", "items", "minItems", "maxItems", "uniqueItems"}
)
"""Keywords whose effect on a value this module works out; annotations are ignored."""
_ANNOTATION = ("description", "title", "examples", "x-bernstein-")
_SAMPLES: Mapping[str, Any] = {
    "null": None,
    "boolean": True,
    "integer": 7,
    "number": 1.5,
    "string": "a",
    "array": [],
    "object": {},
}
"""One value of each JSON type, for wrong-type vectors (1.5 is a number, not an integer)."""


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    declared = schema.get("type", ())
    return (declared,) if isinstance(declared, str) else tuple(declared)


def _modelled(schema: Mapping[str, Any]) -> bool:
    keys = {key for key in schema if not key.startswith(_ANNOTATION)}
    if not keys <= _MODELLED or "type" not in schema:
        return False
    if "pattern" in schema:
        try:
            translate(schema["pattern"])
        except EcmaPatternError:
            return False
    items = schema.get("items")
    return items is None or (isinstance(items, dict) and _modelled(items) and "items" not in items)


def _has_type(value: object, types: tuple[str, ...]) -> bool:
    if value is None:
        return "null" in types
    if isinstance(value, bool):
        return "boolean" in types
    if isinstance(value, int):
        return "integer" in types or "number" in types
    if isinstance(value, float):
        return "number" in types
    if isinstance(value, str):
        return "string" in types
    return ("array" if isinstance(value, list) else "object") in types


def _equal_key(value: object) -> object:
    """``value`` with integral floats as integers: JSON equality holds 1 and 1.0 equal."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_equal_key(item) for item in value]
    if isinstance(value, dict):
        return {key: _equal_key(item) for key, item in value.items()}
    return value


def _errors(schema: Mapping[str, Any], value: object, pointer: str) -> list[list[str]]:
    """The (pointer, rule) pairs ``value`` breaks, for a schema :func:`_modelled` accepts."""
    if not _has_type(value, _types(schema)):
        return [[pointer, "type"]]
    found: list[list[str]] = []
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            found.append([pointer, "minLength"])
        if len(value) > schema.get("maxLength", len(value)):
            found.append([pointer, "maxLength"])
        if "pattern" in schema and not re.search(translate(schema["pattern"]), value):
            found.append([pointer, "pattern"])
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            found.append([pointer, "minItems"])
        if len(value) > schema.get("maxItems", len(value)):
            found.append([pointer, "maxItems"])
        if schema.get("uniqueItems") and len({_json(_equal_key(v)) for v in value}) < len(value):
            found.append([pointer, "uniqueItems"])
        for index, item in enumerate(value):
            found += _errors(schema.get("items", {}), item, f"{pointer}/{index}")
    return found


def _strings(schema: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Boundary strings: each length bound at and past it."""
    if "minLength" in schema and schema["minLength"] <= MAX_BOUND:
        low = schema["minLength"]
        yield f"minLength {low}", "a" * low
        if low > 0:
            yield f"minLength {low} - 1", "a" * (low - 1)
    if "maxLength" in schema and schema["maxLength"] < MAX_BOUND:
        high = schema["maxLength"]
        yield f"maxLength {high}", "a" * high
        yield f"maxLength {high} + 1", "a" * (high + 1)
    if "pattern" in schema:
        yield "pattern, a non-ASCII text", "\u00e9\U0001f600"


def _values(schema: Mapping[str, Any], examples: Sequence[object]) -> Iterator[tuple[str, object]]:
    types = _types(schema)
    for name, sample in _SAMPLES.items():
        if name not in types and not (name == "integer" and "number" in types):
            yield f"type {name}", sample
    if "null" in types:
        yield "null", None
    if "string" in types:
        yield from _strings(schema)
    if "array" in types:
        item = next((v for e in examples if isinstance(e, list) for v in e), "a")
        if 0 < schema.get("minItems", 0) <= MAX_BOUND:
            yield f"minItems {schema['minItems']}", [item] * schema["minItems"]
            yield f"minItems {schema['minItems']} - 1", [item] * (schema["minItems"] - 1)
        if schema.get("maxItems", MAX_BOUND) < MAX_BOUND:
            yield f"maxItems {schema['maxItems']} + 1", [item] * (schema["maxItems"] + 1)
        if schema.get("uniqueItems"):
            yield "uniqueItems, a repeated item", [item, item]
            yield "uniqueItems, 1 and 1.0 are equal", [1, 1.0]
        items = schema.get("items")
        if isinstance(items, dict):
            for what, value in _values(items, []):
                yield f"items: {what}", [value]


def _line(
    kind: Kind, what: str, line: str, lenient: bool, *, payload: str | None, reason: str
) -> Any:
    """A line vector; ``payload`` is the JSON text the reader finds, None: not a signal."""
    return {
        "id": f"schema/{kind.name}/line: {what}/{'lenient' if lenient else 'strict'}",
        "type": "line",
        "line": line,
        "lenient": lenient,
        "expected": {
            "kind": None if payload is None else kind.name,
            "payload": payload,
            "reason": reason,
        },
    }


def _near_misses(kind: Kind, prefix: str) -> Iterator[dict[str, Any]]:
    """The kind's line written right, and as seed-style writers get it wrong."""
    name, text = kind.name, _json(kind.examples[0]) if kind.examples else "{}"
    bare = "signal-invalid-payload" if kind.required else "signal"
    for lenient in (False, True):
        read, kept = (text, "signal") if lenient else (None, "lenient-only")
        empty = "{}" if lenient else None
        yield _line(kind, "no payload", f"{prefix}{name}", lenient, payload="{}", reason=bare)
        reason = bare if lenient else kept
        yield _line(
            kind, "leading space", f" {prefix}{name}", lenient, payload=empty, reason=reason
        )
        for what, line in (
            ("two spaces", f"{name}  {text}"),
            ("trailing space", f"{name} {text} "),
        ):
            yield _line(kind, what, prefix + line, lenient, payload=read, reason=kept)
        for what, line in (("kind in lower case", name.lower()), ("no space", f"{name}{text}")):
            yield _line(kind, what, prefix + line, lenient, payload=None, reason="not-a-signal")


def _kind_vectors(kind: Kind, prefix: str) -> Iterator[dict[str, Any]]:
    examples = kind.examples
    yield from _near_misses(kind, prefix)
    for number, example in enumerate(examples, 1):
        text = _json(example)
        yield _payload(kind, f"example {number}", example, [])
        yield {
            "id": f"schema/{kind.name}/example {number}/line",
            "type": "line",
            "line": f"{prefix}{kind.name} {text}",
            "lenient": False,
            "expected": {"kind": kind.name, "payload": text, "reason": "signal"},
        }
        if text.isascii() and "." not in "".join(_numbers(example)):
            yield {
                "id": f"schema/{kind.name}/example {number}/format",
                "type": "format",
                "kind": kind.name,
                "payload": text,
                "expected": {"line": f"{prefix}{kind.name} {text}"},
            }
    base: dict[str, Any] = {}
    for example in examples:
        if all(name in example for name in kind.required):
            base = {name: example[name] for name in kind.required}
            break
    for name in kind.required:
        omitted = {key: value for key, value in base.items() if key != name}
        yield _payload(kind, f"{name} omitted", omitted, [[child("", name), "required"]])
    for prop in kind.properties:
        schema = prop.schema
        if not _modelled(schema):
            continue
        pointer = child("", prop.name)
        shown = [example[prop.name] for example in examples if prop.name in example]
        for what, value in _values(schema, shown):
            payload = {**base, prop.name: value}
            yield _payload(kind, f"{prop.name}: {what}", payload, _errors(schema, value, pointer))


def _numbers(value: object) -> Iterator[str]:
    if isinstance(value, float):
        yield "."
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)


def _payload(kind: Kind, what: str, payload: object, errors: list[list[str]]) -> dict[str, Any]:
    return {
        "id": f"schema/{kind.name}/{what}",
        "type": "payload",
        "kind": kind.name,
        "payload": _json(payload),
        "expected": {"errors": [{"pointer": p, "rule": r} for p, r in errors]},
    }


def schema_vectors(vocabulary: Vocabulary) -> list[dict[str, Any]]:
    """Every kind's derived vectors, kinds in vocabulary order."""
    prefix = vocabulary.grammar.prefix
    return [vector for kind in vocabulary.kinds for vector in _kind_vectors(kind, prefix)]
