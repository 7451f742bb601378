"""Render every target in memory, then compare with or write the output folder.

Nothing touches the output folder until every source has loaded and every
emitter has run, so a bad source leaves it exactly as it was.
"""

from __future__ import annotations

import os
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
from .output_folder import OutputFolder, create

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
_HEADER_BYTES = 400
"""How far into a file the generated header's marker is looked for."""


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
    """Every file under ``out_dir``; a symlink (to a folder too) is listed, never followed."""
    found: dict[str, Path] = {}
    if not out_dir.is_dir() or out_dir.is_symlink():
        return found
    for folder, dirs, names in os.walk(out_dir):
        linked = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in linked and d not in _IGNORED_DIRS and not d.endswith(".egg-info")
        )
        for name in (*names, *linked):
            if name.endswith(".pyc"):
                continue
            path = Path(folder) / name
            found[PurePosixPath(path.relative_to(out_dir)).as_posix()] = path
    return found


def compare(out_dir: Path, files: Mapping[str, bytes]) -> Drift:
    """How ``out_dir`` differs from ``files``; reads never follow a symlink or block on a FIFO."""
    existing = _existing(out_dir)
    stale = []
    with OutputFolder(out_dir, disposable=_IGNORED_DIRS) as folder:
        for path, content in files.items():
            if path in existing and folder.read(path, len(content)) != content:
                stale.append(path)
        orphaned = sorted(set(existing) - set(files))
        foreign = tuple(
            path for path in orphaned if MARKER.encode() not in folder.head(path, _HEADER_BYTES)
        )
    return Drift(
        stale=tuple(sorted(stale)),
        missing=tuple(sorted(set(files) - set(existing))),
        orphaned=tuple(orphaned),
        foreign=foreign,
    )


def write(out_dir: Path, files: Mapping[str, bytes]) -> Drift:
    """Bring ``out_dir`` in line with ``files``; return how it differed.

    Unchanged files are not rewritten, so timestamps and editors stay quiet.
    Each file is replaced atomically. Foreign orphans are left in place. A
    symlink on the way to any file to write or delete is refused before
    anything is written, and every write goes through descriptors opened with
    ``O_NOFOLLOW``, so a link swapped in meanwhile is not followed either.
    """
    drift = compare(out_dir, files)
    changed = (*drift.stale, *drift.missing)
    doomed = [path for path in drift.orphaned if path not in drift.foreign]
    if not changed and not doomed:
        return drift
    create(out_dir)
    with OutputFolder(out_dir, disposable=_IGNORED_DIRS) as folder:
        for path in (*changed, *doomed):
            folder.check_writable(path)
        for path in changed:
            folder.replace(path, files[path])
        for path in doomed:
            folder.remove(path)
    return drift
