"""The unknown-kind opt-in and BS216 on the hostile line catalogue: total and linear."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES, ORDINARY_LINE, json_baseline

import bernstein_signals as bs
from bernstein_signals_toolkit.tools.validate.lines import LineChecker
from linear_support import assert_linear_or_as_baseline, calibrated_size, warmed

_SHAPES = {"ordinary": ORDINARY_LINE, **HOSTILE_LINES}


def _as_unknown(line: str) -> str:
    """The shape's line with a kind no vocabulary knows, so the opt-in path reads it."""
    return line.replace("BERNSTEIN:COMPLETED", "BERNSTEIN:NEWER_KIND", 1).replace(
        "BERNSTEIN:QUESTION", "BERNSTEIN:NEWER_KIND", 1
    )


def _calls(line: str) -> dict[str, Callable[[], object]]:
    return {
        "parse_signal(unknown_kinds=True)": lambda: bs.parse_signal(line, unknown_kinds=True),
        "parse_signal(lenient, unknown_kinds=True)": lambda: bs.parse_signal(
            line, lenient=True, unknown_kinds=True
        ),
        "LineChecker.check": lambda: LineChecker().check(line, 1),
        "LineChecker.check lenient": lambda: LineChecker(lenient=True).check(line, 1),
    }


@pytest.mark.timeout(240)
@pytest.mark.parametrize("entry", sorted(_calls("")))
@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_unknown_kind_paths_are_linear(shape: str, entry: str) -> None:
    def make(size: int) -> Callable[[], object]:
        return warmed(_calls(_as_unknown(_SHAPES[shape](size)))[entry])

    size = calibrated_size(make)
    assert_linear_or_as_baseline(
        make, json_baseline(_SHAPES[shape]), size, what=f"{entry} on {shape}", repeats=3
    )


@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_unknown_kind_paths_are_total(shape: str) -> None:
    line = _as_unknown(_SHAPES[shape](4096))
    for call in _calls(line).values():
        call()  # never raises
    signal = bs.parse_signal(line, unknown_kinds=True)
    if signal is not None and signal.kind not in set(bs.SignalKind):
        assert isinstance(signal, bs.UnknownKindSignal)
        _, diagnostics = LineChecker().check(line, 1)
        assert [d.code for d in diagnostics if d.code != "BS307"] == ["BS216"]
