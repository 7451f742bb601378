"""What every adapter and every CLI call pays before it does anything: start-up.

Each contender is a fresh process from this venv's interpreter, timed as wall
time, best of several runs taken in turns so that every one sees the same
machine. Bytecode caches are written and used (``PYTHONDONTWRITEBYTECODE`` is
dropped from the environment), as on a user's machine; the first, untimed turn
writes them. Baselines from the same run: ``python -c pass`` and ``python -c
"import json, re"``.

Targets (issue 22, goal 6): ``import bernstein_signals`` at most 3x ``import
json, re``; ``--help`` and ``validate`` on a one-line file at most 4x ``python
-c pass``; ``wrap -- true`` at most 6x. Reported apart: an adapter's real first
signal (``emit(COMPLETED)``), which loads what writing a line needs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_PY = [sys.executable, "-c"]
_CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]


_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_ENV,
        check=True,  # a contender that fails would be timed as a fast one
    )
    return time.perf_counter() - start


def main(quick: bool = False) -> None:
    repeats = 5 if quick else 21
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "one.log"
        log.write_bytes(b"BERNSTEIN:COMPLETED\n")
        contenders = {
            "python -c pass": [*_PY, "pass"],
            "python -c 'import json, re'": [*_PY, "import json, re"],
            "import bernstein_signals": [*_PY, "import bernstein_signals"],
            "emit(COMPLETED)": [
                *_PY,
                "from bernstein_signals import SignalKind, emit; emit(SignalKind.COMPLETED)",
            ],
            "bernstein-signals --help": [*_CLI, "--help"],
            "validate one-line file": [*_CLI, "validate", str(log)],
            "wrap -- true": [*_CLI, "wrap", "--", "true"],
        }
        best = dict.fromkeys(contenders, float("inf"))
        for command in contenders.values():
            _wall(command)  # writes the bytecode caches
        for _ in range(repeats):
            for name, command in contenders.items():
                best[name] = min(best[name], _wall(command))
    bare, plain = best["python -c pass"], best["python -c 'import json, re'"]
    goals = {
        "import bernstein_signals": (plain, "import json, re", 3.0),
        "emit(COMPLETED)": (plain, "import json, re", None),
        "bernstein-signals --help": (bare, "python -c pass", 4.0),
        "validate one-line file": (bare, "python -c pass", 4.0),
        "wrap -- true": (bare, "python -c pass", 6.0),
    }
    print(f"python -c pass {bare * 1e3:.1f} ms, python -c 'import json, re' {plain * 1e3:.1f} ms")
    for name, (base, label, target) in goals.items():
        ratio = best[name] / base
        verdict = "" if target is None else f"   target <= {target:g}x: "
        if target is not None:
            verdict += "met" if ratio <= target else "MISSED"
        print(f"  {name:<26} {best[name] * 1e3:7.1f} ms  {ratio:5.2f}x {label}{verdict}")


if __name__ == "__main__":
    main()
