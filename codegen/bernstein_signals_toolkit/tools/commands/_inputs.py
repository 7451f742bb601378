"""What the commands that read streams share: opening inputs and choosing the vocabulary."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..runtime_vocabulary import RuntimeVocabulary, built_in, compile_folder
from ..validate.codes import UNKNOWN_KINDS, Severity
from ._arguments import path_errors, printable

__all__ = [
    "add_unknown_kinds_argument",
    "add_vocabulary_argument",
    "check_readable",
    "opened",
    "unknown_kinds_severity",
    "vocabulary_of",
]


@contextmanager
def opened(path: str) -> Iterator[IO[bytes]]:
    """A binary input: the file, or stdin for ``-``; an error is one line."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, errors become one line
    except OSError as exc:
        raise UsageError(f"{printable(path)}: cannot read: {exc.strerror or exc}") from None
    with handle:
        yield handle


def check_readable(paths: list[str]) -> None:
    """Fail before any output, so an unreadable file never leaves a partial report."""
    for path in paths:
        if path == "-":
            continue
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            raise UsageError(f"{printable(path)}: cannot read: {exc.strerror or exc}") from None
        if stat.S_ISDIR(mode):
            raise UsageError(f"{printable(path)}: is a directory")
        if not os.access(path, os.R_OK):
            raise UsageError(f"{printable(path)}: cannot read: Permission denied")


def add_vocabulary_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--vocabulary",
        metavar="DIR",
        help="a schema folder (vocabulary.json, *.schema.json) to use instead of the built-in"
        " vocabulary, compiled in memory; its grammar is DIR/../grammar/signal.lark if that"
        " exists, else the built-in one",
    )


def vocabulary_of(args: argparse.Namespace) -> RuntimeVocabulary:
    """The run's vocabulary: ``--vocabulary DIR`` compiled, else the built-in one."""
    folder: str | None = getattr(args, "vocabulary", None)
    if folder is None:
        return built_in()
    with path_errors("--vocabulary", folder):
        return compile_folder(folder)


def add_unknown_kinds_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--unknown-kinds",
        choices=tuple(UNKNOWN_KINDS),
        default="warning",
        help="how a well-formed line of a kind the vocabulary does not know is reported"
        " (BS216): error, warning (default) or ignore",
    )


def unknown_kinds_severity(args: argparse.Namespace) -> Severity | None:
    return UNKNOWN_KINDS[args.unknown_kinds]
