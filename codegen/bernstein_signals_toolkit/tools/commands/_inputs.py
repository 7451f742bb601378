"""What the commands that read streams share: opening inputs and choosing the vocabulary."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..runtime_vocabulary import RuntimeVocabulary, built_in, compile_folder
from ..validate.codes import UNKNOWN_KINDS, Severity

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
    return built_in() if folder is None else compile_folder(folder)


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
