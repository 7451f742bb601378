"""The shape of a parsed ECMA-262 pattern, as :mod:`.ecma_regex` reads it.

The translator writes Python text as it parses; it also builds this tree, so
:mod:`.pattern_cost` can tell how many ways the pattern reads a value without
parsing it a second time. Offsets are code point offsets into the pattern.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._ecma_classes import Ranges

__all__ = ["Alternation", "Assertion", "Chars", "Lookahead", "Node", "Repeat", "Sequence"]


@dataclass(frozen=True, slots=True)
class Chars:
    """One code point out of ``ranges`` (a literal, ``.``, a class or a class escape)."""

    ranges: Ranges
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Assertion:
    """``^``, ``$``, ``\\b`` or ``\\B``: reads nothing."""

    text: str
    start: int


@dataclass(frozen=True, slots=True)
class Lookahead:
    """``(?=...)`` or ``(?!...)`` (``negative``): reads nothing, runs ``body`` where it stands."""

    body: Node
    negative: bool
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Sequence:
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Alternation:
    branches: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Repeat:
    """``body`` read ``low`` to ``high`` times (``high`` None: no bound), greedy or lazy."""

    body: Node
    low: int
    high: int | None
    start: int
    end: int


Node = Chars | Assertion | Lookahead | Sequence | Alternation | Repeat
