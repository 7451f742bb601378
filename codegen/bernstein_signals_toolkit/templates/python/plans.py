"""Plan handoff: find and read the file a PLAN_READY names, never outside ``.sdd/``.

A PLAN_READY's path comes from the adapter, so the orchestrator treats it as
untrusted: :func:`resolve_plan_path` accepts only a relative path under
``<workdir>/.sdd`` that stays there once symlinks are resolved.
"""

import os
import stat
from pathlib import Path
from typing import Final

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
        super().__init__(f"plan path {path!r} refused: {reason}")


def _check_text(path: object) -> str:
    """The lexical checks: what the path says, before the file system is asked."""
    if not isinstance(path, str):
        raise PlanPathError(path, f"not a str but {type(path).__name__}")
    if not path:
        raise PlanPathError(path, "empty path")
    if "\0" in path:
        raise PlanPathError(path, "NUL character")
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


def resolve_plan_path(workdir: str | os.PathLike[str], path: object) -> Path:
    """The resolved file ``path`` names under ``<workdir>/.sdd``.

    Raises PlanPathError (a ValueError) naming the reason: not a str, empty,
    NUL or another control character, backslash, absolute path, a ``..`` (or
    ``.``, or empty) segment, not under ``.sdd/``, or a symlink that escapes
    (``.sdd`` itself being a symlink out of ``workdir`` counts). The file need
    not exist.
    """
    text = _check_text(path)
    root = Path(workdir).resolve() / PLAN_DIR
    resolved = (root.parent / text).resolve()
    if resolved == root or not resolved.is_relative_to(root):
        raise PlanPathError(path, f"symlink escape (resolves to {str(resolved)!r})")
    return resolved


def read_plan(
    workdir: str | os.PathLike[str],
    signal: StreamSignal,
    *,
    max_bytes: int = DEFAULT_MAX_PLAN_BYTES,
) -> str:
    """The markdown of the plan a PLAN_READY hands over.

    Raises ValueError for a signal that is not PLAN_READY, a refused path
    (PlanPathError), a file that is not a regular file, larger than
    ``max_bytes`` or not UTF-8; OSError (FileNotFoundError...) when it cannot
    be read.
    """
    if signal.kind != SignalKind.PLAN_READY:
        raise ValueError(f"read_plan needs a PLAN_READY signal, not {signal.kind}")
    target = resolve_plan_path(workdir, signal.payload.get("path"))
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(target, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"plan {str(target)!r} is not a regular file")
        os.set_blocking(fd, True)
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise ValueError(f"plan {str(target)!r} is larger than {max_bytes} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"plan {str(target)!r} is not UTF-8 (byte offset {exc.start})") from None
