"""Check a bare payload (a JSON file, pretty-printed or not) against the schema of a kind."""

from __future__ import annotations

import json
from typing import Any

from bernstein_signals import SignalKind, validate_payload

from ._spans import locate, value_spans
from .codes import CODES, Severity
from .diagnostics import Diagnostic
from .report import ConformanceReport

__all__ = ["payload_report"]


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and 0-based column of a code-point offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _diagnostic(
    code: str, text: str, start: int, end: int, message: str, *, pointer: str | None = None
) -> Diagnostic:
    """In a payload file every finding is an error, except a duplicate key."""
    line, column = _position(text, start)
    end_line, end_column = _position(text, max(end, start + 1))
    if end_line != line:  # a multi-line value: underline to the end of its first line
        end_column = len(text.split("\n")[line - 1])
    severity = CODES[code].severity if code == "BS213" else Severity.ERROR
    return Diagnostic(
        code, severity, line, column, max(end_column, column + 1), message, pointer=pointer
    )


def payload_report(text: str, kind: SignalKind, *, enabled: frozenset[str]) -> ConformanceReport:
    report = ConformanceReport(run_id=None, lines=text.count("\n") + (not text.endswith("\n")))
    add = report.diagnostics.append
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) != len(items):
            duplicates.extend(key for key, _ in items)
        return result

    def constant(name: str) -> None:
        raise ValueError(f"{name} is not JSON")

    try:
        payload = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as exc:
        add(_diagnostic("BS210", text, exc.pos, exc.pos + 1, f"malformed JSON: {exc.msg}"))
        payload = None
    except ValueError as exc:
        add(
            _diagnostic(
                "BS212" if "not JSON" in str(exc) else "BS215", text, 0, len(text), str(exc)
            )
        )
        payload = None
    if payload is not None and not isinstance(payload, dict):
        add(
            _diagnostic(
                "BS209",
                text,
                0,
                len(text.rstrip()),
                f"a payload is a JSON object, not {type(payload).__name__}",
            )
        )
    elif isinstance(payload, dict):
        spans = value_spans(text)
        for error in validate_payload(kind, payload):
            start, end = locate(spans, error.pointer) or (0, len(text))
            add(
                _diagnostic(
                    "BS101",
                    text,
                    start,
                    end,
                    f"{kind} payload at {error.pointer or '/'}: {error.message} [{error.rule}]",
                    pointer=error.pointer,
                )
            )
        if duplicates:
            add(
                _diagnostic(
                    "BS213",
                    text,
                    0,
                    1,
                    "duplicate keys in the payload: " + ", ".join(sorted(set(duplicates))),
                )
            )
    report.diagnostics[:] = [d for d in report.diagnostics if d.code in enabled]
    report.diagnostics.sort(key=lambda d: (d.line, d.start, d.code))
    return report
