"""Errors the toolkit reports as one line and an exit status, never a traceback."""

from __future__ import annotations

from pathlib import Path

__all__ = ["SourceError", "ToolkitError", "UsageError", "one_line"]

_LINE_BREAKING = {
    **{code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, 0x85)},
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}
"""Control characters and every character ``str.splitlines`` breaks at, as escapes."""


def one_line(message: str) -> str:
    """``message`` as one line of text: a value quoted in it cannot start a line of its own."""
    return message.translate(_LINE_BREAKING)


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
