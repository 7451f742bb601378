"""One finding of the validator, located on a line by code-point columns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .codes import CODES, Severity

__all__ = ["Diagnostic"]


@dataclass(frozen=True)
class Diagnostic:
    """Lines are 1-based; columns are 0-based code-point offsets, end exclusive.

    Outputs convert: text prints 1-based columns, SARIF states its columnKind and
    the language server counts UTF-16 code units.
    """

    code: str
    severity: Severity
    line: int
    start: int
    end: int
    message: str
    replacement: str | None = None
    """A suggested replacement for the whole line, when one is certain enough."""
    pointer: str | None = None
    """For payload errors, the JSON pointer of the offending value."""
    rule: str | None = None
    """For payload errors, the rule broken in the validator's words (``pattern: must match ^a$``),
    kept when the schema's ``x-bernstein-message`` gives ``message`` a plain wording."""

    @property
    def name(self) -> str:
        return CODES[self.code].name

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "line": self.line,
            "start_column": self.start,
            "end_column": self.end,
            "message": self.message,
            "replacement": self.replacement,
            "pointer": self.pointer,
            "rule": self.rule,
        }
