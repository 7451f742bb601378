"""Standing guard: ``validate`` holds constant state per run and never leaves partial output.

Memory is measured as a ratio in the same run (tracemalloc peaks for 10x the
stream), never as an absolute figure; the RSS figures for the README are in
``benchmarks/bench_validate.py``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.tools.validate import Diagnostic, SeenSignal, formats
from bernstein_signals_toolkit.tools.validate import report as report_module
from bernstein_signals_toolkit.tools.validate.output import output_for
from bernstein_signals_toolkit.tools.validate.report import (
    MAX_TRACKED,
    StreamChecker,
    report_from_binary,
)

ROOT = Path(__file__).resolve().parents[2]
_CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]
LOGS = sorted((ROOT / "tests" / "corpus" / "logs").glob("*.log"))


def _signal_lines(count: int) -> Iterator[bytes]:
    """About 1 KB per line: distinct questions and plans, near-misses, long lines, prose."""
    filler = "x" * 900
    for n in range(count):
        kind = n % 5
        if kind == 0:
            yield f'BERNSTEIN:QUESTION {{"question":"{filler}","id":"q{n}"}}\n'.encode()
        elif kind == 1:
            yield f'BERNSTEIN:PLAN_DRAFT {{"path":".sdd/p{n}.md","note":"{filler}"}}\n'.encode()
        elif kind == 2:
            yield f'BERNSTEIN:blocked {{"reason":"{filler}"}}\n'.encode()
        elif kind == 3:
            yield f'BERNSTEIN:COMPLETED {{"summary":"{filler}"}}\n'.encode()
        else:
            yield f"log line {n} {filler}\n".encode()


class _Generated(io.RawIOBase):
    """A stream produced as it is read, so the input itself takes no memory."""

    def __init__(self, lines: Iterator[bytes]) -> None:
        self._lines = lines
        self._pending = b""

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        while len(self._pending) < max(size, 1):
            line = next(self._lines, None)
            if line is None:
                break
            self._pending += line
        chunk, self._pending = self._pending[:size], self._pending[size:]
        return chunk

    read = read1


class _Counting:
    """A sink that keeps nothing."""

    def __init__(self) -> None:
        self.signals = 0
        self.diagnostics = 0

    def signal(self, seen: SeenSignal) -> None:
        self.signals += 1

    def diagnostic(self, diagnostic: Diagnostic) -> None:
        self.diagnostics += 1


def _peak(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _check(count: int) -> _Counting:
    sink = _Counting()
    report = report_from_binary(_Generated(_signal_lines(count)), sink=sink)
    assert report.signal_count == sink.signals
    assert not report.signals
    assert not report.diagnostics
    return sink


@pytest.mark.timeout(300)
def test_memory_does_not_grow_with_the_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    # A smaller tracking bound, so that both runs fill their tables and stay quick.
    monkeypatch.setattr(report_module, "MAX_TRACKED", 200)
    small_count = 2_000
    small = _peak(lambda: _check(small_count))
    big = _peak(lambda: _check(small_count * 10))
    assert big < small * 1.5, f"peak {small:,} B for {small_count:,} lines, {big:,} B for 10x"


class _Keep:
    """A sink that keeps everything, to compare with a report that kept it."""

    def __init__(self) -> None:
        self.signals: list[SeenSignal] = []
        self.diagnostics: list[Diagnostic] = []

    def signal(self, seen: SeenSignal) -> None:
        self.signals.append(seen)

    def diagnostic(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)


def test_the_sink_sees_what_a_kept_report_holds() -> None:
    for log in LOGS:
        sink = _Keep()
        with log.open("rb") as stream:
            streamed = report_from_binary(stream, run_id="r", sink=sink)
        with log.open("rb") as stream:
            kept = report_from_binary(stream, run_id="r")
        assert sink.signals == kept.signals, log.name
        assert sink.diagnostics == kept.diagnostics, log.name
        assert streamed.header() == kept.header(), log.name


@pytest.mark.parametrize("name", formats.FORMATS)
def test_streamed_output_is_the_whole_document(name: str) -> None:
    kept = []
    with output_for(name) as output:
        for log in LOGS:
            with log.open("rb") as stream:
                report = report_from_binary(stream, run_id=log.name, sink=output.sink(str(log)))
            output.done(str(log), report)
            with log.open("rb") as stream:
                kept.append((str(log), report_from_binary(stream, run_id=log.name)))
        written = io.BytesIO()
        output.write(written)
    if name == "json":
        expected = formats.dumps(formats.json_document(kept)) + "\n"
    elif name == "sarif":
        expected = formats.dumps(formats.sarif_document(kept)) + "\n"
    elif name == "github":
        expected = "".join(f"{line}\n" for p, r in kept for line in formats.github(p, r))
    else:
        expected = "".join(f"{line}\n" for p, r in kept for line in formats.text(p, r))
    assert written.getvalue().decode() == expected


def test_tracking_is_bounded_and_says_so() -> None:
    checker = StreamChecker()
    line = 0
    for n in range(MAX_TRACKED + 50):
        line += 1
        checker.feed_text(line, f'BERNSTEIN:QUESTION {{"question":"?","id":"q{n}"}}')
    line += 1
    checker.feed_text(line, 'BERNSTEIN:QUESTION {"question":"?","id":"q0"}')  # remembered
    report = checker.finish(line)
    codes = [d.code for d in report.diagnostics]
    assert codes.count("BS308") == 1
    assert codes.count("BS305") == 1  # the reuse of a remembered id is still seen
    assert len(checker._question_ids) == MAX_TRACKED


def test_live_mode_forgets_answered_questions() -> None:
    checker = StreamChecker(live=True)
    for n in range(MAX_TRACKED * 2):
        checker.feed_text(n + 1, f'BERNSTEIN:QUESTION {{"question":"?","id":"q{n}"}}')
        checker.answered(f"q{n}")
    report = checker.finish(MAX_TRACKED * 2)
    assert "BS308" not in {d.code for d in report.diagnostics}
    assert not checker._question_ids


@pytest.mark.timeout(60)
def test_a_read_error_leaves_no_partial_output(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    log.write_text("BERNSTEIN:completed\n" * 100)
    for name in formats.FORMATS:
        result = subprocess.run(
            [*_CLI, "validate", "--format", name, str(log), "/proc/self/mem"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
        assert result.returncode == 2, result.stderr
        assert result.stdout == b"", name
        assert result.stderr.decode().count("\n") == 1
        assert "read error" in result.stderr.decode()


def test_json_counts_cover_streamed_signals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.log"
    log.write_text('BERNSTEIN:QUESTION {"question":"?","id":"a"}\nBERNSTEIN:COMPLETED\n')
    assert main(["validate", "--format", "json", str(log)]) == 0
    entry = json.loads(capsys.readouterr().out)["files"][0]
    assert entry["counts"]["QUESTION"] == 1
    assert entry["counts"]["COMPLETED"] == 1
    assert [s["kind"] for s in entry["signals"]] == ["QUESTION", "COMPLETED"]
