"""Run every benchmark module (``benchmarks/bench_*.py``) or the ones named.

Usage: ``python -m benchmarks [NAME ...] [--quick]``. Each module has
``main(quick: bool) -> None`` and prints its own figures. Timings are never
asserted: these machines are noisy, so each module reports ratios against a
baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path


def _modules() -> list[str]:
    here = Path(__file__).resolve().parent
    return sorted(
        info.name.removeprefix("bench_")
        for info in pkgutil.iter_modules([str(here)])
        if info.name.startswith("bench_")
    )


def main() -> int:
    available = _modules()
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"one of: {', '.join(available)}")
    parser.add_argument("--quick", action="store_true", help="small corpora, for a smoke run")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(available))
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    for name in args.names or available:
        print(f"== {name}", flush=True)
        module = importlib.import_module(f"benchmarks.bench_{name}")
        module.main(quick=args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
