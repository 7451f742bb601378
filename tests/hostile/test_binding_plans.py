"""read_plan against an adapter that swaps a folder for a symlink while the plan is read.

Issue 10 item 1: the path was checked, then opened by name, and ``O_NOFOLLOW``
guarded only the last component: about 13% of reads in 5 s got the outside
file. Here a separate process flips ``.sdd/plans`` between a folder and a
symlink to an outside folder as fast as it can, and no read may see outside
content, while some reads must still succeed (the race really ran).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from bernstein_signals import PlanPathError, StreamSignal, parse_signal, plan_ready, read_plan

_FLIPPER = r"""
import os, sys, time
os.chdir(sys.argv[1])
end = time.monotonic() + float(sys.argv[2])
print("ready", flush=True)
flips = 0
while time.monotonic() < end:
    os.rename("plans", "folder"); os.rename("link", "plans")
    os.rename("plans", "link"); os.rename("folder", "plans")
    flips += 1
print(flips, flush=True)
"""

_SECONDS = 4.0


def _ready(path: str) -> StreamSignal:
    signal = parse_signal(plan_ready(path))
    assert signal is not None
    return signal


@pytest.mark.timeout(60)
@pytest.mark.parametrize("target", [".sdd/plans/plan.md", ".sdd/plans/deeper/plan.md"])
def test_a_swapping_adapter_never_gets_an_outside_file_read(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, target: str
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "deeper").mkdir()
    for folder in (outside, outside / "deeper"):
        (folder / "plan.md").write_text("OUTSIDE", encoding="utf-8")
    plans = tmp_path / ".sdd" / "plans"
    (plans / "deeper").mkdir(parents=True)
    for folder in (plans, plans / "deeper"):
        (folder / "plan.md").write_text("inside", encoding="utf-8")
    (tmp_path / ".sdd" / "link").symlink_to(outside)
    signal = _ready(target)

    with subprocess.Popen(
        [sys.executable, "-c", _FLIPPER, str(tmp_path / ".sdd"), str(_SECONDS)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    ) as flipper:
        try:
            seen, flips = _race(flipper, tmp_path, signal)
        finally:
            flipper.kill()
    assert "OUTSIDE" not in seen, seen
    assert seen.get("inside", 0) > 0, seen
    assert seen.get("refused: symlink", 0) > 0, seen  # the swap really raced the reads
    assert flips > 100, flips


def _race(
    flipper: subprocess.Popen[str], workdir: Path, signal: StreamSignal
) -> tuple[dict[str, int], int]:
    """Read the plan until the flipper is nearly done; count each outcome."""
    assert flipper.stdout is not None
    assert flipper.stdout.readline() == "ready\n"
    seen: dict[str, int] = {}
    end = time.monotonic() + _SECONDS - 0.5
    while time.monotonic() < end:
        try:
            outcome = read_plan(workdir, signal)
        except PlanPathError as exc:
            outcome = "refused: " + exc.reason.split(" ")[0]
        except OSError as exc:
            outcome = type(exc).__name__  # mid-swap: gone, or a symlink a moment ago
        seen[outcome] = seen.get(outcome, 0) + 1
    flips = int(flipper.stdout.readline())
    assert flipper.wait(timeout=30) == 0
    return seen, flips
