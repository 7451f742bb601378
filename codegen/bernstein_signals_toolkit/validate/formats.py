"""Render reports for people (text), programs (json), code scanners (sarif) and GitHub (github).

Diagnostics hold 0-based code-point columns; each format converts: text and
GitHub print 1-based columns, SARIF declares ``columnKind: unicodeCodePoints``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from .. import __version__
from .codes import CODES, Severity
from .diagnostics import Diagnostic
from .report import ConformanceReport

__all__ = ["FORMATS", "github", "json_document", "sarif_document", "text"]

FORMATS = ("text", "json", "sarif", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://bernstein.dev/stream-signals"

Reports = Sequence[tuple[str, ConformanceReport]]

_COLORS = {
    Severity.ERROR: "\033[1;31m",
    Severity.WARNING: "\033[1;33m",
    Severity.INFORMATION: "\033[1;36m",
}
_BOLD, _RESET = "\033[1m", "\033[0m"


# ---------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------


def text(path: str, report: ConformanceReport, *, color: bool = False) -> Iterator[str]:
    """Compiler-style lines: ``path:line:col: severity[CODE] message``, 1-based columns."""
    for diagnostic in report.diagnostics:
        severity = diagnostic.severity.value
        where = f"{path}:{diagnostic.line}:{diagnostic.start + 1}:"
        if color:
            where = f"{_BOLD}{where}{_RESET}"
            severity = f"{_COLORS[diagnostic.severity]}{severity}{_RESET}"
        yield f"{where} {severity}[{diagnostic.code}] {diagnostic.message}"
        if diagnostic.replacement is not None:
            yield f"    suggestion: {diagnostic.replacement}"


def summary_line(reports: Reports) -> str:
    counts = {severity: sum(r.count(severity) for _, r in reports) for severity in Severity}
    signals = sum(len(r.signals) for _, r in reports)
    return (
        f"{len(reports)} file(s), {signals} signal(s): {counts[Severity.ERROR]} error(s),"
        f" {counts[Severity.WARNING]} warning(s), {counts[Severity.INFORMATION]} information"
    )


# ---------------------------------------------------------------------------
# json
# ---------------------------------------------------------------------------


def json_document(reports: Reports) -> dict[str, Any]:
    """The document ``--format json`` prints; its schema is validate/output.schema.json."""
    return {
        "tool": {"name": "bernstein-signals", "version": __version__},
        "passed": all(report.passed for _, report in reports),
        "files": [{"path": path, **report.to_dict()} for path, report in reports],
    }


# ---------------------------------------------------------------------------
# SARIF 2.1.0
# ---------------------------------------------------------------------------

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note"}


def _rule(code: str) -> dict[str, Any]:
    info = CODES[code]
    help_text = info.explanation
    if info.bad:
        help_text += f"\n\nInstead of:\n    {info.bad}\nwrite:\n    {info.good}"
    return {
        "id": info.code,
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": info.explanation},
        "help": {"text": help_text},
        "defaultConfiguration": {"level": _SARIF_LEVEL[info.severity]},
    }


def _result(path: str, diagnostic: Diagnostic, rule_index: dict[str, int]) -> dict[str, Any]:
    region = {
        "startLine": diagnostic.line,
        "startColumn": diagnostic.start + 1,
        "endColumn": max(diagnostic.end, diagnostic.start) + 1,
    }
    location = {"physicalLocation": {"artifactLocation": {"uri": path}, "region": region}}
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index[diagnostic.code],
        "level": _SARIF_LEVEL[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "locations": [location],
    }
    if diagnostic.replacement is not None:
        result["fixes"] = [
            {
                "description": {"text": f"Replace the line with: {diagnostic.replacement}"},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": path},
                        "replacements": [
                            {
                                "deletedRegion": {
                                    "startLine": diagnostic.line,
                                    "startColumn": 1,
                                    "endLine": diagnostic.line + 1,
                                    "endColumn": 1,
                                },
                                "insertedContent": {"text": diagnostic.replacement + "\n"},
                            }
                        ],
                    }
                ],
            }
        ]
    return result


def sarif_document(reports: Reports) -> dict[str, Any]:
    codes = sorted(CODES)
    rule_index = {code: index for index, code in enumerate(codes)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "bernstein-signals",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(code) for code in codes],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "artifacts": [{"location": {"uri": path}} for path, _ in reports],
                "results": [
                    _result(path, diagnostic, rule_index)
                    for path, report in reports
                    for diagnostic in report.diagnostics
                ],
            }
        ],
    }


# ---------------------------------------------------------------------------
# GitHub workflow commands
# ---------------------------------------------------------------------------

_GITHUB_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "notice",
}


def escape_data(value: str) -> str:
    """As @actions/core escapes a command's message."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """As @actions/core escapes a command property (also ``:`` and ``,``)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def github(path: str, report: ConformanceReport) -> Iterator[str]:
    for diagnostic in report.diagnostics:
        properties = {
            "file": path,
            "line": str(diagnostic.line),
            "col": str(diagnostic.start + 1),
            "endColumn": str(max(diagnostic.end, diagnostic.start) + 1),
            "title": f"{diagnostic.code} {diagnostic.name}",
        }
        rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
        message = diagnostic.message
        if diagnostic.replacement is not None:
            message += f"\nsuggestion: {diagnostic.replacement}"
        yield f"::{_GITHUB_LEVEL[diagnostic.severity]} {rendered}::{escape_data(message)}"


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)
