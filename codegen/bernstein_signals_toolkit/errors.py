"""Errors the toolkit reports as one line and an exit status, never a traceback."""

from __future__ import annotations

from pathlib import Path

__all__ = ["SourceError", "ToolkitError", "UsageError"]


class ToolkitError(Exception):
    """A failure the CLI prints as ``bernstein-signals: error: <message>``."""

    exit_status = 2


class UsageError(ToolkitError):
    """The command line or an input file is not usable."""


class SourceError(ToolkitError):
    """A source of truth (a schema, the grammar) breaks a rule of the vocabulary."""

    def __init__(self, path: Path | str, rule: str, message: str) -> None:
        self.path = str(path)
        self.rule = rule
        self.detail = message
        super().__init__(f"{self.path}: [{rule}] {message}")
