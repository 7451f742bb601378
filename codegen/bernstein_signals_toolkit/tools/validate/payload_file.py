"""Check a bare payload (a JSON file, pretty-printed or not) against the schema of a kind."""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import replace
from typing import Any

from ..runtime_vocabulary import RuntimeVocabulary, built_in
from ._limits import PayloadProbe, limit_problem
from ._spans import layout, locate
from .codes import Severity
from .diagnostics import Diagnostic, build_diagnostic
from .payload_text import duplicate_keys, last_key_span
from .report import ConformanceReport

__all__ = ["payload_report"]

_NEWLINE = re.compile("\n")
_JSON_SPACE = " \t\r\n"


class _Lines:
    """Offsets of line starts, found once, so each diagnostic is placed in log time."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *(match.end() for match in _NEWLINE.finditer(text))]

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and 0-based column of a code-point offset."""
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index]

    def width(self, line: int) -> int:
        """Code points on a 1-based line, its newline excluded."""
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return end - self.starts[line - 1]

    def diagnostic(
        self,
        code: str,
        start: int,
        end: int,
        message: str,
        *,
        pointer: str | None = None,
        rule: str | None = None,
    ) -> Diagnostic:
        """In a payload file every finding is an error, except a duplicate key."""
        line, column = self.position(start)
        end_line, end_column = self.position(max(end, start + 1))
        if end_line != line:  # a multi-line value: underline to the end of its first line
            end_column = self.width(line)
        found = build_diagnostic(
            code, line, column, max(end_column, column + 1), message, pointer=pointer, rule=rule
        )
        if code == "BS213":
            return found
        # Severity override: a payload file holds one payload and nothing else, so every
        # problem with it (a near-miss warning on a stream line) is an error here.
        return replace(found, severity=Severity.ERROR)


def payload_report(
    text: str,
    kind: str,
    *,
    enabled: frozenset[str],
    vocabulary: RuntimeVocabulary | None = None,
) -> ConformanceReport:
    """Diagnostics for one payload file; the limits are explained as the line checker does.

    ``kind`` must be one of the vocabulary's (the built-in one by default).
    """
    vocabulary = vocabulary or built_in()
    report = ConformanceReport(
        run_id=None,
        lines=text.count("\n") + (not text.endswith("\n")),
        kinds=vocabulary.kinds,
    )
    lines = _Lines(text)
    found: list[Diagnostic] = []
    add = found.append
    probe = PayloadProbe()
    payload: Any = None
    start = len(text) - len(text.lstrip(_JSON_SPACE))
    try:
        payload, end = probe.decode(text, start)
    except json.JSONDecodeError as exc:
        add(lines.diagnostic("BS210", exc.pos, exc.pos + 1, f"malformed JSON: {exc.msg}"))
    except ValueError as exc:  # LimitExceeded, or anything else json refuses to convert
        add(lines.diagnostic("BS215", start, len(text), f"the payload holds {exc}"))
    else:
        rest = len(text.rstrip(_JSON_SPACE))
        if end < rest:
            add(lines.diagnostic("BS210", end, end + 1, "malformed JSON: Extra data"))
            payload = None
    problem = limit_problem(payload, probe) if payload is not None else None
    if payload is not None and probe.non_finite:
        add(lines.diagnostic("BS212", start, len(text), "NaN and Infinity are not JSON"))
    elif problem is not None:
        add(lines.diagnostic("BS215", start, len(text), f"the payload holds {problem}"))
    elif payload is not None and not isinstance(payload, dict):
        add(
            lines.diagnostic(
                "BS209",
                0,
                len(text.rstrip()),
                f"a payload is a JSON object, not {type(payload).__name__}",
            )
        )
    elif isinstance(payload, dict):
        scanned = layout(text)
        for error in vocabulary.validate_payload(kind, payload):
            begin, end = locate(scanned.spans, error.pointer) or (0, len(text))
            add(
                lines.diagnostic(
                    "BS101",
                    begin,
                    end,
                    f"{kind} payload at {error.pointer or '/'}: {error.message} [{error.rule}]",
                    pointer=error.pointer,
                    rule=f"{error.rule}: {error.detail}",
                )
            )
        duplicated = duplicate_keys(text, start)
        if duplicated:
            begin, end = last_key_span(text, duplicated[0], start, len(text))
            add(
                lines.diagnostic(
                    "BS213",
                    begin,
                    end,
                    "duplicate keys in the payload: " + ", ".join(sorted(duplicated)),
                )
            )
    report.diagnostics[:] = sorted(
        (d for d in found if d.code in enabled), key=lambda d: (d.line, d.start, d.code)
    )
    return report
