"""Writing into an output folder without ever following a symlink.

Every file under the folder is reached one component at a time from a
descriptor of the folder, with ``O_NOFOLLOW``: a symlink committed (or swapped
in) anywhere below it is refused, never written, read or deleted through.
Files are replaced atomically through a fresh temporary with an unpredictable
name (``O_CREAT|O_EXCL|O_NOFOLLOW``). ``generate`` and ``schema --catalog``
write through it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from bernstein_signals_toolkit.toolkit_errors import ToolkitError

__all__ = ["OutputFolder", "create", "write_files"]


def create(root: Path) -> None:
    """Create the output folder itself (the path the user gave) and its parents."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ToolkitError(f"cannot write {root}: {exc.strerror or exc}") from None


def write_files(root: Path, files: Mapping[str, bytes]) -> None:
    """Write ``files`` under ``root``: every path is checked before anything is written."""
    create(root)
    with OutputFolder(root) as folder:
        for path in files:
            folder.check_writable(path)
        for path, content in files.items():
            folder.replace(path, content)


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class OutputFolder:
    """An output folder, walked one component at a time from a descriptor, never through links.

    ``path`` arguments are POSIX paths relative to the folder. ``disposable``
    names folders (caches) that may go when pruning leaves only them behind.
    """

    def __init__(self, root: Path, *, disposable: frozenset[str] = frozenset()) -> None:
        self._root = root
        self._disposable = disposable
        self._fd: int | None = None

    def __enter__(self) -> OutputFolder:
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
            return ToolkitError(f"{where}: is a symlink; refusing to go through it")
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

    def head(self, path: str, size: int) -> bytes:
        """The first ``size`` bytes of a regular file; nothing for a link or a special file."""
        parts = PurePosixPath(path).parts
        try:
            folder = self._folder(parts[:-1], create=False)
            if folder is None:
                return b""
            try:
                fd = os.open(parts[-1], _READ_FLAGS, dir_fd=folder)
            finally:
                os.close(folder)
        except OSError:
            return b""
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return b""
            return handle.read(size)

    def check_writable(self, path: str) -> None:
        """Refuse, before anything is written, a symlink on the way to ``path`` or at it."""
        for prefix in (*_prefixes(path), path):
            target = self._root / prefix
            if target.is_symlink():
                raise ToolkitError(f"{target}: is a symlink; refusing to go through it")
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
                    name not in self._disposable
                    or stat.S_ISLNK(os.lstat(name, dir_fd=inner).st_mode)
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
