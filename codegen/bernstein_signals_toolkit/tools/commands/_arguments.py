"""Command-line values, checked up front: text that ends up in a signal, and paths.

Arguments arrive as bytes; Python turns bytes that are not UTF-8 into lone
surrogates, which no signal or reply line can carry. Every option whose value
is written into one uses :func:`text` as its argparse ``type``, so such a value
is a usage error (one line, exit 2) before anything runs, never a traceback
halfway through a run.

Every option (and positional) that names a file or folder goes through this
module: :func:`option_file` reads a small file, :func:`input_file`,
:func:`input_folder` and :func:`output_folder` check a path before it is used,
and :func:`path_errors` turns what the file system refuses while it is used into
one line naming the option and the path (``toolkit_errors.path_error``):
ENAMETOOLONG, ENOENT, EACCES, ENOTDIR, ELOOP, a FIFO where a file belongs.
``tests/hostile/test_cli_paths.py`` drives every path option of every parser.
"""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager

from bernstein_signals_toolkit.toolkit_errors import (
    ToolkitError,
    path_error,
    printable,
)

__all__ = [
    "input_file",
    "input_folder",
    "option_file",
    "output_folder",
    "path_errors",
    "printable",
    "text",
]

PathArg = str | os.PathLike[str]


def text(value: str) -> str:
    """An argparse type: the value unchanged if it is valid UTF-8 text."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        where = len(value[: exc.start].encode())
        raise argparse.ArgumentTypeError(
            f"not valid UTF-8 at byte {where}: {os.fsencode(value)!r}"
        ) from None
    return value


@contextmanager
def path_errors(option: str | None, path: PathArg) -> Iterator[None]:
    """While ``path`` is used: an OSError, or a one-line error made from one, names the
    option and the path (``option`` None: a positional, named by its path alone)."""
    try:
        yield
    except OSError as exc:
        raise path_error(option, path, exc) from None
    except ToolkitError as exc:
        made_from_os_error = isinstance(exc.__context__, OSError)
        if option is None or not made_from_os_error or str(exc).startswith(f"{option} "):
            raise
        named = path_error(option, path, str(exc))
        named.exit_status = exc.exit_status
        raise named from None


@contextmanager
def _regular_file(option: str | None, path: PathArg) -> Iterator[int]:
    """A descriptor of the regular file ``path``. Opened without waiting (a FIFO whose
    writer never comes would hang ``open``) and refused unless regular (a FIFO, a terminal
    or ``/dev/zero`` would hang or never end the read)."""
    with path_errors(option, path):
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise path_error(option, path, "not a regular file")
            yield fd
        finally:
            os.close(fd)


def option_file(option: str, path: PathArg, limit: int) -> bytes:
    """The bytes of the regular file an option names, at most ``limit`` of them: one that
    cannot be read or is larger is a usage error naming the option and the file."""
    with _regular_file(option, path) as fd:
        data = b""
        while len(data) <= limit:
            chunk = os.read(fd, limit + 1 - len(data))
            if not chunk:
                break
            data += chunk
    if len(data) > limit:
        raise path_error(option, path, f"larger than {limit} bytes")
    return data


def input_file(option: str | None, path: PathArg) -> None:
    """Refuse, before anything is read or written, a file that cannot be read or is no
    regular file (another reader opens it later)."""
    with _regular_file(option, path):
        pass


def input_folder(option: str | None, path: PathArg) -> None:
    """Refuse, before anything is read or written, a folder that cannot be listed."""
    with path_errors(option, path):
        if not stat.S_ISDIR(os.stat(path).st_mode):
            raise path_error(option, path, "not a folder")
        os.listdir(path)


def output_folder(option: str | None, path: PathArg) -> None:
    """Refuse, before anything is written, a folder that cannot be made or entered: one
    that is missing is fine (it is created), anything but a folder is not."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise path_error(option, path, exc) from None
    if not stat.S_ISDIR(mode):
        raise path_error(option, path, "not a folder")
