"""The validator against the bare scan it must stay close to, on hostile lines, and its memory.

1. Throughput: both read the same 1,000,000-line corpus file (about 2% signals,
   fixed seed). The baseline is the cheapest useful pass over it:
   ``iter_signals`` over the file's lines. ``validate`` (report_from_binary,
   what the CLI runs) must cost at most 3x that; the Python API over str lines
   (conformance_report) is reported apart.
2. Hostile lines (issue 10 item 2): every shape of benchmarks/_hostile_lines.py
   at 1 MiB through ``LineChecker.check`` (strict and lenient) and through the
   CLI's path (report_from_binary), each as a ratio to an ordinary 1 MiB
   payload line measured in the same run; target at most 3x.
3. Memory (issue 10 item 9): peak RSS of ``bernstein-signals validate`` reading
   10,000 and then 1,000,000 signal lines of about 1 KB from a pipe, each in
   a fresh process; target under 10 MB growth. ``bernstein-signals conform``
   likewise, over an adapter printing that many signal lines.
4. ``--vocabulary`` start-up (issue 12 section 3): ``validate`` of a small log
   in a fresh process with the built-in vocabulary, then with ``--vocabulary
   schema/`` (the same vocabulary compiled at start-up), best wall time of
   several runs, as a ratio; and in one process the first compile of the
   folder against a later call (the cache: the folder re-read and re-hashed).
"""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks._corpus import DATA, corpus_lines
from benchmarks._hostile_lines import HOSTILE_LINES, ORDINARY_LINE
from benchmarks._timing import per_call, report, side_by_side
from bernstein_signals import iter_signals, read_signals
from bernstein_signals_toolkit.generator.sources import packaged_sources
from bernstein_signals_toolkit.tools.validate import conformance_report
from bernstein_signals_toolkit.tools.validate.lines import LineChecker
from bernstein_signals_toolkit.tools.validate.output import output_for
from bernstein_signals_toolkit.tools.validate.report import report_from_binary

_TARGET = 3.0
_MAX_GROWTH_MB = 10.0
# A fresh parent per measurement: RUSAGE_CHILDREN is the largest child it ever waited for.
_RSS_PROBE = """
import resource, subprocess, sys
count = int(sys.argv[1])
line = b'BERNSTEIN:QUESTION {"question":"' + b"x" * 960 + b'","id":"q%d"}\\n'
command = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "validate"]
child = subprocess.Popen(
    [*command, "--format", sys.argv[2], "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL
)
assert child.stdin is not None
batch = 1000
for start in range(0, count, batch):
    child.stdin.write(b"".join(line % n for n in range(start, min(start + batch, count))))
child.stdin.close()
child.wait()
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


# conform over an adapter printing the same lines (the adapter's own RSS stays small).
_CONFORM_PROBE = """
import resource, subprocess, sys
adapter = (
    "import sys\\n"
    "head, tail = b'BERNSTEIN:QUESTION {\\"question\\":\\"', b'\\",\\"id\\":\\"q%d\\"}\\\\n'\\n"
    "line = head + b'x' * 960 + tail\\n"
    "count, batch, out = int(sys.argv[1]), 1000, sys.stdout.buffer\\n"
    "for start in range(0, count, batch):\\n"
    "    out.write(b''.join(line % n for n in range(start, min(start + batch, count))))\\n"
)
command = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "conform"]
subprocess.run(
    [*command, "--format", sys.argv[2], "--", sys.executable, "-c", adapter, sys.argv[1]],
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _corpus_file(quick: bool) -> tuple[Path, int]:
    lines = corpus_lines(quick)
    path = DATA / f"validate-{len(lines)}.log"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path, len(lines)


def main(quick: bool = False) -> None:
    path, count = _corpus_file(quick)
    repeats = 3 if quick else 7

    def bare_scan() -> int:
        with path.open(encoding="utf-8") as handle:
            return sum(1 for _ in iter_signals(handle))

    def validate_binary() -> int:
        with path.open("rb") as handle:
            return len(report_from_binary(handle, run_id=str(path)).diagnostics)

    def validate_lines() -> int:
        with path.open(encoding="utf-8") as handle:
            return len(conformance_report(handle, run_id=str(path)).diagnostics)

    with path.open("rb") as handle:
        found = report_from_binary(handle)
    print(
        f"corpus: {count:,} lines, {len(found.signals):,} signals,"
        f" {len(found.diagnostics):,} diagnostics, {path.stat().st_size:,} bytes",
        flush=True,
    )
    baseline = "iter_signals (lines/s)"
    times = side_by_side(validate_binary, bare_scan, repeats=repeats)
    report("validate (binary stream, CLI)", count, times, baseline, "time <= 3x")
    times = side_by_side(validate_lines, bare_scan, repeats=repeats)
    report("conformance_report (str lines)", count, times, baseline, "time none (reported apart)")
    _clean(quick)
    _hostile(quick)
    _memory(quick)
    _startup(quick)


def _clean_file(quick: bool) -> tuple[Path, int]:
    """The corpus as a run that passes writes it (issue 22, goal 2): no terminal but one
    COMPLETED at the end, every PLAN_READY announced by a PLAN_DRAFT, fresh question ids."""
    lines = corpus_lines(quick)
    path = DATA / f"validate-clean-{len(lines)}.log"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        out = []
        for line in lines:
            if line.startswith(("BERNSTEIN:COMPLETED", "BERNSTEIN:FAILED")):
                continue
            if line.startswith("BERNSTEIN:PLAN_READY "):
                plan = json.loads(line.split(" ", 1)[1])["path"]
                out.append(
                    f"BERNSTEIN:PLAN_DRAFT {json.dumps({'markdown': '# Plan', 'path': plan})}\n"
                )
            out.append(line)
        out.append("BERNSTEIN:COMPLETED\n")
        path.write_text("".join(out), encoding="utf-8")
    return path, sum(1 for _ in path.open("rb"))


def _clean(quick: bool) -> None:
    """validate --format text|json|sarif, in process as the CLI runs it (output rendered to
    memory; process start left out), against a bare read_signals pass: goal at most 1.5x."""
    path, count = _clean_file(quick)
    repeats = 3 if quick else 7

    def bare_read() -> int:
        with path.open("rb") as handle:
            return sum(1 for _ in read_signals(handle))

    def validate(name: str) -> Callable[[], object]:
        def run() -> object:
            with output_for(name) as output, path.open("rb") as handle:
                found = report_from_binary(handle, run_id=str(path), sink=output.sink(str(path)))
                output.done(str(path), found)
                output.write(io.BytesIO())
            assert found.passed, "the clean corpus has findings"
            return found

        return run

    print(f"clean corpus: {count:,} lines, {path.stat().st_size:,} bytes", flush=True)
    for name in ("text", "json", "sarif"):
        times = side_by_side(validate(name), bare_read, repeats=repeats)
        report(f"validate --format {name} (clean)", count, times, "read_signals", "time <= 1.5x")


def _calls(line: str) -> dict[str, Callable[[], object]]:
    data = (line + "\n").encode("utf-8", "surrogatepass")
    return {
        "check": lambda: LineChecker().check(line, 1),
        "lenient": lambda: LineChecker(lenient=True).check(line, 1),
        "validate": lambda: report_from_binary(io.BytesIO(data), max_line_bytes=1 << 30),
    }


def _best(run: Callable[[], object], repeats: int) -> float:
    run()
    return min(per_call(run, 1) for _ in range(repeats))


def _hostile(quick: bool) -> None:
    size = 1 << (16 if quick else 20)
    repeats = 3 if quick else 5
    base = {name: _best(call, repeats) for name, call in _calls(ORDINARY_LINE(size)).items()}
    names = list(base)
    print(f"hostile lines of {size:,} bytes; ratio to an ordinary payload line; target <= 3x")
    print(f"{'ordinary (ms)':<28}" + "".join(f"{base[n] * 1e3:>12.2f}" for n in names))
    print(f"{'shape':<28}" + "".join(f"{n:>12}" for n in names))
    missed = []
    for shape, build in HOSTILE_LINES.items():
        calls = _calls(build(size))
        ratios = {name: _best(call, repeats) / base[name] for name, call in calls.items()}
        print(f"{shape:<28}" + "".join(f"{ratios[n]:>11.2f}x" for n in names), flush=True)
        missed += [f"{shape}/{n}" for n in names if ratios[n] > _TARGET]
    print(f"over {_TARGET:g}x: {', '.join(missed) if missed else 'none'}")


def _peak_rss_mb(lines: int, output: str, probe: str = _RSS_PROBE) -> float:
    result = subprocess.run(
        [sys.executable, "-c", probe, str(lines), output],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
    )
    return int(result.stdout) / 1024  # ru_maxrss is in KiB on Linux


def _memory(quick: bool) -> None:
    small, big = 10_000, 100_000 if quick else 1_000_000
    for (command, probe), output in itertools.product(
        [("validate", _RSS_PROBE), ("conform", _CONFORM_PROBE)], ("text", "json")
    ):
        low, high = _peak_rss_mb(small, output, probe), _peak_rss_mb(big, output, probe)
        verdict = "ok" if high - low < _MAX_GROWTH_MB else "OVER"
        print(
            f"{command} --format {output}: peak RSS {low:.1f} MB for {small:,} signal lines,"
            f" {high:.1f} MB for {big:,} (growth {high - low:+.1f} MB, target"
            f" < {_MAX_GROWTH_MB:g} MB: {verdict})",
            flush=True,
        )


def _wall(command: list[str], stdin: bytes) -> float:
    start = time.perf_counter()
    subprocess.run(command, input=stdin, capture_output=True, check=False)
    return time.perf_counter() - start


def _startup(quick: bool) -> None:
    repeats = 3 if quick else 7
    sample = b'BERNSTEIN:QUESTION {"question":"Go?","id":"q1"}\nBERNSTEIN:COMPLETED\n' * 50
    cli = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "validate", "-"]
    folder = str(packaged_sources().schema_dir)
    built = min(_wall(cli, sample) for _ in range(repeats))
    compiled = min(_wall([*cli, "--vocabulary", folder], sample) for _ in range(repeats))
    print(
        f"validate start-up on a {len(sample):,}-byte log: built-in {built * 1e3:.0f} ms,"
        f" --vocabulary schema/ {compiled * 1e3:.0f} ms ({compiled / built:.2f}x)",
        flush=True,
    )
    probe = (
        "import sys, time\n"
        "from bernstein_signals_toolkit.tools.runtime_vocabulary import compile_folder\n"
        "start = time.perf_counter(); compile_folder(sys.argv[1])\n"
        "first = time.perf_counter() - start\n"
        "start = time.perf_counter(); compile_folder(sys.argv[1])\n"
        "print(first, time.perf_counter() - start)\n"
    )
    runs = []
    for _ in range(repeats):
        result = subprocess.run(
            [sys.executable, "-c", probe, folder],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=True,
        )
        first, cached = map(float, result.stdout.split())
        runs.append((first, cached))
    first = min(run[0] for run in runs)
    cached = min(run[1] for run in runs)
    print(
        f"compile_folder(schema/): first call {first * 1e3:.1f} ms (imports, load, emit,"
        f" exec), cached {cached * 1e3:.2f} ms (re-hash), {first / cached:.0f}x",
        flush=True,
    )


if __name__ == "__main__":
    main()
