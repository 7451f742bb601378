"""Issue 23, item 7: the project's patterns run in linear time on values built to make them
backtrack, as the Python binding compiles them (``re`` over ``translate``).

Each value is a prefix a pattern accepts, one unit repeated, and a character that
fails at the end; one timed call searches every such value, so a single
superlinear shape makes the whole call superlinear. The planted ``^a*a*$``
(which ``check_linear`` refuses) shows the guard catches a quadratic pattern.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bernstein_signals_toolkit.generator.ecma_regex import translate
from bernstein_signals_toolkit.generator.pattern_cost import check_linear
from bernstein_signals_toolkit.generator.subschemas import pattern_sites
from linear_support import assert_linear_or_as_baseline

ROOT = Path(__file__).resolve().parents[2]
_PREFIXES = ("", ".sdd", "1.2.3-", "1.2.3+", "0.0.0-a")
_UNITS = ("a", "/a", "a.", ".a", "-", "0", "/.", "a/")
_ENDS = ("", "!", "\x00", "/", ".")
_SIZE = 2_000
"""Units in the smaller value of each shape (the bigger has ten times as many)."""


def _project_patterns() -> list[str]:
    found = {
        pattern
        for path in sorted((ROOT / "schema").glob("*.schema.json"))
        for _pointer, pattern in pattern_sites(json.loads(path.read_text(encoding="utf-8")))
    }
    return sorted(found)


def _values(size: int) -> list[str]:
    return [p + u * size + e for p in _PREFIXES for u in _UNITS for e in _ENDS]


def _searches(pattern: str) -> Callable[[int], Callable[[], object]]:
    compiled = re.compile(translate(pattern))

    def make(size: int) -> Callable[[], object]:
        values = _values(size)
        return lambda: [compiled.search(value) for value in values]

    return make


def _baseline(size: int) -> Callable[[], object]:
    """A linear pass of the same kind over the same values: ``re`` scanning each once."""
    scan = re.compile("\x01")
    values = _values(size)
    return lambda: [scan.search(value) for value in values]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("pattern", _project_patterns())
def test_a_project_pattern_runs_in_linear_time(pattern: str) -> None:
    check_linear(pattern)
    assert_linear_or_as_baseline(_searches(pattern), _baseline, _SIZE, what=pattern)


@pytest.mark.timeout(300)
def test_the_guard_catches_a_quadratic_pattern() -> None:
    planted = "^a*a*$"
    with pytest.raises(AssertionError, match="superlinear"):
        assert_linear_or_as_baseline(_searches(planted), _baseline, _SIZE // 20, what=planted)
