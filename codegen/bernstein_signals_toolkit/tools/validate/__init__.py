"""The validator: lines, payloads and whole recorded streams, with diagnostics for CI and editors.

Verdicts come from the generated binding; this package explains them, with
stable codes (:mod:`.codes`), located diagnostics and several output formats.
"""

from __future__ import annotations

from .check_options import CheckOptions
from .codes import CODES, Code, Severity
from .diagnostics import Diagnostic, build_diagnostic
from .lines import LineChecker
from .report import ConformanceReport, SeenSignal, StreamChecker, conformance_report

__all__ = [
    "CODES",
    "CheckOptions",
    "Code",
    "ConformanceReport",
    "Diagnostic",
    "LineChecker",
    "SeenSignal",
    "Severity",
    "StreamChecker",
    "build_diagnostic",
    "conformance_report",
]
