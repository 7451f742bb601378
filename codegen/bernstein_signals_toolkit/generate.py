"""Render every target in memory, then compare with or write the output folder.

Nothing touches the output folder until every source has loaded and every
emitter has run, so a bad source leaves it exactly as it was.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .emitters import EMITTERS
from .emitters._header import MARKER
from .errors import ToolkitError
from .load import load_vocabulary
from .model import Vocabulary

__all__ = ["Drift", "compare", "render", "render_sources", "write"]

# The one formatter for generated Python, with settings passed explicitly so
# that no configuration file around the output folder can change the bytes.
RUFF_FORMAT = (
    "format",
    "--isolated",
    "--no-cache",
    "--quiet",
    "--line-length=100",
    "--target-version=py311",
)
_IGNORED_DIRS = frozenset({"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"})


@dataclass(frozen=True)
class Drift:
    """How an output folder differs from what the sources generate."""

    stale: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    orphaned: tuple[str, ...] = ()
    """Files the generator did not produce."""
    foreign: tuple[str, ...] = ()
    """The orphans without the generated header: hand-written, so never deleted."""

    def __bool__(self) -> bool:
        return bool(self.stale or self.missing or self.orphaned)

    def lines(self) -> list[str]:
        return [
            *(f"stale: {path}" for path in self.stale),
            *(f"missing: {path}" for path in self.missing),
            *(f"orphaned: {path}" for path in self.orphaned),
        ]


def _normalise(text: str) -> bytes:
    """``\\n`` line endings, no trailing blanks at the end, exactly one final newline."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return (text.rstrip("\n") + "\n").encode("utf-8")


def _format_python(files: dict[str, str]) -> dict[str, str]:
    python = {path: text for path, text in files.items() if path.endswith(".py")}
    if not python:
        return files
    with tempfile.TemporaryDirectory(prefix="bernstein-signals-format-") as scratch:
        root = Path(scratch)
        for path, text in python.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *RUFF_FORMAT, str(root)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["no message"])[-1]
            raise ToolkitError(f"ruff format failed on generated code: {last}")
        formatted = {path: (root / path).read_text(encoding="utf-8") for path in python}
    return {**files, **formatted}


def render(vocabulary: Vocabulary, targets: Iterable[str] | None = None) -> dict[str, bytes]:
    """Every generated file (of the named targets), keyed by its POSIX path under the output.

    Tests name targets to exercise one emitter on a vocabulary another emitter
    refuses; ``generate`` always renders them all.
    """
    files: dict[str, str] = {}
    chosen = sorted(EMITTERS) if targets is None else sorted(targets)
    for target in chosen:
        emit = EMITTERS[target]
        for path, text in emit(vocabulary).items():
            if path in files:
                raise ToolkitError(f"emitter {target!r} writes {path}, which another emitter wrote")
            files[path] = text
    formatted = _format_python(files)
    return {path: _normalise(formatted[path]) for path in sorted(formatted)}


def render_sources(
    schema_dir: Path, grammar: Path, targets: Iterable[str] | None = None
) -> dict[str, bytes]:
    return render(load_vocabulary(schema_dir, grammar), targets)


def _existing(out_dir: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    if not out_dir.is_dir():
        return found
    for folder, dirs, names in os.walk(out_dir):
        dirs[:] = sorted(d for d in dirs if d not in _IGNORED_DIRS and not d.endswith(".egg-info"))
        for name in names:
            if name.endswith(".pyc"):
                continue
            path = Path(folder) / name
            found[PurePosixPath(path.relative_to(out_dir)).as_posix()] = path
    return found


def _is_generated(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return MARKER.encode() in handle.read(400)
    except OSError:
        return False


def compare(out_dir: Path, files: Mapping[str, bytes]) -> Drift:
    existing = _existing(out_dir)
    stale = []
    for path, content in files.items():
        if path in existing:
            try:
                current = existing[path].read_bytes()
            except OSError:
                current = None
            if current != content:
                stale.append(path)
    orphaned = sorted(set(existing) - set(files))
    return Drift(
        stale=tuple(sorted(stale)),
        missing=tuple(sorted(set(files) - set(existing))),
        orphaned=tuple(orphaned),
        foreign=tuple(path for path in orphaned if not _is_generated(existing[path])),
    )


def write(out_dir: Path, files: Mapping[str, bytes]) -> Drift:
    """Bring ``out_dir`` in line with ``files``; return how it differed.

    Unchanged files are not rewritten, so timestamps and editors stay quiet.
    Each file is replaced atomically. Foreign orphans are left in place.
    """
    drift = compare(out_dir, files)
    for path in (*drift.stale, *drift.missing):
        target = out_dir / path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{target.name}.partial")
            partial.write_bytes(files[path])
            partial.replace(target)
        except OSError as exc:
            raise ToolkitError(f"cannot write {target}: {exc.strerror or exc}") from None
    for path in drift.orphaned:
        if path not in drift.foreign:
            target = out_dir / path
            target.unlink()
            _prune_empty(target.parent, out_dir)
    return drift


def _prune_empty(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir():
        leftovers = [p for p in folder.iterdir() if p.name not in _IGNORED_DIRS]
        if leftovers:
            return
        shutil.rmtree(folder)
        folder = folder.parent
