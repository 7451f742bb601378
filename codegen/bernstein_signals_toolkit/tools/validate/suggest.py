"""Did-you-mean: the known word (a kind, a helper) a misspelt one most likely means."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

__all__ = ["close_match", "near_kind"]


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or ``limit + 1`` once it is certain to exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            )
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def near_kind(word: str, kinds: Sequence[str]) -> str | None:
    """The known kind (or name) ``word`` most likely misspells: within a third of its length
    in edits (one to three), else None. Nothing is suggested for a name that is merely new.
    """
    best: tuple[int, str] | None = None
    for kind in kinds:
        limit = max(1, min(3, len(kind) // 3))
        distance = _edit_distance(word, kind, limit)
        if distance <= limit and (best is None or distance < best[0]):
            best = (distance, kind)
    return best[1] if best else None


def close_match(word: str, choices: list[str]) -> str | None:
    """The choice ``word`` most likely misspells, as difflib judges at its 0.6 cutoff.

    A word more than twice as long as every choice can never reach the cutoff,
    and difflib indexes every character of it: such words are not compared.
    """
    if not choices or len(word) > 2 * max(len(choice) for choice in choices):
        return None
    guess = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return guess[0] if guess else None
