"""Render every target in memory, then compare with or write the output folder.

Nothing touches the output folder until every source has loaded and every
emitter has run, so a bad source leaves it exactly as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
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
    with _OutputFolder(out_dir) as folder:
        for path, content in files.items():
            if path in existing and folder.read(path, len(content)) != content:
                stale.append(path)
        orphaned = sorted(set(existing) - set(files))
        foreign = tuple(path for path in orphaned if not folder.is_generated(path))
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
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ToolkitError(f"cannot write {out_dir}: {exc.strerror or exc}") from None
    with _OutputFolder(out_dir) as folder:
        for path in (*changed, *doomed):
            folder.check_writable(path)
        for path in changed:
            folder.replace(path, files[path])
        for path in doomed:
            folder.remove(path)
    return drift


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_HEADER_BYTES = 400
"""How far into a file the generated header's marker is looked for."""


class _OutputFolder:
    """The output folder, walked one component at a time from a descriptor, never through links.

    ``path`` arguments are the POSIX paths of :func:`render`, relative to the folder.
    """

    def __init__(self, root: Path) -> None:
        self._root = root
        self._fd: int | None = None

    def __enter__(self) -> _OutputFolder:
        try:
            self._fd = os.open(self._root, _DIR_FLAGS)
        except FileNotFoundError:
            self._fd = None
        except OSError as exc:
            raise self._refusal("", exc) from None
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)

    def _refusal(self, path: str, exc: OSError) -> ToolkitError:
        where = self._root / path if path else self._root
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and self._is_link(path):
            return ToolkitError(f"{where}: is a symlink; generate never follows one")
        return ToolkitError(f"cannot write {where}: {exc.strerror or exc}")

    def _is_link(self, path: str) -> bool:
        return (self._root / path if path else self._root).is_symlink() or any(
            (self._root / prefix).is_symlink() for prefix in _prefixes(path)
        )

    def _folder(self, parts: tuple[str, ...], *, create: bool) -> int | None:
        """A descriptor of the folder ``parts`` (None when missing and not created)."""
        if self._fd is None:
            return None
        fd = os.dup(self._fd)
        try:
            for part in parts:
                if create:
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(part, dir_fd=fd)
                try:
                    inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    os.close(fd)
                    return None
                os.close(fd)
                fd = inner
        except BaseException:
            os.close(fd)
            raise
        return fd

    def read(self, path: str, size: int) -> bytes | None:
        """The file's bytes if it is a regular file of ``size`` bytes, else None."""
        parts = PurePosixPath(path).parts
        try:
            folder = self._folder(parts[:-1], create=False)
        except OSError:
            return None
        if folder is None:
            return None
        try:
            fd = os.open(parts[-1], _READ_FLAGS, dir_fd=folder)
        except OSError:
            return None
        finally:
            os.close(folder)
        with os.fdopen(fd, "rb") as handle:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode) or status.st_size != size:
                return None
            return handle.read(size + 1)

    def is_generated(self, path: str) -> bool:
        """Whether the file carries the generated header; a link or a special file never does."""
        parts = PurePosixPath(path).parts
        try:
            folder = self._folder(parts[:-1], create=False)
            if folder is None:
                return False
            try:
                fd = os.open(parts[-1], _READ_FLAGS, dir_fd=folder)
            finally:
                os.close(folder)
        except OSError:
            return False
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return False
            return MARKER.encode() in handle.read(_HEADER_BYTES)

    def check_writable(self, path: str) -> None:
        """Refuse, before anything is written, a symlink on the way to ``path`` or at it."""
        for prefix in (*_prefixes(path), path):
            target = self._root / prefix
            if target.is_symlink():
                raise ToolkitError(f"{target}: is a symlink; generate never follows one")
        target = self._root / path
        if target.is_dir():
            raise ToolkitError(f"cannot write {target}: is a folder")

    def replace(self, path: str, content: bytes) -> None:
        """Write a fresh temporary next to the file, then rename it over the file."""
        parts = PurePosixPath(path).parts
        try:
            folder = self._folder(parts[:-1], create=True)
        except OSError as exc:
            raise self._refusal(path, exc) from None
        assert folder is not None
        try:
            temporary, fd = _new_file(folder, parts[-1])
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(content)
                os.replace(temporary, parts[-1], src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary, dir_fd=folder)
                raise
        except OSError as exc:
            raise ToolkitError(f"cannot write {self._root / path}: {exc.strerror or exc}") from None
        finally:
            os.close(folder)

    def remove(self, path: str) -> None:
        """Delete a generated orphan, then the folders it leaves empty (up to the root)."""
        parts = PurePosixPath(path).parts
        try:
            folder = self._folder(parts[:-1], create=False)
            if folder is None:
                return
            try:
                if not stat.S_ISLNK(os.lstat(parts[-1], dir_fd=folder).st_mode):
                    os.unlink(parts[-1], dir_fd=folder)
            finally:
                os.close(folder)
            for depth in range(len(parts) - 1, 0, -1):
                if not self._remove_if_empty(parts[:depth]):
                    break
        except OSError as exc:
            raise ToolkitError(
                f"cannot delete {self._root / path}: {exc.strerror or exc}"
            ) from None

    def _remove_if_empty(self, parts: tuple[str, ...]) -> bool:
        parent = self._folder(parts[:-1], create=False)
        if parent is None:
            return False
        try:
            inner = os.open(parts[-1], _DIR_FLAGS, dir_fd=parent)
            try:
                leftovers = os.listdir(inner)
                if any(
                    name not in _IGNORED_DIRS or stat.S_ISLNK(os.lstat(name, dir_fd=inner).st_mode)
                    for name in leftovers
                ):
                    return False  # a link is kept like any foreign file
                for name in leftovers:  # rmtree with dir_fd never follows a link
                    shutil.rmtree(name, dir_fd=inner)
            finally:
                os.close(inner)
            os.rmdir(parts[-1], dir_fd=parent)
        finally:
            os.close(parent)
        return True


def _prefixes(path: str) -> list[str]:
    """``a/b/c`` -> ``a``, ``a/b``: the folders on the way to a file."""
    parts = PurePosixPath(path).parts
    return [PurePosixPath(*parts[:depth]).as_posix() for depth in range(1, len(parts))]


def _new_file(folder: int, name: str) -> tuple[str, int]:
    """A new temporary file beside ``name``, with an unpredictable name (``O_EXCL``, no link)."""
    while True:
        temporary = f".{name}.{secrets.token_hex(8)}.partial"
        try:
            return temporary, os.open(temporary, _NEW_FILE_FLAGS, 0o666, dir_fd=folder)
        except FileExistsError:
            continue
