"""The validator: lines, payloads and whole recorded streams, with diagnostics for CI and editors.

Verdicts come from the generated binding; this package explains them, with
stable codes (:mod:`.codes`), located diagnostics and several output formats.

Its names load with their module on first use, as the binding's do: a command
that needs only the code table (``wrap``'s ``--unknown-kinds``) does not load
the checkers.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

_HOMES = {
    "CODES": "codes",
    "CheckOptions": "check_options",
    "Code": "codes",
    "ConformanceReport": "report",
    "Diagnostic": "diagnostics",
    "LineChecker": "lines",
    "SeenSignal": "report",
    "Severity": "codes",
    "StreamChecker": "report",
    "build_diagnostic": "diagnostics",
    "conformance_report": "report",
}
"""Each name -> the module it is imported from on first use."""


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
