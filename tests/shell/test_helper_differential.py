"""The kind helpers' checks against jsonschema (ECMA patterns), on generated field schemas.

Hypothesis draws one field schema from what the shell carries (strings with
lengths, enum and const; integers with bounds, multipleOf, enum and const;
booleans; arrays of those with minItems, maxItems and uniqueItems), required or
not, and arguments near its edges: integers around every bound, strings of
characters of one to four UTF-8 bytes around every length, and spellings that are
not the canonical JSON text (``01``, ``-0``, ``1.0``, ``True``). A helper call
must succeed exactly when the argument is the canonical text of a value the
oracle accepts in the payload, and then print that payload's canonical line.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator.shell_checks import SDD_PATH_PATTERN
from ecma_jsonschema import validator
from shell_support import (
    SHELLS,
    kind_schema,
    reference_format,
    run,
    shell_command,
    temporary_library,
)

KIND = "PROBE"
TEXT = st.text(alphabet="ab é😀", max_size=5)
BOUNDS = st.one_of(st.integers(-4, 4), st.sampled_from([0.5, -1.5, 2.0, 3.25]))
DIVISORS = st.sampled_from([1, 2, 3, 5, 2.0, 10**9])
PATTERNS = (
    "^[a-z0-9_-]+$",
    "^\\d{2}$",
    "^\\w*$",
    "^[\\]a-]{1,2}$",
    "^[b]?$",
    "^[ab\\-]{2,}$",
    SDD_PATH_PATTERN,
)
"""Patterns the shell translates: one ASCII class over the value, and the .sdd/ rule."""
PATTERN_TEXT = ["a", "-", "]", "b", "Z", "_", "0", "9", "é", " ", "\n", ".", "/", "a\\", "ab"]


def _strings() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "minLength": st.integers(0, 3),
            "maxLength": st.integers(0, 4),
            "enum": st.tuples(TEXT, st.lists(TEXT | st.integers(0, 2), max_size=2)).map(
                lambda pair: list(dict.fromkeys([pair[0], *pair[1]]))
            ),
            "const": TEXT,
            "pattern": st.sampled_from(PATTERNS),
        },
    )


def _integers() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"type": st.just("integer")},
        optional={
            "minimum": BOUNDS,
            "maximum": BOUNDS,
            "exclusiveMinimum": BOUNDS,
            "exclusiveMaximum": BOUNDS,
            "multipleOf": DIVISORS,
            "enum": st.tuples(
                st.integers(-3, 3),
                st.lists(st.integers(-3, 3) | st.sampled_from([1.0, "1", True]), max_size=2),
            ).map(lambda pair: list({json.dumps(v): v for v in [pair[0], *pair[1]]}.values())),
            "const": st.integers(-2, 2),
        },
    )


def _booleans() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"type": st.just("boolean")},
        optional={"enum": st.lists(st.booleans(), min_size=1, unique=True), "const": st.booleans()},
    )


SCALARS = st.one_of(_strings(), _integers(), _booleans())
ARRAYS = st.fixed_dictionaries(
    {"type": st.just("array"), "items": SCALARS},
    optional={
        "minItems": st.integers(0, 2),
        "maxItems": st.integers(0, 3),
        "uniqueItems": st.booleans(),
    },
)


def _edges(schema: dict[str, Any]) -> list[int]:
    """Integers on and around every bound and divisor in ``schema``."""
    found = {0, 1, -1}
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        if key in schema:
            found |= {math.floor(schema[key]) + step for step in (-1, 0, 1, 2)}
    if "multipleOf" in schema:
        divisor = int(schema["multipleOf"])
        found |= {divisor, divisor + 1, -2 * divisor, divisor * 10**20}
    for value in [*schema.get("enum", []), schema.get("const", 0)]:
        if isinstance(value, int) and not isinstance(value, bool):
            found |= {value, value + 1}
    return sorted(found)


def _edge_arguments(schema: dict[str, Any]) -> list[str]:
    """Every argument on an edge of a scalar ``schema``: bounds, lengths, spellings, choices."""
    kind = schema["type"]
    if kind == "integer":
        return [str(n) for n in _edges(schema)] + ["01", "-0", "1.0", "+1", "", "x", "1e2"]
    if kind == "boolean":
        return ["true", "false", "True", "1", ""]
    lengths = {0, 1}
    for key in ("minLength", "maxLength"):
        lengths |= {schema[key] - 1, schema[key], schema[key] + 1} if key in schema else set()
    texts = [char * n for n in sorted(lengths) if n >= 0 for char in ("a", "é", "€", "😀")]
    texts += [v for v in [*schema.get("enum", []), schema.get("const")] if isinstance(v, str)]
    if "pattern" in schema:
        texts += [a + b for a in PATTERN_TEXT for b in ("", *PATTERN_TEXT[:4])]
        texts += ["9" * 3, ".sdd/p.md", ".sdd/p.md\n", ".sdd/../p", ".sdd//p", ".sdd/a\\b"]
    return list(dict.fromkeys(texts))


def _arguments(schema: dict[str, Any]) -> st.SearchStrategy[str]:
    """One shell argument for a scalar field: an edge, or any short text."""
    edges = st.sampled_from(_edge_arguments(schema))
    return edges | TEXT if schema["type"] == "string" else edges


def _value(text: str, scalar: str) -> tuple[bool, Any]:
    """(is ``text`` the canonical JSON text of a ``scalar`` value, that value)."""
    if scalar == "string":
        return True, text
    if scalar == "boolean":
        return text in ("true", "false"), text == "true"
    try:
        number = int(text)
    except ValueError:
        return False, None
    return str(number) == text and text != "-0", number


@st.composite
def _cases(draw: st.DrawFn) -> tuple[dict[str, Any], bool, list[list[str]]]:
    """A field schema, whether it is required, and helper calls: every edge, then drawn ones."""
    field = draw(st.one_of(SCALARS, ARRAYS))
    required = draw(st.booleans())
    if field["type"] == "array":
        item = _arguments(field["items"])
        top = field.get("maxItems", 2) + 1
        calls = [draw(st.lists(item, min_size=n, max_size=n)) for n in range(top + 1)]
        calls += [[edge] for edge in _edge_arguments(field["items"])]
        calls.append([calls[-1][0]] * 2)  # the same item twice
        calls += draw(st.lists(st.lists(item, max_size=4), max_size=4))
        return field, required, [[a for arg in call for a in ("--f", arg)] for call in calls]
    args = _edge_arguments(field) + draw(st.lists(_arguments(field), max_size=4))
    return field, required, [["--", arg] if required else ["--f", arg] for arg in args]


def _expected(field: dict[str, Any], required: bool, call: list[str]) -> bytes | None:
    """The line the helper must print for ``call``, or None when it must refuse."""
    oracle = validator(kind_schema(KIND, {"f": field}, ["f"] if required else []))
    texts = call[1::2]  # ("--f", VALUE) pairs, or ("--", VALUE) for a positional
    scalar = field["items"]["type"] if field["type"] == "array" else field["type"]
    parsed = [_value(text, scalar) for text in texts]
    if not all(ok for ok, _ in parsed):
        return None
    values = [value for _, value in parsed]
    payload: dict[str, object]
    if field["type"] == "array":
        payload = {"f": values} if values or required else {}
    else:
        payload = {"f": values[0]}
    return reference_format(KIND, payload) if oracle.is_valid(payload) else None


def _agree(shell: str, case: tuple[dict[str, Any], bool, list[list[str]]]) -> int:
    """Run every call of ``case`` in ``shell``; each verdict and line must be the oracle's."""
    field, required, calls = case
    member = {"description": "A field.", **field}
    schema = kind_schema(KIND, {"f": member}, ["f"] if required else [])
    with tempfile.TemporaryDirectory() as folder:
        library = temporary_library(Path(folder), schema)
        args: list[str] = []
        lines = []
        for call in calls:
            words = " ".join(f'"${{{len(args) + i + 1}}}"' for i in range(len(call)))
            lines.append(f'bernstein_probe {words} 2>/dev/null; echo "=$?"')
            args += call
        result = run(shell, "\n".join(lines), *args, library=library)
        help_text = run(shell, "bernstein_probe --help", library=library).stdout.decode()
    assert "Python-only" not in help_text, help_text
    got = iter(result.lines)
    for call in calls:
        expected = _expected(field, required, call)
        printed = next(got)
        if expected is None:
            assert printed == b"=2", (field, call, printed)
        else:
            assert (printed, next(got)) == (expected, b"=0"), (field, call)
    return len(calls)


@pytest.mark.timeout(240)
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(_cases())
def test_helper_checks_agree_with_jsonschema_in_bash(
    case: tuple[dict[str, Any], bool, list[list[str]]],
) -> None:
    _agree("bash", case)


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name", [name for name in SHELLS if name != "bash"])
def test_helper_checks_agree_with_jsonschema_in_the_other_shells(name: str) -> None:
    """Fewer schemas: zsh counts code points its own way, ksh93 and busybox by locale."""
    shell_command(name)

    @settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
    @given(_cases())
    def check(case: tuple[dict[str, Any], bool, list[list[str]]]) -> None:
        _agree(name, case)

    check()
