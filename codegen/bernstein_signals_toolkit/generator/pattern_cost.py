"""Which ECMA-262 patterns every binding runs in time linear in the value.

Python's ``re`` and JavaScript's ``RegExp`` backtrack: on a value that almost
matches they try every way the pattern can read it. ``(?:[a-z]+)+`` reads
``n`` letters in ``2**(n-1)`` ways, ``^a*a*$`` in ``n + 1``, and an unanchored
``[a-z]+x`` is tried from each of ``n`` offsets, reading on to the end each time.

The rule (:func:`check_linear`): no prefix of any value may be read in more
than :data:`MAX_READINGS` ways, counting every partial reading and, when the
pattern does not start with ``^``, the readings started at every offset. The
count is exact over the pattern's position automaton (one state per character
the pattern reads, an edge per way to go from one to the next), so nested
repetition, alternatives that overlap under a repetition, neighbouring
repetitions of the same characters and an unanchored repetition that can run on
are all refused, and a pattern whose next character always decides the way on
(``^[a-z]+(-[a-z]+)*$``) passes. ``{n,m}`` is unrolled when small and read as
``*`` or ``+`` otherwise (which only finds more readings). A lookahead must
read a bounded length. Then the engines do at most :data:`MAX_READINGS` times
the pattern's size of work per character of the value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final

from ._ecma_classes import MAX_CODE_POINT, Ranges
from ._ecma_scanner import EcmaPatternError
from ._ecma_tree import Alternation, Assertion, Chars, Lookahead, Node, Repeat, Sequence
from .ecma_regex import code_points, parse

__all__ = [
    "MAX_LOOKAHEAD_LENGTH",
    "MAX_POSITIONS",
    "MAX_READINGS",
    "MAX_STATES",
    "check_linear",
]

MAX_READINGS: Final = 8
"""Most ways a pattern may read one prefix of a value (a bounded number is linear time)."""
MAX_POSITIONS: Final = 500
"""Most characters a pattern may read, ``{n,m}`` unrolled: the check's own cost stays small."""
MAX_STATES: Final = 4096
"""Most sets of readings the check walks through before it calls the pattern too large."""
MAX_LOOKAHEAD_LENGTH: Final = 64
"""Most characters a lookahead may read: it runs again at every offset it is reached."""
_MAX_UNROLL: Final = 128
"""``{n,m}`` is read as ``m`` copies while they hold up to this many nodes of the
pattern's tree, else as ``*`` or ``+``."""
_CAP: Final = MAX_READINGS + 1
_MAX_WORK: Final = 1_000_000
"""Most edges the walk may follow: a pattern needing more is called too large."""


class _TooLarge(Exception):
    """The automaton would pass :data:`MAX_POSITIONS`."""


def _add(counts: dict[int, int], key: int, ways: int) -> None:
    if ways:
        counts[key] = min(_CAP, counts.get(key, 0) + ways)


@dataclass
class _Part:
    """A subpattern's automaton: ways to read nothing, entry and exit positions with ways."""

    empty: int
    first: dict[int, int]
    last: dict[int, int]


_Maker = Callable[[], _Part]


@dataclass
class _Automaton:
    """Glushkov's position automaton, each edge with how many ways the pattern takes it."""

    sets: list[Ranges] = field(default_factory=list)
    chars: list[Chars | None] = field(default_factory=list)
    follow: list[dict[int, int]] = field(default_factory=list)
    lookaheads: list[Lookahead] = field(default_factory=list)

    def position(self, ranges: Ranges, chars: Chars | None) -> int:
        if len(self.sets) >= MAX_POSITIONS:
            raise _TooLarge
        self.sets.append(ranges)
        self.chars.append(chars)
        self.follow.append({})
        return len(self.sets) - 1

    def link(self, last: dict[int, int], first: dict[int, int]) -> None:
        for source, ways in last.items():
            for target, more in first.items():
                _add(self.follow[source], target, ways * more)

    def build(self, node: Node) -> _Part:
        if isinstance(node, Chars):
            spot = self.position(node.ranges, node)
            return _Part(0, {spot: 1}, {spot: 1})
        if isinstance(node, Assertion):
            return _Part(1, {}, {})
        if isinstance(node, Lookahead):
            self.lookaheads.append(node)
            return _Part(1, {}, {})
        if isinstance(node, Sequence):
            return self._sequence([self._maker(item) for item in node.items])
        if isinstance(node, Alternation):
            parts = [self.build(branch) for branch in node.branches]
            return _Part(
                min(_CAP, sum(part.empty for part in parts)),
                _sum(part.first for part in parts),
                _sum(part.last for part in parts),
            )
        return self._repeat(node)

    def _maker(self, node: Node) -> _Maker:
        return lambda: self.build(node)

    def _sequence(self, makers: list[_Maker]) -> _Part:
        whole = _Part(1, {}, {})
        for make in makers:
            part = make()
            self.link(whole.last, part.first)
            first = dict(whole.first)
            for spot, ways in part.first.items():
                _add(first, spot, whole.empty * ways)
            last = dict(part.last)
            for spot, ways in whole.last.items():
                _add(last, spot, part.empty * ways)
            whole = _Part(min(_CAP, whole.empty * part.empty), first, last)
        return whole

    def _optional(self, make: _Maker) -> _Part:
        part = make()
        return _Part(min(_CAP, 1 + part.empty), part.first, part.last)

    def _repeat(self, node: Repeat) -> _Part:
        body = node.body
        if node.high == 0:
            return _Part(1, {}, {})
        high = _copies(node.high, _size(body))
        if high is not None:

            def rest(count: int) -> _Part:
                """``body{0,count}`` as engines read it: one more, or stop."""
                if count == 0:
                    return _Part(1, {}, {})
                return self._optional(
                    lambda: self._sequence([lambda: self.build(body), lambda: rest(count - 1)])
                )

            makers: list[_Maker] = [lambda: self.build(body)] * node.low
            return self._sequence([*makers, lambda: rest(high - node.low)])
        part = self.build(body)
        self.link(part.last, part.first)
        if node.low == 0:
            return _Part(min(_CAP, 1 + part.empty), part.first, part.last)
        return _Part(min(_CAP, part.empty ** min(node.low, 4)), part.first, part.last)


def _copies(high: int | None, size: int) -> int | None:
    """``high`` when ``body{n,high}`` (``body`` built in ``size`` steps) is read as that
    many copies of ``body``, else None (read as ``*`` or ``+``)."""
    if high is not None and (high <= 1 or high * size <= _MAX_UNROLL):
        return high
    return None


def _size(node: Node) -> int:
    """How many steps :meth:`_Automaton.build` takes for ``node``."""
    if isinstance(node, Sequence):
        return 1 + sum(_size(item) for item in node.items)
    if isinstance(node, Alternation):
        return 1 + sum(_size(branch) for branch in node.branches)
    if isinstance(node, Repeat):
        body = _size(node.body)
        copies = _copies(node.high, body)
        return 1 + (body if copies is None else max(1, copies) * body)
    return 1


def _sum(counts: Iterator[dict[int, int]]) -> dict[int, int]:
    total: dict[int, int] = {}
    for each in counts:
        for spot, ways in each.items():
            _add(total, spot, ways)
    return total


def _anchored(branch: Node) -> bool:
    """The branch starts with ``^``, so a search tries it at offset 0 only."""
    head = branch.items[0] if isinstance(branch, Sequence) and branch.items else branch
    return isinstance(head, Assertion) and head.text == "^"


def _automaton(tree: Node, *, search: bool) -> _Automaton:
    """The automaton of ``tree`` from state 0; with ``search``, an unanchored branch may
    also start after any prefix (state 1 reads any character and stays)."""
    automaton = _Automaton()
    start = automaton.position((), None)
    branches = tree.branches if isinstance(tree, Alternation) else (tree,)
    anywhere: list[dict[int, int]] = []
    for branch in branches:
        part = automaton.build(branch)
        automaton.link({start: 1}, part.first)
        if search and not _anchored(branch):
            anywhere.append(part.first)
    if anywhere:
        skip = automaton.position(((0, MAX_CODE_POINT),), None)
        automaton.link({start: 1, skip: 1}, {skip: 1})
        for first in anywhere:
            automaton.link({skip: 1}, first)
    return automaton


def _classes(sets: list[Ranges]) -> list[frozenset[int]]:
    """The distinct sets of positions one code point can be read by (one per class of
    code points that every position treats alike), by a sweep over the range ends."""
    events: dict[int, list[tuple[int, int]]] = {}
    for spot, ranges in enumerate(sets):
        for low, high in ranges:
            events.setdefault(low, []).append((spot, 1))
            events.setdefault(high + 1, []).append((spot, -1))
    active: dict[int, int] = {}
    found: set[frozenset[int]] = set()
    for cut in sorted(events):
        for spot, change in events[cut]:
            active[spot] = active.get(spot, 0) + change
            if not active[spot]:
                del active[spot]
        if active and cut <= MAX_CODE_POINT:
            found.add(frozenset(active))
    return sorted(found, key=sorted)


def _worst(automaton: _Automaton) -> int | None:
    """A position some prefix reaches while read in over :data:`MAX_READINGS` ways, else None.

    Walks the sets of readings (position -> ways, capped) from the start, one
    class of code points at a time: a subset construction that counts.
    """
    classes_of: list[list[int]] = [[] for _ in automaton.sets]
    for index, members in enumerate(_classes(automaton.sets)):
        for spot in members:
            classes_of[spot].append(index)
    begin: tuple[tuple[int, int], ...] = ((0, 1),)
    seen = {begin}
    todo = [begin]
    work = 0
    while todo:
        readings = todo.pop()
        after: dict[int, dict[int, int]] = {}
        for spot, ways in readings:
            for target, more in automaton.follow[spot].items():
                work += len(classes_of[target])
                if work > _MAX_WORK:
                    raise _TooLarge
                for index in classes_of[target]:
                    _add(after.setdefault(index, {}), target, ways * more)
        for counts in after.values():
            if sum(counts.values()) > MAX_READINGS:
                return max(counts, key=lambda spot: (counts[spot], -spot))
            state = tuple(sorted(counts.items()))
            if state not in seen:
                if len(seen) >= MAX_STATES:
                    raise _TooLarge
                seen.add(state)
                todo.append(state)
    return None


def _repeats(node: Node) -> Iterator[Repeat]:
    """The repetitions in ``node``, inner ones first (lookahead bodies left out)."""
    if isinstance(node, Sequence):
        for item in node.items:
            yield from _repeats(item)
    elif isinstance(node, Alternation):
        for branch in node.branches:
            yield from _repeats(branch)
    elif isinstance(node, Repeat):
        yield from _repeats(node.body)
        yield node


def _longest(node: Node) -> float:
    """The most characters ``node`` can read (infinity without a bound)."""
    if isinstance(node, Chars):
        return 1
    if isinstance(node, Sequence):
        return sum(_longest(item) for item in node.items)
    if isinstance(node, Alternation):
        return max(_longest(branch) for branch in node.branches)
    if isinstance(node, Repeat):
        body = _longest(node.body)
        return float("inf") if node.high is None and body else body * (node.high or 0)
    return 0


def _quote(source: str, start: int, end: int) -> str:
    text = source[start:end]
    return f"`{text}`" if len(text) <= 60 else f"`{text[:57]}...`"


def _fails(tree: Node, *, search: bool) -> int | None:
    return _worst(_automaton(tree, search=search))


def _why(source: str, tree: Node, culprit: int | None, *, search: bool) -> EcmaPatternError:
    """The refusal of ``tree``, naming the construct that reads too many ways."""
    at = culprit if culprit is not None else 0
    enclosing = [r for r in _repeats(tree) if r.start <= at < r.end]
    for repeat in enclosing:
        if (repeat.high is None or repeat.high > 1) and _fails(repeat, search=False) is not None:
            return EcmaPatternError(
                repeat.start,
                f"the repetition {_quote(source, repeat.start, repeat.end)} can read the same"
                f" text in more than {MAX_READINGS} ways (a quantifier inside a quantifier, or"
                " alternatives that overlap), which takes exponential time on a value that"
                " almost matches; write it so that each character has one way to be read",
                unsupported=True,
            )
    what = (
        _quote(source, enclosing[0].start, enclosing[0].end)
        if enclosing
        else _quote(source, at, at + 1)
    )
    if search and _fails(tree, search=False) is None:
        return EcmaPatternError(
            at,
            f"the pattern has no ^, so it is tried from every offset of the value, and {what}"
            " reads on each time, which takes quadratic time; start it with ^ or drop the"
            " repetition a match does not need",
            unsupported=True,
        )
    return EcmaPatternError(
        at,
        f"the pattern can read the same text in more than {MAX_READINGS} ways by the time it"
        f" reaches {what} (alternatives that overlap, or neighbouring repetitions of the same"
        " characters), which takes polynomial or exponential time on a value that almost"
        " matches; write it so that each character has one way to be read",
        unsupported=True,
    )


def _check(source: str, tree: Node, *, search: bool) -> None:
    """Refuse ``tree`` or a lookahead in it that reads too many ways or too far."""
    automaton = _automaton(tree, search=search)
    culprit = _worst(automaton)
    if culprit is not None:
        chars = automaton.chars[culprit]
        raise _why(source, tree, chars.start if chars else None, search=search)
    for lookahead in {id(each): each for each in automaton.lookaheads}.values():  # once each
        if _longest(lookahead.body) > MAX_LOOKAHEAD_LENGTH:
            raise EcmaPatternError(
                lookahead.start,
                f"the lookahead {_quote(source, lookahead.start, lookahead.end)} can read"
                f" more than {MAX_LOOKAHEAD_LENGTH} characters, and it runs again at every"
                " offset it is reached, which takes quadratic time; bound what it reads",
                unsupported=True,
            )
        _check(source, lookahead.body, search=False)


def check_linear(pattern: str) -> None:
    """Raise :class:`EcmaPatternError` unless a backtracking engine runs ``pattern`` (searched
    for in a value, as ``re.search`` and ``RegExp.test`` do) in time linear in the value.

    ``pattern`` is first refused as :func:`.ecma_regex.translate` refuses it.
    """
    tree = parse(pattern)
    try:
        _check(code_points(pattern), tree, search=True)
    except _TooLarge:
        raise EcmaPatternError(
            0,
            f"the pattern is too large to check for linear time (over {MAX_POSITIONS}"
            f" characters to read, or over {MAX_STATES} sets of readings); simplify it",
            unsupported=True,
        ) from None
