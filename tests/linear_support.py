"""Checking that work grows linearly with input size, as a ratio measured in the same run.

Hostile-input tests use this instead of absolute deadlines: a check that is
linear costs about 10x the time on a 10x larger input, a quadratic one 100x.
The bound (20x for 10x the size) leaves room for a noisy shared machine while
still catching any superlinear class; timing is the best of several turns, and
a failing ratio is measured again before it counts, so one disturbed turn
cannot fail a test.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

__all__ = ["FACTOR", "LIMIT", "assert_linear", "growth_ratio"]

FACTOR = 10
"""How much larger the big input is than the small one."""
LIMIT = 20.0
"""The largest time ratio accepted for FACTOR times the input."""


def _best(run: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def growth_ratio(
    make: Callable[[int], Callable[[], object]], size: int, *, repeats: int = 5
) -> float:
    """Time of ``make(size * FACTOR)()`` over time of ``make(size)()``, best of ``repeats``.

    ``make(n)`` builds the input of size ``n`` (untimed) and returns the call to time.
    """
    small, big = make(size), make(size * FACTOR)
    small()  # warm caches and lazy imports
    gc.collect()
    gc.disable()
    try:
        small_time = _best(small, repeats)
        big_time = _best(big, repeats)
    finally:
        gc.enable()
    return big_time / max(small_time, 1e-9)


def assert_linear(
    make: Callable[[int], Callable[[], object]],
    size: int,
    *,
    what: str,
    repeats: int = 5,
    attempts: int = 3,
) -> None:
    """Fail when ``FACTOR`` times the input costs more than ``LIMIT`` times the time.

    ``size`` should make the small run take a few milliseconds at least, so
    that timer resolution and call overhead do not dominate.
    """
    ratios = []
    for _ in range(attempts):
        ratio = growth_ratio(make, size, repeats=repeats)
        ratios.append(ratio)
        if ratio <= LIMIT:
            return
    shown = ", ".join(f"{r:.1f}x" for r in ratios)
    raise AssertionError(
        f"{what}: {FACTOR}x the input ({size} -> {size * FACTOR}) cost {shown} the time"
        f" (limit {LIMIT:g}x): superlinear"
    )
