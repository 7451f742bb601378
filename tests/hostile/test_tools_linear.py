"""Standing guard: the validator and the language server stay linear on every known-bad shape.

Each shape of the shared catalogue (benchmarks/_hostile_lines.py) goes through
every per-line entry point at two sizes; 10x the input must cost at most 20x
the time (tests/linear_support.py). A quadratic regex or a loop that copies
the rest of a line fails here whichever shape or entry point it hides in.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES, ORDINARY_LINE, json_baseline

from bernstein_signals_toolkit.tools.lsp import analysis, assist
from bernstein_signals_toolkit.tools.validate import conformance_report
from bernstein_signals_toolkit.tools.validate.lines import LineChecker
from linear_support import (
    assert_linear,
    assert_linear_or_as_baseline,
    calibrated_size,
    warmed,
)

_SHAPES = {"ordinary": ORDINARY_LINE, **HOSTILE_LINES}
_BIG = 1 << 26
_SETTINGS = analysis.Settings(max_line_bytes=_BIG)
_PERIOD = 24
"""Cursor positions tried around the middle: a full period of every shape's repeated unit,
so the small and the big input see the same mix of contexts (a key, a value, a comma)."""


def _script(line: str) -> str:
    """A script line printing ``line``, as an adapter's wrapper would."""
    return f"printf '%s\\n' {shlex.quote(line)}"


def _assist(text: str, *, shell: bool, period: int = _PERIOD) -> Callable[[], object]:
    """Hover and completion around the middle and at the end of the first line."""
    middle, end = len(text) // 2, len(text)

    def run() -> None:
        for column in (*range(middle, middle + period), end - 1, end):
            assist.hover(text, 0, column, shell=shell)
            assist.completions(text, 0, column, shell=shell)

    return run


def _log_calls(line: str) -> dict[str, Callable[[], object]]:
    def analyse() -> None:
        conformance_report([line], max_line_bytes=_BIG)
        analysis.analyse(line, shell=False, settings=_SETTINGS)

    return {
        "LineChecker.check": lambda: LineChecker().check(line, 1),
        "LineChecker.check lenient": lambda: LineChecker(lenient=True).check(line, 1),
        "conformance_report + analyse (log)": analyse,
        "hover + completions (log)": _assist(line, shell=False),
    }


_LOG_ENTRIES = sorted(_log_calls(""))


@pytest.mark.timeout(240)
@pytest.mark.parametrize("entry", _LOG_ENTRIES)
@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_log_entry_points_are_linear(shape: str, entry: str) -> None:
    def make(size: int) -> Callable[[], object]:
        return warmed(_log_calls(_SHAPES[shape](size))[entry])

    size = calibrated_size(make)
    assert_linear_or_as_baseline(
        make, json_baseline(_SHAPES[shape]), size, what=f"{entry} on {shape}", repeats=5
    )


@pytest.mark.timeout(240)
@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_script_entry_points_are_linear(shape: str) -> None:
    """analyse, hover, completion and rewrite_as_helper on a script printing the shape.

    The shell lexer keeps a column for every character (Python objects, not
    memory-bound), so these run at 16 KiB and up: one call covers every entry
    point, and a superlinear one among them dominates the sum at 10x.
    """

    def make(size: int) -> Callable[[], object]:
        line = _SHAPES[shape](size)
        script = _script(line)
        bare = line.replace(" ", "_")  # one long word: helper-name completion

        def run() -> None:
            analysis.analyse(script, shell=True, settings=_SETTINGS)
            analysis.rewrite_as_helper(script, 0)
            _assist(script, shell=True, period=1)()  # each call lexes the whole line
            assist.completions(bare, 0, len(bare), shell=True)

        return warmed(run)

    size = calibrated_size(make, largest=1 << 17, smallest=1 << 14)
    assert_linear(make, size, what=f"script entry points on {shape}", repeats=3)


def _printf_many_arguments(size: int) -> str:
    count = max(1, size // 4)
    return "printf '" + "%s" * count + "\\n'" + " x" * count


def _unterminated_expansion(size: int) -> str:
    return 'echo "BERNSTEIN:COMPLETED $(' + "(" * size


def _many_commands(size: int) -> str:
    return "echo BERNSTEIN:COMPLETED; " * max(1, size // 26)


_SCRIPT_SHAPES: dict[str, Callable[[int], str]] = {
    "printf-many-arguments": _printf_many_arguments,
    "unterminated-expansion": _unterminated_expansion,
    "many-commands": _many_commands,
}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("shape", sorted(_SCRIPT_SHAPES))
def test_script_shapes_are_linear(shape: str) -> None:
    def make(size: int) -> Callable[[], object]:
        script = _SCRIPT_SHAPES[shape](size)

        def run() -> None:
            analysis.analyse(script, shell=True, settings=_SETTINGS)
            assist.hover(script, 0, len(script) // 2, shell=True)
            assist.completions(script, 0, len(script), shell=True)
            analysis.rewrite_as_helper(script, 0)

        return run

    assert_linear(make, 1 << 14, what=f"script entry points on {shape}", repeats=3)


@pytest.mark.timeout(240)
def test_a_long_document_of_short_lines_is_linear() -> None:
    """Per-document work (splitting, code actions over a range) grows with the document only."""

    def make(size: int) -> Callable[[], object]:
        rows = [
            f'printf \'BERNSTEIN:QUESTION {{"question":"q{n}","id":"q{n}"}}\\n\''
            for n in range(size)
        ]
        script = "\n".join(rows)

        def run() -> None:
            analysis.analyse(script, shell=True, settings=_SETTINGS)
            assist.hover(script, size - 1, 20, shell=True)

        return run

    assert_linear(make, 200, what="a script of many signal lines", repeats=3)
