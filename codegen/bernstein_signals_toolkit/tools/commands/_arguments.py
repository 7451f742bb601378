"""Command-line values that end up inside a signal, a reply or a report, checked up front.

Arguments arrive as bytes; Python turns bytes that are not UTF-8 into lone
surrogates, which no signal or reply line can carry. Every option whose value
is written into one uses :func:`text` as its argparse ``type``, so such a value
is a usage error (one line, exit 2) before anything runs, never a traceback
halfway through a run.
"""

from __future__ import annotations

import argparse
import os

from bernstein_signals_toolkit.toolkit_errors import UsageError

__all__ = ["option_file", "printable", "text"]


def printable(value: str) -> str:
    """``value`` as valid UTF-8 text: bytes that are not UTF-8 shown as ``\\xNN``."""
    return os.fsencode(value).decode("utf-8", "backslashreplace")


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


def option_file(option: str, path: str, limit: int) -> bytes:
    """The bytes of the file an option names, at most ``limit`` of them: a file that
    cannot be read or is larger is a usage error naming the option and the file."""
    name = printable(path)
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as exc:
        raise UsageError(f"{option} {name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UsageError(f"{option} {name}: larger than {limit} bytes")
    return data
