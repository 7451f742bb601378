"""The validator against the bare scan it must stay close to, measured side by side.

Both read the same 1,000,000-line corpus file (about 2% signals, fixed seed).
The baseline is the cheapest useful pass over it: ``iter_signals`` over the
file's lines. ``validate`` (report_from_binary, what the CLI runs) must cost at
most 3x that; the Python API over str lines (conformance_report) is reported
apart.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks._corpus import DATA, corpus_lines
from benchmarks._timing import report, side_by_side
from bernstein_signals import iter_signals
from bernstein_signals_toolkit.validate import conformance_report
from bernstein_signals_toolkit.validate.report import report_from_binary


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


if __name__ == "__main__":
    main()
