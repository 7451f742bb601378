"""jsonschema's Draft 2020-12 validator with ECMA-262 regular expressions: the tests' oracle.

JSON Schema defines ``pattern`` and the keys of ``patternProperties`` as ECMA-262.
jsonschema searches them with Python ``re``, where ``$`` also matches before a
final newline and ``\\d``/``\\w`` take non-ASCII digits and letters: over the
vocabulary's schemas it would accept ``".sdd/p.md\\n"`` that every binding refuses.
Here each of the three keywords that search a pattern (``pattern``,
``patternProperties`` and ``additionalProperties``, which skips what
``patternProperties`` matched) searches ``ecma_regex.translate(pattern)`` instead,
so the oracle reads patterns as the compiled validators do (``translate`` is
itself checked against node in ``tests/generator/compiler/test_ecma_regex.py``). Every
test that builds a jsonschema validator over ``schema/`` builds it here;
``tests/generator/test_sources.py`` guards that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema

from bernstein_signals_toolkit.generator.ecma_regex import translate

__all__ = ["ECMAValidator", "ecma_search", "validator"]


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(translate(pattern))


def ecma_search(pattern: str, text: str) -> bool:
    """Does the ECMA-262 ``pattern`` match somewhere in ``text`` (RegExp ``test``)?"""
    return _compiled(pattern).search(text) is not None


def _pattern(
    validator: Any, pattern: str, instance: object, schema: object
) -> Iterator[jsonschema.ValidationError]:
    if validator.is_type(instance, "string") and not ecma_search(pattern, str(instance)):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: object, schema: object
) -> Iterator[jsonschema.ValidationError]:
    if not isinstance(instance, dict):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if ecma_search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, additional: Any, instance: object, schema: dict[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    if not isinstance(instance, dict):
        return
    named = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    extras = [
        key
        for key in instance
        if key not in named and not any(ecma_search(p, key) for p in patterns)
    ]
    if isinstance(additional, dict):
        for key in extras:
            yield from validator.descend(instance[key], additional, path=key)
    elif additional is False and extras:
        listed = ", ".join(repr(key) for key in sorted(extras))
        yield jsonschema.ValidationError(f"Additional properties are not allowed ({listed})")


ECMAValidator: Any = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
    },
)
"""``Draft202012Validator`` with ECMA-262 patterns; construct it as the original."""


def validator(schema: object) -> Any:
    """An ECMA-aware Draft 2020-12 validator for ``schema``."""
    return ECMAValidator(schema)
