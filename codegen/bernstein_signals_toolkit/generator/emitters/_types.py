"""A schema's JSON types as a type expression, in whichever notation an emitter needs."""

from __future__ import annotations

from collections.abc import Mapping

from ..model import JSONValue

__all__ = ["declared_types", "type_notation"]


def declared_types(schema: dict[str, JSONValue]) -> list[str]:
    """The JSON types ``type`` names (one or a list), null last, the others sorted."""
    declared = schema.get("type", [])
    listed = (
        [declared] if isinstance(declared, str) else declared if isinstance(declared, list) else []
    )
    return sorted(
        (name for name in listed if isinstance(name, str)), key=lambda t: (t == "null", t)
    )


def type_notation(schema: dict[str, JSONValue], scalars: Mapping[str, str], unknown: str) -> str:
    """``list[str] | null`` style: arrays show their items, null comes last."""
    parts = []
    for name in declared_types(schema):
        if name == "array":
            items = schema.get("items")
            inner = type_notation(items, scalars, unknown) if isinstance(items, dict) else unknown
            parts.append(f"list[{inner}]")
        else:
            parts.append(scalars[name])
    return " | ".join(parts) or unknown
