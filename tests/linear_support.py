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

__all__ = [
    "FACTOR",
    "FALLBACK_LIMIT",
    "LIMIT",
    "assert_linear",
    "assert_linear_or_as_baseline",
    "calibrated_size",
    "growth_ratio",
    "warmed",
]

FACTOR = 10
"""How much larger the big input is than the small one."""
LIMIT = 20.0
"""The largest time ratio accepted for FACTOR times the input."""
FALLBACK_LIMIT = 25.0
"""The same for inputs that build hundreds of thousands of objects, measured against a
baseline: past the core's cache they grow 21-22x on an idle CI machine (the baseline
13-18x) although linear; a quadratic check grows ~100x, still four times over."""


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


def warmed(call: Callable[[], object]) -> Callable[[], object]:
    """``call``, called once: the allocator keeps memory of this size ready after one round."""
    call()
    return call


def calibrated_size(
    make: Callable[[int], Callable[[], object]],
    *,
    largest: int = 1 << 20,
    smallest: int = 1 << 16,
    max_seconds: float = 0.02,
) -> int:
    """``largest``, halved (down to ``smallest``) while one call takes over ``max_seconds``.

    Below 1 MiB a line fits the core's cache and 10x of it does not, so a
    memory-bound check would look superlinear; over 10 MiB fresh pages cost the
    same way. Costly inputs, which build many Python objects, are not
    memory-bound and run smaller, to keep the suite quick.
    """
    size = largest
    while size > smallest:
        call = make(size)
        start = time.perf_counter()
        call()
        if time.perf_counter() - start <= max_seconds:
            break
        size //= 2
    return size


def assert_linear_or_as_baseline(
    make: Callable[[int], Callable[[], object]],
    baseline: Callable[[int], Callable[[], object]],
    size: int,
    *,
    what: str,
    repeats: int = 3,
) -> None:
    """:func:`assert_linear`, or growth within FALLBACK_LIMIT or 1.5x the baseline's growth.

    For inputs whose unavoidable part (``json.loads`` building hundreds of
    thousands of objects, fresh pages for a 10 MiB string) itself grows near
    the limit on a loaded machine: a quadratic check on top would still be
    about 10x more than the baseline.
    """
    try:
        assert_linear(make, size, what=what, repeats=repeats)
    except AssertionError:
        # Noise only ever slows a turn: the baseline's largest growth and the
        # check's smallest are the fair pair (a quadratic check is still ~5x over).
        base_ratio = max(growth_ratio(baseline, size, repeats=repeats) for _ in range(2))
        ratio = min(growth_ratio(make, size, repeats=repeats) for _ in range(2))
        bound = max(FALLBACK_LIMIT, 1.5 * base_ratio)
        assert ratio <= bound, f"{what}: {ratio:.1f}x while the baseline grows {base_ratio:.1f}x"
