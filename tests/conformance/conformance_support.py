"""Running ``bernstein-signals conformance`` from tests, and writing small vector folders."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bernstein_signals_toolkit.generator.emitters._conformance_categories import KIT_FORMAT

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "conformance"]
HARNESSES = ROOT / "conformance" / "harness"
KIT_VECTORS = (ROOT / "generated" / "conformance" / "vectors", ROOT / "conformance" / "vectors")
PYTHON_HARNESS = [sys.executable, str(HARNESSES / "python.py")]


def conformance(*args: str, timeout: float = 240) -> tuple[int, str, str]:
    """Status, stdout and stderr of ``bernstein-signals conformance ARGS``."""
    done = subprocess.run(
        [*CLI, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        check=False,
        cwd=ROOT,
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def write_vectors(folder: Path, vectors: Sequence[dict[str, Any]], name: str = "v.json") -> Path:
    """A vector file of ``vectors`` in ``folder``; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    document = {
        "format": KIT_FORMAT,
        "vocabulary": {"name": "bernstein-stream-signals", "version": "1.1.0"},
        "vectors": list(vectors),
    }
    (folder / name).write_text(json.dumps(document), encoding="utf-8")
    return folder


def kit_vectors() -> list[dict[str, Any]]:
    """Every vector of the kit, as its files hold it."""
    found: list[dict[str, Any]] = []
    for folder in KIT_VECTORS:
        for path in sorted(folder.glob("*.json")):
            found += json.loads(path.read_text(encoding="utf-8"))["vectors"]
    return found
