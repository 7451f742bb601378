"""Render reports for people (text), programs (json), code scanners (sarif) and GitHub (github).

Diagnostics hold 0-based code-point columns; each format converts: text and
GitHub print 1-based columns, SARIF declares ``columnKind: unicodeCodePoints``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import quote

from ... import __version__
from .codes import CODES, Severity
from .diagnostics import Diagnostic
from .report import ConformanceReport

__all__ = [
    "FORMATS",
    "display_name",
    "encode_line",
    "file_entry",
    "file_uri",
    "github",
    "github_line",
    "json_document",
    "sarif_document",
    "sarif_log",
    "sarif_result",
    "text",
    "text_lines",
]

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
# file names
# ---------------------------------------------------------------------------


def display_name(path: str) -> str:
    """A path as UTF-8 text: bytes that are not UTF-8 become U+FFFD (see :func:`file_uri`)."""
    return os.fsencode(path).decode("utf-8", "replace")


def file_uri(path: str) -> str:
    """The path as an RFC 3986 reference that decodes back to its exact bytes.

    Relative paths stay relative references; absolute ones become ``file://``
    URIs. Every byte but unreserved characters and ``/`` is percent-encoded,
    so spaces, ``%``, ``#``, ``?``, non-ASCII and non-UTF-8 bytes all survive.
    """
    raw = os.fsencode(path)
    encoded = quote(raw, safe="/")
    return f"file://{encoded}" if raw.startswith(b"/") else encoded


def file_entry(path: str) -> dict[str, str]:
    """How JSON output names an input: readable text, and the lossless URI."""
    return {"path": display_name(path), "uri": file_uri(path)}


def encode_line(line: str) -> bytes:
    """Text output as bytes: a file name that is not UTF-8 is written as its original bytes."""
    try:
        return line.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to
        return line.encode("utf-8", "backslashreplace")


# ---------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------


def text_lines(
    path: str, diagnostic: Diagnostic, *, color: bool = False, place: str | None = None
) -> list[str]:
    """Compiler-style: ``path:line:col: severity[CODE] message``, 1-based columns; a
    caller that names the place otherwise (conform: "stdout line 3, column 1") gives
    ``place`` for ``path:line:col``."""
    severity = diagnostic.severity.value
    at = f"{path}:{diagnostic.line}:{diagnostic.start + 1}" if place is None else place
    where = f"{at}:"
    if color:
        where = f"{_BOLD}{where}{_RESET}"
        severity = f"{_COLORS[diagnostic.severity]}{severity}{_RESET}"
    lines = [f"{where} {severity}[{diagnostic.code}] {diagnostic.message}"]
    if diagnostic.replacement is not None:
        lines.append(f"    suggestion: {diagnostic.replacement}")
    return lines


def text(path: str, report: ConformanceReport, *, color: bool = False) -> Iterator[str]:
    """:func:`text_lines` for every diagnostic the report kept."""
    for diagnostic in report.diagnostics:
        yield from text_lines(path, diagnostic, color=color)


def summary_line(reports: Reports, *, inputs: bool = True) -> str:
    """The counts; ``inputs=False`` for a run of a command, which is no file."""
    counts = {severity: sum(r.count(severity) for _, r in reports) for severity in Severity}
    signals = sum(r.signal_count for _, r in reports)
    files = f"{len(reports)} file(s), " if inputs else ""
    return (
        f"{files}{signals} signal(s): {counts[Severity.ERROR]} error(s),"
        f" {counts[Severity.WARNING]} warning(s), {counts[Severity.INFORMATION]} information"
    )


# ---------------------------------------------------------------------------
# json
# ---------------------------------------------------------------------------


def json_document(reports: Reports, *, passed: bool | None = None) -> dict[str, Any]:
    """The document ``--format json`` prints; its schema is validate/output.schema.json."""
    return {
        "tool": {"name": "bernstein-signals", "version": __version__},
        "passed": all(report.passed for _, report in reports) if passed is None else passed,
        "files": [{**file_entry(path), **report.to_dict()} for path, report in reports],
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


_RULE_INDEX = {code: index for index, code in enumerate(sorted(CODES))}


def sarif_result(path: str, diagnostic: Diagnostic) -> dict[str, Any]:
    """One SARIF result; the artifact is named by :func:`file_uri`."""
    region = {
        "startLine": diagnostic.line,
        "startColumn": diagnostic.start + 1,
        "endColumn": max(diagnostic.end, diagnostic.start) + 1,
    }
    uri = file_uri(path)
    location = {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": _RULE_INDEX[diagnostic.code],
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
                        "artifactLocation": {"uri": uri},
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


def sarif_log(rules: list[dict[str, Any]], run: dict[str, Any]) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one run of this tool: ``run`` adds results and the rest to it."""
    driver = {
        "name": "bernstein-signals",
        "version": __version__,
        "informationUri": INFORMATION_URI,
        "rules": rules,
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, **run}],
    }


def sarif_document(reports: Reports, *, results: bool = True) -> dict[str, Any]:
    """The SARIF 2.1.0 log; ``results=False`` leaves the results out (they are streamed)."""
    return sarif_log(
        [_rule(code) for code in sorted(CODES)],
        {
            "columnKind": "unicodeCodePoints",
            "artifacts": [{"location": {"uri": file_uri(path)}} for path, _ in reports],
            "results": [
                sarif_result(path, diagnostic)
                for path, report in reports
                for diagnostic in report.diagnostics
            ]
            if results
            else [],
        },
    )


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
    """:func:`github_line` for every diagnostic the report kept."""
    for diagnostic in report.diagnostics:
        yield github_line(path, diagnostic)


def github_line(path: str, diagnostic: Diagnostic) -> str:
    """One workflow command; GitHub reads UTF-8, so the file is its :func:`display_name`."""
    properties = {
        "file": display_name(path),
        "line": str(diagnostic.line),
        "col": str(diagnostic.start + 1),
        "endColumn": str(max(diagnostic.end, diagnostic.start) + 1),
        "title": f"{diagnostic.code} {diagnostic.name}",
    }
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    message = diagnostic.message
    if diagnostic.replacement is not None:
        message += f"\nsuggestion: {diagnostic.replacement}"
    return f"::{_GITHUB_LEVEL[diagnostic.severity]} {rendered}::{escape_data(message)}"


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)
