"""``check_linear`` against a model backtracking engine: what it accepts takes linear steps.

The model walks the pattern's tree as Python's ``re`` and V8 do: greedy,
alternatives in order, an iteration past a repetition's minimum that reads
nothing fails, and the search starts at every offset. It counts steps (no
clock is read), so the property is exact: for a pattern the check accepts,
four times the value costs at most about four times the steps. The refused
patterns of the last test break that bound, so the property fails if the
check lets such a pattern through.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator._ecma_tree import (
    Alternation,
    Assertion,
    Chars,
    Lookahead,
    Node,
    Repeat,
    Sequence,
)
from bernstein_signals_toolkit.generator.ecma_regex import EcmaPatternError, parse
from bernstein_signals_toolkit.generator.pattern_cost import check_linear
from bernstein_signals_toolkit.generator.subschemas import pattern_sites
from linear_support import assert_linear

_LIMIT = 400_000
"""Steps after which the model gives up: far above any linear run here."""
_SMALL = 24
"""Characters of the smaller value; the bigger one has four times as many units."""


class _Budget(Exception):
    pass


def _member(ranges: tuple[tuple[int, int], ...], code: int) -> bool:
    return any(low <= code <= high for low, high in ranges)


def steps(tree: Node, text: str) -> int:
    """The model engine's steps to search ``text`` for ``tree`` (raise _Budget past _LIMIT)."""
    count = 0
    end = len(text)

    def word(i: int) -> bool:
        return 0 <= i < end and (text[i].isascii() and (text[i].isalnum() or text[i] == "_"))

    def run(node: Node, i: int, then: Callable[[int], bool]) -> bool:
        nonlocal count
        count += 1
        if count > _LIMIT:
            raise _Budget
        if isinstance(node, Chars):
            return i < end and _member(node.ranges, ord(text[i])) and then(i + 1)
        if isinstance(node, Assertion):
            if node.text == "^":
                holds = i == 0
            elif node.text == "$":
                holds = i == end
            else:
                holds = (word(i - 1) != word(i)) == (node.text == "\\b")
            return holds and then(i)
        if isinstance(node, Lookahead):
            found = run(node.body, i, lambda _j: True)
            return found != node.negative and then(i)
        if isinstance(node, Sequence):
            items = node.items

            def chain(index: int, j: int) -> bool:
                if index == len(items):
                    return then(j)
                return run(items[index], j, lambda k: chain(index + 1, k))

            return chain(0, i)
        if isinstance(node, Alternation):
            return any(run(branch, i, then) for branch in node.branches)
        repeat: Repeat = node

        def again(times: int, j: int) -> bool:
            more = repeat.high is None or times < repeat.high
            if more and run(
                repeat.body, j, lambda k: (k != j or times < repeat.low) and again(times + 1, k)
            ):
                return True
            return times >= repeat.low and then(j)

        return again(0, i)

    for start in range(end + 1):
        if run(tree, start, lambda _j: True):
            break
    return count


def grows_linearly(pattern: str, unit: str, suffix: str) -> bool:
    """Whether four times the units costs the model at most about four times the steps."""
    tree = parse(pattern)
    times = max(1, _SMALL // len(unit))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 60_000))
    try:
        small = steps(tree, unit * times + suffix)
        big = steps(tree, unit * times * 4 + suffix)
    except (_Budget, RecursionError):
        return False
    finally:
        sys.setrecursionlimit(limit)
    return big <= 5 * small + 20 * len(pattern)


_ATOMS = st.sampled_from(["a", "b", "x", "[ab]", "[^x]", ".", "\\w", "(?:)"])
_LOOKS = st.sampled_from(["=", "!"])
_QUANTIFIERS = st.sampled_from(["*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}", "*?", "+?"])


def _patterns() -> st.SearchStrategy[str]:
    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.lists(inner, min_size=2, max_size=3).map("".join),
            st.tuples(inner, inner).map(lambda pair: f"(?:{pair[0]}|{pair[1]})"),
            st.tuples(inner, _QUANTIFIERS).map(lambda pair: f"(?:{pair[0]}){pair[1]}"),
            st.tuples(_LOOKS, inner).map(lambda pair: f"(?{pair[0]}{pair[1]})"),
        )

    body = st.recursive(_ATOMS, grow, max_leaves=6)
    return st.tuples(st.sampled_from(["", "^"]), body, st.sampled_from(["", "$"])).map("".join)


def _accepted(pattern: str) -> bool:
    try:
        check_linear(pattern)
    except EcmaPatternError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(
    pattern=_patterns(),
    unit=st.text(alphabet="abx", min_size=1, max_size=3),
    suffix=st.sampled_from(["", "!", "a", "b", "x"]),
)
@example(pattern="^[a-z]+(-[a-z]+)*$", unit="a-", suffix="!")
@example(pattern="^([a-z]+-)?[a-z]+$", unit="a", suffix="!")
@example(pattern="^(?:a|b|ab)(?:b|x)*$", unit="b", suffix="!")
@example(pattern="^(?:(?:a|b){2})*$", unit="ab", suffix="!")
@example(pattern="^(?:a(?!b))*$", unit="a", suffix="!")
@example(pattern="[^x]", unit="x", suffix="")
def test_an_accepted_pattern_takes_linear_steps(pattern: str, unit: str, suffix: str) -> None:
    if _accepted(pattern):
        assert grows_linearly(pattern, unit, suffix), (pattern, unit, suffix)


def _project_patterns() -> Iterator[str]:
    root = Path(__file__).resolve().parents[3] / "schema"
    for path in sorted(root.glob("*.schema.json")):
        for _pointer, pattern in pattern_sites(json.loads(path.read_text(encoding="utf-8"))):
            yield pattern


@pytest.mark.parametrize(
    ("unit", "suffix"), [("1.", "!"), ("a-", "!"), ("/a", "\x00"), ("0", "."), ("/.", "")]
)
def test_the_project_patterns_take_linear_steps(unit: str, suffix: str) -> None:
    patterns = sorted(set(_project_patterns()))
    assert patterns
    for pattern in patterns:
        assert grows_linearly(pattern, unit, suffix), pattern


@pytest.mark.parametrize(
    ("pattern", "unit", "suffix"),
    [
        ("^(?:[A-Za-z_ ]+)+$", "a", "!"),
        ("^(a+)+$", "a", "!"),
        ("^(a*)*$", "a", "!"),
        ("^(?:a|aa)+$", "a", "!"),
        ("^(?:a?a?)*$", "a", "!"),
        ("^a*a*$", "a", "!"),
        ("^[a-z]+[a-z0-9]*$", "a", "!"),
        ("[a-z]+x", "a", ""),
        ("^(?:(?=[a-z]*X)[a-z])*$", "a", "X"),
    ],
)
def test_the_refused_patterns_break_the_bound_the_property_checks(
    pattern: str, unit: str, suffix: str
) -> None:
    """Proof the property has teeth: what the check refuses is not linear in the model."""
    assert not _accepted(pattern)
    assert not grows_linearly(pattern, unit, suffix)


def _nested_optionals(size: int) -> str:
    depth = 90  # under MAX_GROUP_DEPTH; what grows is the run of them
    unit = "(?:" * depth + "a" + ")?" * depth
    return "^" + unit * max(1, size // len(unit)) + "$"


_PATTERN_SHAPES: dict[str, Callable[[int], str]] = {
    "literal": lambda size: "a" * size,
    "alternation": lambda size: "(?:a|b)" * (size // 7),
    "alternatives": lambda size: "^(?:" + "|".join(f"a{n}" for n in range(size // 6)) + ")*$",
    "counted": lambda size: "(?:a{0,9}){1,9}" * (size // 15),
    "counted empty": lambda size: "(?:(?:){99}){99}" * (size // 16),
    "nested optionals": _nested_optionals,
    "lookaheads": lambda size: "(?=ab)" * (size // 6),
}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("shape", sorted(_PATTERN_SHAPES))
def test_the_check_is_linear_in_the_pattern(shape: str) -> None:
    """A hostile vocabulary cannot make the check itself slow: its cost is capped."""

    def make(size: int) -> Callable[[], object]:
        pattern = _PATTERN_SHAPES[shape](size)
        return lambda: _accepted(pattern)

    assert_linear(make, 2_000, what=f"check_linear on {shape}")
