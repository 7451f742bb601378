"""Checking that work grows linearly with input size, as a ratio measured in the same run.

Hostile-input tests use this instead of absolute deadlines: a check that is
linear costs about 10x the time on a 10x larger input, a quadratic one 100x.

The clock is CPU time (this process and the children it waited for), not wall
time, so a second process sharing the cores cannot slow a turn; timing is the
best of several turns, small and big input alternating. What CPU time still
sees is the memory system: a 1 MiB line fits this machine's 2 MiB L2 and a
10 MiB one does not, so a pass that runs at memory speed (``memchr`` over the
line, a copy) grows 20-36x although it is linear. The fallback therefore
compares with baselines of the same kinds of linear work on the same sizes,
timed in the same run: any mix of linear passes grows at most as fast as the
fastest-growing of them, and a quadratic check still grows ~10x more
(``tests/test_linear_support.py`` plants one).
"""

from __future__ import annotations

import gc
import resource
import time
from collections.abc import Callable, Sequence

__all__ = [
    "FACTOR",
    "FALLBACK_LIMIT",
    "LIMIT",
    "SLACK",
    "assert_linear",
    "assert_linear_or_as_baseline",
    "calibrated_size",
    "cpu_seconds",
    "growth_ratio",
    "warmed",
]

Make = Callable[[int], Callable[[], object]]
"""Size -> the call to time (building the input is untimed)."""

FACTOR = 10
"""How much larger the big input is than the small one."""
LIMIT = 20.0
"""The largest time ratio accepted for FACTOR times the input, before any baseline."""
FALLBACK_LIMIT = 25.0
"""The bound with a baseline that grows less than this itself."""
SLACK = 1.5
"""How much more than its fastest-growing baseline a check may grow: noise, never 10x."""


def cpu_seconds() -> float:
    """CPU time of this process and of the children it has waited for, in seconds."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _once(run: Callable[[], object]) -> float:
    start = cpu_seconds()
    run()
    return cpu_seconds() - start


def growth_ratio(make: Make, size: int, *, repeats: int = 5) -> float:
    """CPU time of ``make(size * FACTOR)()`` over that of ``make(size)()``, best of ``repeats``.

    ``make(n)`` builds the input of size ``n`` (untimed) and returns the call to time.
    The two alternate, so a disturbance lasting a while costs both the same.
    """
    small, big = make(size), make(size * FACTOR)
    small()  # warm caches and lazy imports
    gc.collect()
    gc.disable()
    small_time = big_time = float("inf")
    try:
        for _ in range(repeats):
            small_time = min(small_time, _once(small))
            big_time = min(big_time, _once(big))
    finally:
        gc.enable()
    return big_time / max(small_time, 1e-9)


def assert_linear(
    make: Make,
    size: int,
    *,
    what: str,
    repeats: int = 5,
    attempts: int = 3,
) -> None:
    """Fail when ``FACTOR`` times the input costs more than ``LIMIT`` times the CPU time.

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
    make: Make,
    *,
    largest: int = 1 << 20,
    smallest: int = 1 << 16,
    max_seconds: float = 0.02,
) -> int:
    """``largest``, halved (down to ``smallest``) while one call would take over ``max_seconds``.

    Estimated from one call at ``smallest``, as linear work grows: timing every
    halving step made calibration cost more than the check on slow entry points.
    A superlinear call is underestimated, so it runs larger, which only makes it
    fail more plainly. Costly inputs, which build many Python objects, run smaller,
    to keep the suite quick.
    """
    call = make(smallest)
    start = cpu_seconds()
    call()
    per_byte = (cpu_seconds() - start) / smallest
    size = largest
    while size > smallest and per_byte * size > max_seconds:
        size //= 2
    return size


def assert_linear_or_as_baseline(
    make: Make,
    baseline: Make | Sequence[Make],
    size: int,
    *,
    what: str,
    repeats: int = 3,
) -> None:
    """:func:`assert_linear`, or growth within ``SLACK`` times the fastest-growing baseline's
    (and at least ``FALLBACK_LIMIT``).

    ``baseline`` is one or more linear passes of the kinds the check does (a
    ``memchr`` over the line, a copy, ``json.loads`` building the same objects),
    on the same sizes. A sum of linear parts grows no faster than its
    fastest-growing part, whatever the memory system does at these sizes.
    """
    try:
        assert_linear(make, size, what=what, repeats=repeats)
    except AssertionError:
        baselines = [baseline] if callable(baseline) else list(baseline)
        # Noise only ever slows a turn: the baselines' largest growth and the
        # check's smallest are the fair pair (a quadratic check is still ~6x over).
        base_ratio = max(
            growth_ratio(b, size, repeats=repeats) for b in baselines for _ in range(2)
        )
        ratio = min(growth_ratio(make, size, repeats=repeats) for _ in range(2))
        bound = max(FALLBACK_LIMIT, SLACK * base_ratio)
        assert ratio <= bound, (
            f"{what}: {ratio:.1f}x for {FACTOR}x the input while its baselines grow"
            f" {base_ratio:.1f}x (bound {bound:.1f}x): superlinear"
        )
