"""What the commands that read streams share: opening inputs and naming kinds."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from bernstein_signals import SignalKind

from ..errors import UsageError

__all__ = ["check_readable", "opened", "signal_kind"]


@contextmanager
def opened(path: str) -> Iterator[IO[bytes]]:
    """A binary input: the file, or stdin for ``-``; an error is one line."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, errors become one line
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with handle:
        yield handle


def check_readable(paths: list[str]) -> None:
    """Fail before any output, so an unreadable file never leaves a partial report."""
    for path in paths:
        if path == "-":
            continue
        if os.path.isdir(path):
            raise UsageError(f"{path}: is a directory")
        if not os.access(path, os.R_OK):
            reason = "no such file" if not os.path.exists(path) else "permission denied"
            raise UsageError(f"{path}: cannot read: {reason}")


def signal_kind(name: str, *, option: str = "") -> SignalKind:
    """A kind given on the command line, in any case; an unknown one is a usage error."""
    try:
        return SignalKind(name.upper())
    except ValueError:
        known = ", ".join(kind.value for kind in SignalKind)
        where = f"{option}: " if option else ""
        raise UsageError(f"{where}unknown kind {name!r} (known: {known})") from None
