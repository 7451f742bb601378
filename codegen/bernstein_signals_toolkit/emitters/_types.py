"""A schema's JSON types as a type expression, in whichever notation an emitter needs."""

from __future__ import annotations

from collections.abc import Mapping

from ..model import JSONValue

__all__ = ["type_notation"]


def type_notation(schema: dict[str, JSONValue], scalars: Mapping[str, str], unknown: str) -> str:
    """``list[str] | null`` style: arrays show their items, null comes last."""
    declared = schema.get("type", [])
    types = [declared] if isinstance(declared, str) else list(declared)
    parts = []
    for name in sorted(types, key=lambda t: (t == "null", t)):
        if name == "array":
            items = schema.get("items")
            inner = type_notation(items, scalars, unknown) if isinstance(items, dict) else unknown
            parts.append(f"list[{inner}]")
        else:
            parts.append(scalars[name])
    return " | ".join(parts) or unknown
