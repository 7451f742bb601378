"""Errors the toolkit reports as one line and an exit status, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["SourceError", "ToolkitError", "UsageError", "one_line", "path_error", "printable"]

_LINE_BREAKING = {
    **{code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, 0x85)},
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}
"""Control characters and every character ``str.splitlines`` breaks at, as escapes."""


def one_line(message: str) -> str:
    """``message`` as one line of text: a value quoted in it cannot start a line of its own."""
    return message.translate(_LINE_BREAKING)


def printable(value: str | os.PathLike[str]) -> str:
    """``value`` as valid UTF-8 text: bytes that are not UTF-8 shown as ``\\xNN``."""
    return os.fsencode(value).decode("utf-8", "backslashreplace")


class ToolkitError(Exception):
    """A failure the CLI prints as ``bernstein-signals: error: <message>``.

    Its text is always one line, whatever source text (a key, a pointer, a
    file name) the message quotes.
    """

    exit_status = 2

    def __str__(self) -> str:
        return one_line(super().__str__())


class UsageError(ToolkitError):
    """The command line or an input file is not usable."""


class SourceError(ToolkitError):
    """A source of truth (a schema, the grammar) breaks a rule of the vocabulary."""

    def __init__(self, path: Path | str, rule: str, message: str) -> None:
        self.path = str(path)
        self.rule = rule
        self.detail = message
        super().__init__(f"{self.path}: [{rule}] {message}")


def path_error(
    option: str | None, path: str | os.PathLike[str], reason: str | OSError
) -> UsageError:
    """The one wording for a path the command line names that cannot be used.

    ``OPTION PATH: reason`` (``PATH: reason`` for a positional argument). An
    OSError's reason is its strerror, after the entry it hit when that is not
    PATH itself (``DIR/vocabulary.json: Permission denied``).
    """
    if isinstance(reason, OSError):
        text = reason.strerror or str(reason)
        hit = reason.filename
        if isinstance(hit, (str, bytes)) and os.fsencode(hit) != os.fsencode(path):
            text = f"{printable(os.fsdecode(hit))}: {text}"
        reason = text
    shown = printable(path)
    return UsageError(f"{option} {shown}: {reason}" if option else f"{shown}: {reason}")
