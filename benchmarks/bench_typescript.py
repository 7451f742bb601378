"""The TypeScript binding's readSignals against a naive Node loop, in one Node process.

The naive loop is what an orchestrator writes by hand: ``readline`` over the
stream, ``startsWith`` the prefix, ``JSON.parse`` the payload (lenient about
every limit, no line-length bound, no kind check). readSignals is strict (the
grammar, known kinds, the documented limits) and bounded in memory. Both read
the shared corpus (1,000,000 lines, 50,000 with --quick) from a file stream.
Target (issue 15): readSignals >= 1.0x the naive loop's speed while strict.
Then the fence (issue 17), in the same process: mark vs formatSignal, check vs
parseSignal, and readSignals with the key vs without over a marked copy.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from benchmarks._corpus import DATA, corpus_lines

ROOT = Path(__file__).resolve().parent.parent
BINDING = ROOT / "generated" / "typescript"
SCRIPT = Path(__file__).resolve().parent / "bench_typescript.mjs"


def _corpus_file(quick: bool) -> Path:
    """The corpus cache file that corpus_lines writes (the one the other benchmarks read)."""
    lines = corpus_lines(quick)
    found = sorted(DATA.glob(f"stdout-*-{len(lines)}.txt"))
    if not found:
        raise SystemExit("bench_typescript: the corpus cache file is missing")
    return found[-1]


def main(quick: bool) -> None:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("bench_typescript needs Node.js >= 18 on PATH")
    corpus = _corpus_file(quick)
    turns = 2 if quick else 3
    result = subprocess.run(
        [node, str(SCRIPT), str(BINDING), str(corpus), str(turns), "fence"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
        timeout=1800,
    )
    if result.returncode != 0:
        raise SystemExit(f"bench_typescript failed: {result.stderr.strip()[-500:]}")
    figures = json.loads(result.stdout)
    megabytes = figures["bytes"] / 1e6
    for name in ("readSignals", "naive"):
        seconds = figures[name]["seconds"]
        print(
            f"  {name:12} {figures[name]['found']:7} signals  {seconds:7.3f} s"
            f"  {megabytes / seconds:7.1f} MB/s"
        )
    ratio = figures["naive"]["seconds"] / figures["readSignals"]["seconds"]
    print(f"  readSignals speed / naive readline loop: {ratio:.2f}x (target >= 1.0x)")
    fence = figures["fence"]
    print(f"  fence, {fence['signals']} signal lines ({fence['accepted']} accepted when fenced):")
    for fenced, plain, what in (
        ("mark", "formatSignal", "SignalMarker.mark / formatSignal"),
        ("check", "parseSignal", "FenceVerifier.check / parseSignal"),
        ("readFenced", "readMarked", "readSignals with the key / without, marked corpus"),
        ("readMarked", "readUnmarked", "readSignals, marked corpus / unmarked corpus"),
    ):
        times = fence[fenced], fence[plain]
        print(f"    {what:52} {times[0] / times[1]:5.2f}x")
