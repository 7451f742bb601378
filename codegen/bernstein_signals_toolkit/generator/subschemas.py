"""Where a schema document holds subschemas, and the patterns in all of them.

The applicator families are read by :func:`.keywords.refusals` and by
:func:`pattern_sites`, which the loader checks before anything runs a pattern
(jsonschema runs them on the examples): every subschema a validator may apply,
whatever its keyword, and whatever a local ``$ref`` points at.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from bernstein_signals_toolkit.generator import json_pointer

from .schema_refs import ref_target

__all__ = ["ONE_SCHEMA", "SCHEMA_LISTS", "SCHEMA_MAPS", "pattern_sites"]

ONE_SCHEMA: Final = frozenset(
    {"items", "not", "if", "then", "else", "contains", "additionalProperties", "propertyNames"}
)
"""Keywords whose value is one subschema."""
SCHEMA_LISTS: Final = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
"""Keywords whose value is a list of subschemas."""
SCHEMA_MAPS: Final = frozenset({"$defs", "properties", "patternProperties", "dependentSchemas"})
"""Keywords whose value maps names to subschemas."""
_REFUSED_ONE_SCHEMA: Final = frozenset({"unevaluatedItems", "unevaluatedProperties"})
"""One subschema, under a keyword the compiler refuses but jsonschema applies at load."""


def pattern_sites(root: object) -> Iterator[tuple[str, str]]:
    """(JSON pointer, pattern) for each ``pattern`` and ``patternProperties`` key in ``root``.

    The pointer names the ``pattern`` member, or the ``patternProperties`` entry.
    Each place is walked once, however many ``$ref`` lead to it.
    """
    seen: set[str] = set()
    todo: list[tuple[str, object]] = [("", root)]
    while todo:
        pointer, schema = todo.pop()
        if pointer in seen or not isinstance(schema, dict):
            continue
        seen.add(pointer)
        below: list[tuple[str, object]] = []
        for keyword, value in schema.items():
            where = json_pointer.child(pointer, keyword)
            if keyword == "pattern" and isinstance(value, str):
                yield where, value
            elif keyword == "$ref" and isinstance(value, str):
                try:
                    below.append((value[1:], ref_target(root, value)))
                except LookupError:
                    continue
            elif keyword in ONE_SCHEMA or keyword in _REFUSED_ONE_SCHEMA:
                below.append((where, value))
            elif keyword in SCHEMA_LISTS and isinstance(value, list):
                below += [(f"{where}/{index}", item) for index, item in enumerate(value)]
            elif keyword in SCHEMA_MAPS and isinstance(value, dict):
                for name, item in value.items():
                    if keyword == "patternProperties":
                        yield json_pointer.child(where, name), name
                    below.append((json_pointer.child(where, name), item))
        todo += reversed(below)  # a stack: the document's order
