"""One finding of the validator, located on a line by code-point columns.

Every diagnostic is built by :func:`build_diagnostic`, which takes the
severity from the code table (:data:`.codes.CODES`). A code that is meant to
differ somewhere gets ``dataclasses.replace(d, severity=...)`` at that one
place, with a comment saying why; ``tests/tools/validate/test_validate.py`` lists those places
and fails on any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .codes import CODES, Severity

__all__ = ["SHOWN_CHARS", "Diagnostic", "build_diagnostic", "shown_word"]

SHOWN_CHARS = 40
"""How much of a quoted word a message shows: a hostile line must not make a huge message."""


def shown_word(word: str) -> str:
    """``repr`` of a word from the line, cut short when long."""
    if len(word) <= SHOWN_CHARS:
        return repr(word)
    return f"{word[:SHOWN_CHARS]!r}... ({len(word)} characters)"


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


def build_diagnostic(
    code: str,
    line: int,
    start: int,
    end: int,
    message: str,
    *,
    replacement: str | None = None,
    pointer: str | None = None,
    rule: str | None = None,
) -> Diagnostic:
    """A diagnostic of ``code`` with the severity its row in the code table gives."""
    return Diagnostic(
        code,
        CODES[code].severity,
        line,
        start,
        end,
        message,
        replacement=replacement,
        pointer=pointer,
        rule=rule,
    )
