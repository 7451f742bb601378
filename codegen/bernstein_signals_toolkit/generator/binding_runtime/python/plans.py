"""Plan handoff: find and read the file a PLAN_READY names, never outside ``.sdd/``.

A PLAN_READY's path comes from the adapter, so the orchestrator treats it as
untrusted, and the adapter may still be changing its files while the plan is
read. The path must be a relative path under ``<workdir>/.sdd`` with no
symlink on it at all (``.sdd`` itself, any folder, the file): :func:`read_plan`
opens it one component at a time from a descriptor of the working directory,
each with ``O_NOFOLLOW``, so no component can be swapped for a symlink between
a check and the open.
"""

import errno
import os
import stat
from pathlib import Path
from typing import Final

from .errors import _shown
from .fields import PLAN_READY_PATH
from .kinds import SignalKind
from .signals import StreamSignal

__all__ = ["DEFAULT_MAX_PLAN_BYTES", "PLAN_DIR", "PlanPathError", "read_plan", "resolve_plan_path"]

PLAN_DIR: Final = ".sdd"
"""Plans live under this folder of the adapter's working directory."""
DEFAULT_MAX_PLAN_BYTES: Final = 16 << 20
""":func:`read_plan` refuses larger plan files."""


class PlanPathError(ValueError):
    """A plan path that the handoff refuses; ``reason`` says why in a few words."""

    def __init__(self, path: object, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"plan path {_shown(path)} refused: {reason}")


def _check_text(path: object) -> str:
    """The lexical checks: what the path says, before the file system is asked."""
    if not isinstance(path, str):
        raise PlanPathError(path, f"not a str but {type(path).__name__}")
    if not path:
        raise PlanPathError(path, "empty path")
    if "\0" in path:
        raise PlanPathError(path, "NUL character")
    if not path.isascii():
        try:
            path.encode("utf-8")
        except UnicodeEncodeError:
            raise PlanPathError(path, "lone surrogate") from None
    if any(ord(char) < 0x20 or char == "\x7f" for char in path):
        raise PlanPathError(path, "control character")
    if "\\" in path:
        raise PlanPathError(path, "backslash")
    if path.startswith("/"):
        raise PlanPathError(path, "absolute path")
    segments = path.split("/")
    if ".." in segments:
        raise PlanPathError(path, "'..' segment")
    if "." in segments or "" in segments:
        raise PlanPathError(path, "'.' or empty segment")
    if segments[0] != PLAN_DIR or len(segments) < 2:
        raise PlanPathError(path, f"not under {PLAN_DIR}/")
    return path


_DIRECTORY_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_FILE_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
def _refuse_symlink(path: str, segments: list[str], count: int, folder: int, exc: OSError) -> None:
    """Turn the failed ``O_NOFOLLOW`` open of ``segments[count - 1]`` into PlanPathError when
    it failed at a symlink (ELOOP, or ENOTDIR with ``O_DIRECTORY``); the open has already
    been refused, so this look is only for the message.
    """
    if exc.errno not in (errno.ELOOP, errno.ENOTDIR, getattr(errno, "EMLINK", errno.ELOOP)):
        return
    try:
        mode = os.stat(segments[count - 1], dir_fd=folder, follow_symlinks=False).st_mode
    except OSError:
        return
    if stat.S_ISLNK(mode):
        where = "/".join(segments[:count])
        raise PlanPathError(path, f"symlink at {where!r} (symlinks are not followed)") from None


def _open_folder(workdir: str | os.PathLike[str], path: str) -> tuple[int, str]:
    """A descriptor of the folder holding the plan, and the plan's file name.

    Opened from the working directory one component at a time, never following
    a symlink; a missing folder raises FileNotFoundError.
    """
    if os.open not in os.supports_dir_fd:
        raise PlanPathError(path, "this platform cannot open a path without following symlinks")
    segments = path.split("/")
    fd = os.open(workdir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        for count, segment in enumerate(segments[:-1], 1):
            try:
                inner = os.open(segment, _DIRECTORY_FLAGS, dir_fd=fd)
            except OSError as exc:
                _refuse_symlink(path, segments, count, fd, exc)
                raise
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd, segments[-1]


def resolve_plan_path(workdir: str | os.PathLike[str], path: object) -> Path:
    """The file ``path`` names under ``<workdir>/.sdd``, as it stands now.

    Raises PlanPathError (a ValueError) naming the reason: not a str, empty,
    NUL or another control character, lone surrogate, backslash, absolute path, a ``..`` (or
    ``.``, or empty) segment, not under ``.sdd/``, or a symlink anywhere on
    the path (``.sdd`` itself included). The file need not exist. This is a
    check at one instant: :func:`read_plan` does not reuse its answer.
    """
    text = _check_text(path)
    try:
        fd, name = _open_folder(workdir, text)
    except FileNotFoundError:
        return Path(workdir).resolve() / text
    try:
        if stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
            raise PlanPathError(path, f"symlink at {text!r} (symlinks are not followed)")
    except FileNotFoundError:
        pass
    finally:
        os.close(fd)
    return Path(workdir).resolve() / text


def read_plan(
    workdir: str | os.PathLike[str],
    signal: StreamSignal,
    *,
    max_bytes: int = DEFAULT_MAX_PLAN_BYTES,
) -> str:
    """The markdown of the plan a PLAN_READY hands over.

    Raises ValueError for a signal that is not PLAN_READY, a refused path
    (PlanPathError, a symlink loop included), a file that is not a regular
    file, larger than ``max_bytes`` or not UTF-8; OSError (FileNotFoundError...)
    when it cannot be read. The file is opened through descriptors, one
    component at a time, so an adapter swapping a folder for a symlink while
    the plan is read gets an error, never a file outside ``.sdd/``.
    """
    if signal.kind != SignalKind.PLAN_READY:
        raise ValueError(f"read_plan needs a PLAN_READY signal, not {signal.kind}")
    path = signal.payload.get(PLAN_READY_PATH)
    text = _check_text(path)
    shown = str(Path(workdir) / text)
    folder, name = _open_folder(workdir, text)
    try:
        try:
            fd = os.open(name, _FILE_FLAGS, dir_fd=folder)
        except OSError as exc:
            _refuse_symlink(text, text.split("/"), text.count("/") + 1, folder, exc)
            raise
    finally:
        os.close(folder)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"plan {shown!r} is not a regular file")
        os.set_blocking(fd, True)
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise ValueError(f"plan {shown!r} is larger than {max_bytes} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"plan {shown!r} is not UTF-8 (byte offset {exc.start})") from None
