"""Render every target in memory, then compare with or write the output folder.

Nothing touches the output folder until every source has loaded and every
emitter has run, so a bad source leaves it exactly as it was. The project's
README.md (next to the output folder) holds generated regions between marker
comments; only those regions are ever compared or rewritten.
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .emitters import EMITTERS
from .emitters._header import MARKER
from .errors import SourceError, ToolkitError, one_line
from .keywords import keyword_table
from .load import VOCABULARY_FILE, load_vocabulary
from .model import Vocabulary
from .output_folder import OutputFolder, create
from .sources import SCHEMA_DIR

__all__ = [
    "DIFF_LINES",
    "README_FILE",
    "Drift",
    "compare",
    "readme_regions",
    "render",
    "render_sources",
    "target_mark",
    "write",
]

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
DIFF_LINES = 40
"""Lines of a stale file's diff that ``--check`` prints; the rest are counted."""
_DIFF_BYTES = 1 << 20
"""A stale file larger than this (either side) is not diffed: difflib is not linear."""
README_FILE = "README.md"
README_PATH = f"../{README_FILE}"
"""How the README is named in a Drift: relative to the output folder, beside it."""
_README_BYTES = 4 << 20
"""The most of README.md that is read; a larger README is refused, not truncated."""


@dataclass(frozen=True)
class Drift:
    """How an output folder differs from what the sources generate."""

    stale: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    orphaned: tuple[str, ...] = ()
    """Files the generator did not produce."""
    foreign: tuple[str, ...] = ()
    """The orphans without the generated header: hand-written, so never deleted."""
    diffs: tuple[tuple[str, ...], ...] = ()
    """For each stale file, in order, its unified diff (as found -> as generated)."""

    def __bool__(self) -> bool:
        return bool(self.stale or self.missing or self.orphaned)

    def lines(self) -> list[str]:
        """One line per finding; each stale file's diff follows it, indented and truncated."""
        result = []
        for index, path in enumerate(self.stale):
            result.append(f"stale: {path}")
            diff = self.diffs[index] if index < len(self.diffs) else ()
            result += [f"    {line}" for line in diff[:DIFF_LINES]]
            if len(diff) > DIFF_LINES:
                result.append(f"    ... {len(diff) - DIFF_LINES} more lines")
        return [
            *result,
            *(f"missing: {path}" for path in self.missing),
            *(f"orphaned: {path}" for path in self.orphaned),
        ]


def _diff(path: str, found: bytes, wanted: bytes) -> tuple[str, ...]:
    """A unified diff of a stale file, every line escaped to one line of text."""
    if len(found) > _DIFF_BYTES or len(wanted) > _DIFF_BYTES:
        return (f"({len(found)} bytes found, {len(wanted)} generated: too large to diff)",)
    # Lines end at "\n" only, as in the files: a "\r" or U+2028 shows up escaped in its line.
    lines = difflib.unified_diff(
        found.decode("utf-8", "replace").split("\n"),
        wanted.decode("utf-8", "replace").split("\n"),
        f"{path} (found)",
        f"{path} (generated)",
        lineterm="",
    )
    return tuple(one_line(line) for line in lines) or ("(no line differs as text)",)


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


def _emit(target: str, vocabulary: Vocabulary) -> dict[str, str]:
    """One emitter's files; whatever goes wrong in it is one line naming the target.

    A refusal (SourceError) names its source file, and gets the target when it
    does not name one; any other failure is a bug of the emitter, reported with
    the exception instead of a traceback, so ``generate`` exits 0, 1 or 2 only.
    """
    try:
        return EMITTERS[target](vocabulary)
    except SourceError as exc:
        mark = target_mark(target)
        if mark in exc.detail:
            raise
        raise SourceError(exc.path, exc.rule, f"{exc.detail} {mark}") from None
    except ToolkitError as exc:
        raise ToolkitError(f"the {target} emitter failed: {exc}") from None
    except Exception as exc:
        # The one place an emitter's bug (any exception) becomes a line, not a traceback.
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise ToolkitError(f"the {target} emitter failed: {detail}") from None


def target_mark(target: str) -> str:
    """How a refusal names the target it comes from, at the end of its line."""
    return f"(target {target})"


def render(vocabulary: Vocabulary, targets: Iterable[str] | None = None) -> dict[str, bytes]:
    """Every generated file (of the named targets), keyed by its POSIX path under the output.

    Tests name targets to exercise one emitter on a vocabulary another emitter
    refuses; ``generate`` always renders them all.
    """
    files: dict[str, str] = {}
    chosen = sorted(EMITTERS) if targets is None else sorted(targets)
    for target in chosen:
        for path, text in _emit(target, vocabulary).items():
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


def compare(out_dir: Path, files: Mapping[str, bytes], *, readme: bool = True) -> Drift:
    """How ``out_dir`` (and, with ``readme``, the README's generated regions) differ from ``files``.

    Reads never follow a symlink or block on a FIFO.
    """
    drift = _compare_folder(out_dir, files, diffs=True)
    regions = _readme(out_dir) if readme else None
    if regions is None or regions.current == regions.wanted:
        return drift
    return Drift(
        stale=(*drift.stale, README_PATH),
        missing=drift.missing,
        orphaned=drift.orphaned,
        foreign=drift.foreign,
        diffs=(*drift.diffs, _diff(README_FILE, regions.current, regions.wanted)),
    )


def _compare_folder(out_dir: Path, files: Mapping[str, bytes], *, diffs: bool) -> Drift:
    existing = _existing(out_dir)
    stale: dict[str, tuple[str, ...]] = {}
    with OutputFolder(out_dir, disposable=_IGNORED_DIRS) as folder:
        for path, content in files.items():
            if path in existing and folder.read(path, len(content)) != content:
                found = folder.head(path, _DIFF_BYTES + 1) if diffs else b""
                stale[path] = _diff(path, found, content) if diffs else ()
        orphaned = sorted(set(existing) - set(files))
        foreign = tuple(
            path for path in orphaned if MARKER.encode() not in folder.head(path, _HEADER_BYTES)
        )
    order = sorted(stale)
    return Drift(
        stale=tuple(order),
        missing=tuple(sorted(set(files) - set(existing))),
        orphaned=tuple(orphaned),
        foreign=foreign,
        diffs=tuple(stale[path] for path in order),
    )


# ---------------------------------------------------------------------------
# The README's generated regions
# ---------------------------------------------------------------------------


def readme_regions() -> dict[str, str]:
    """Region name -> the Markdown ``generate`` keeps between that region's markers."""
    return {"keyword-table": "\n".join(keyword_table()).rstrip("\n")}


_REGION = re.compile(
    r"^<!-- generated:(?P<name>[a-z-]+):(?P<edge>start|end) -->$", flags=re.MULTILINE
)


@dataclass(frozen=True)
class _Readme:
    root: Path
    current: bytes
    wanted: bytes


def _readme(out_dir: Path) -> _Readme | None:
    """The README beside the output folder of a project, if it has generated regions.

    Only a README.md in the folder that holds the output folder and the
    schemas, with marker comments, is ever read for regions; markers that do
    not pair up are a one-line error, so a region is never guessed.
    """
    root = out_dir.parent
    if not (root / SCHEMA_DIR / VOCABULARY_FILE).is_file():
        return None
    with OutputFolder(root) as folder:
        current = folder.head(README_FILE, _README_BYTES + 1)
    if len(current) > _README_BYTES:
        raise ToolkitError(f"{root / README_FILE}: larger than {_README_BYTES} bytes")
    text = current.decode("utf-8", "surrogateescape")
    wanted, pieces, at, open_name = readme_regions(), [], 0, None
    seen: set[str] = set()
    for marker in _REGION.finditer(text):
        name, edge = marker["name"], marker["edge"]
        line = text.count("\n", 0, marker.start()) + 1
        where = f"{root / README_FILE}:{line}"
        if edge == "start":
            if open_name is not None or name in seen or name not in wanted:
                why = "an unknown region" if name not in wanted else "a region opened twice"
                raise ToolkitError(f"{where}: {why}: {marker[0]}")
            pieces.append(text[at : marker.end()])
            open_name, at = name, marker.end()
            seen.add(name)
        else:
            if open_name != name:
                raise ToolkitError(f"{where}: an end marker without its start: {marker[0]}")
            pieces.append(f"\n{wanted[name]}\n")
            open_name, at = None, marker.start()
    if open_name is not None:
        raise ToolkitError(f"{root / README_FILE}: the region {open_name!r} is never closed")
    if not seen:
        return None
    pieces.append(text[at:])
    return _Readme(root, current, "".join(pieces).encode("utf-8", "surrogateescape"))


def write(out_dir: Path, files: Mapping[str, bytes], *, readme: bool = True) -> Drift:
    """Bring ``out_dir`` in line with ``files``; return how it differed.

    Unchanged files are not rewritten, so timestamps and editors stay quiet.
    Each file is replaced atomically. Foreign orphans are left in place. A
    symlink on the way to any file to write or delete is refused before
    anything is written, and every write goes through descriptors opened with
    ``O_NOFOLLOW``, so a link swapped in meanwhile is not followed either.
    """
    drift = _compare_folder(out_dir, files, diffs=False)
    regions = _readme(out_dir) if readme else None
    if regions is not None and regions.current != regions.wanted:
        with OutputFolder(regions.root) as folder:
            folder.check_writable(README_FILE)
    else:
        regions = None
    changed = (*drift.stale, *drift.missing)
    doomed = [path for path in drift.orphaned if path not in drift.foreign]
    if changed or doomed:
        create(out_dir)
        with OutputFolder(out_dir, disposable=_IGNORED_DIRS) as folder:
            for path in (*changed, *doomed):
                folder.check_writable(path)
            for path in changed:
                folder.replace(path, files[path])
            for path in doomed:
                folder.remove(path)
    if regions is None:
        return drift
    with OutputFolder(regions.root) as folder:
        folder.replace(README_FILE, regions.wanted)
    return Drift(
        stale=(*drift.stale, README_PATH),
        missing=drift.missing,
        orphaned=drift.orphaned,
        foreign=drift.foreign,
    )
