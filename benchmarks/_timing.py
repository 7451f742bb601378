"""Timing shared by the benchmark modules: turns, best of N, ratios in the same run."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

__all__ = ["per_call", "report", "side_by_side"]


def per_call(run: Callable[[], object], loops: int) -> float:
    start = time.perf_counter()
    for _ in range(loops):
        run()
    return (time.perf_counter() - start) / loops


def side_by_side(
    ours: Callable[[], object],
    base: Callable[[], object],
    *,
    repeats: int,
    loops: tuple[int, int] = (1, 1),
) -> tuple[float, float]:
    """Seconds per call of each, timed in turns so that both see the same machine.

    The fastest of ``repeats`` turns counts: the one the other processes of a
    shared machine disturbed least. One untimed call of each warms caches, and
    the garbage collector is off while timing, as in timeit.
    """
    ours()
    base()
    best_ours = best_base = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            best_ours = min(best_ours, per_call(ours, loops[0]))
            best_base = min(best_base, per_call(base, loops[1]))
    finally:
        gc.enable()
    return best_ours, best_base


def report(what: str, count: int, times: tuple[float, float], baseline: str, goal: str) -> None:
    """One row: both throughputs, then how many times faster we are.

    For a ``goal`` starting "time", how many times the baseline's time we take.
    """
    ours, base = times
    ratio = (
        f"time  {ours / base:6.2f}x" if goal.startswith("time") else f"ratio {base / ours:6.2f}x"
    )
    print(
        f"{what:<36} {count / ours:>12,.0f}/s   {baseline:<22} {count / base:>12,.0f}/s"
        f"   {ratio}   target {goal.removeprefix('time ')}",
        flush=True,
    )
