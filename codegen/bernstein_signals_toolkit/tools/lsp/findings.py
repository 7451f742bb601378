"""What the language server reports: findings, each with an optional edit that fixes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..validate import Severity

__all__ = ["Edit", "Finding"]


class Edit(NamedTuple):
    """Replace the text from (line, start) to (end_line, end) with ``text``."""

    line: int
    start: int
    end_line: int
    end: int
    text: str


@dataclass(frozen=True)
class Finding:
    line: int
    start: int
    end_line: int
    end: int
    code: str | None
    """None for the server's own notices (the closing one past ``maxDiagnostics``)."""
    severity: Severity
    message: str
    edit: Edit | None = None
    """The suggested fix, when one applies."""
