"""The linear-time guard itself: it passes linear work on a loaded machine and fails a
planted quadratic, against the same baselines the hostile-input tests use."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES, json_baseline

from bernstein_signals import parse_signal
from linear_support import assert_linear_or_as_baseline, cpu_seconds, warmed

_SHAPE = "escaped-quotes-deep"
"""A line parse_signal refuses after two memchr passes: memory-bound, the guard's hard case."""


def _quadratic(line: str) -> Callable[[], object]:
    """parse_signal, plus a count from every 4096th position to the end: n²/8192 steps."""

    def run() -> object:
        return parse_signal(line), [line.count("\\", i) for i in range(0, len(line), 4096)]

    return run


@pytest.fixture
def busy_cores() -> Iterator[None]:
    """Every core spinning in another process while the test runs."""
    spin = "print(flush=True)\nwhile True: pass"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", spin], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE
        )
        for _ in range(os.cpu_count() or 2)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            proc.stdout.readline()  # spinning from here on
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()


@pytest.mark.timeout(240)
def test_a_planted_quadratic_fails_the_guard() -> None:
    build = HOSTILE_LINES[_SHAPE]

    def make(size: int) -> Callable[[], object]:
        return warmed(_quadratic(build(size)))

    with pytest.raises(AssertionError, match="superlinear"):
        assert_linear_or_as_baseline(make, json_baseline(build), 1 << 17, what="planted")


@pytest.mark.timeout(240)
@pytest.mark.usefixtures("busy_cores")
def test_memory_bound_linear_work_passes_on_busy_cores() -> None:
    """1 MiB -> 10 MiB crosses the L2 cache: the check grows ~31x, its memchr baseline ~35x."""
    build = HOSTILE_LINES[_SHAPE]

    def make(size: int) -> Callable[[], object]:
        line = build(size)
        return warmed(lambda: parse_signal(line))

    assert_linear_or_as_baseline(make, json_baseline(build), 1 << 20, what="parse_signal")


def test_cpu_time_counts_waited_children() -> None:
    start = cpu_seconds()
    subprocess.run(
        [sys.executable, "-c", "sum(range(3_000_000))"], stdin=subprocess.DEVNULL, check=True
    )
    assert cpu_seconds() - start > 0.01
