"""What one run's check found: the report, its signals, and the sink that may take them instead.

``ConformanceReport.to_dict()`` has the shape of ``$defs/report`` in
validate/output.schema.json (``REPORT_FORMAT_VERSION``), which the tests check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from bernstein_signals import StreamSignal

from ..runtime_vocabulary import built_in
from .codes import Severity
from .diagnostics import Diagnostic

__all__ = [
    "REPORT_FORMAT_VERSION",
    "ConformanceReport",
    "ReportSink",
    "SeenSignal",
    "signal_dict",
]

REPORT_FORMAT_VERSION = 1
"""The version of ``ConformanceReport.to_dict()``'s shape (``$defs/report`` in
validate/output.schema.json)."""


class SeenSignal(NamedTuple):
    line: int
    signal: StreamSignal


class ReportSink(Protocol):
    """Receives a run's findings as they are made, instead of the report keeping them.

    A sink with a true ``counting`` attribute keeps no more findings, only counts them
    (the language server past ``maxDiagnostics``): the checker may then hand it the
    diagnostics of an identical earlier line again, with that line's number.
    """

    def signal(self, seen: SeenSignal) -> None: ...

    def diagnostic(self, diagnostic: Diagnostic) -> None: ...


@dataclass
class ConformanceReport:
    """What one adapter run's stdout says about its use of the protocol.

    ``signals`` and ``diagnostics`` hold what was kept; what went to a sink is
    only counted (``streamed_*``). Counts and verdicts cover both, so a caller
    may still append a diagnostic after the run.
    """

    run_id: str | None
    lines: int = 0
    signals: list[SeenSignal] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    missing_terminal_signal: list[str] = field(default_factory=list)
    """The run ids (one, or "-" without an id) of runs that emitted no terminal signal."""
    streamed_kinds: Counter[str] = field(default_factory=Counter)
    streamed_severities: Counter[Severity] = field(default_factory=Counter)
    kinds: tuple[str, ...] = field(default_factory=lambda: built_in().kinds)
    """The vocabulary's kinds: ``counts`` lists each."""
    adapter: dict[str, Any] | None = None
    """conform only: the adapter's ``exit_status`` and the ``answers`` it was given."""

    @property
    def counts(self) -> dict[str, int]:
        """Signals per kind, every kind of the vocabulary listed."""
        seen = Counter(str(record.signal.kind) for record in self.signals)
        seen.update(self.streamed_kinds)
        return {kind: seen.get(kind, 0) for kind in self.kinds}

    @property
    def signal_count(self) -> int:
        return len(self.signals) + self.streamed_kinds.total()

    def count(self, severity: Severity) -> int:
        kept = sum(1 for d in self.diagnostics if d.severity is severity)
        return kept + self.streamed_severities[severity]

    @property
    def passed(self) -> bool:
        """No errors; warnings and information never fail a run."""
        return self.count(Severity.ERROR) == 0

    def header(self) -> dict[str, Any]:
        """Every field of :meth:`to_dict` except the signal and diagnostic lists."""
        return {
            "format_version": REPORT_FORMAT_VERSION,
            "run_id": self.run_id,
            "lines": self.lines,
            "passed": self.passed,
            "counts": self.counts,
            "summary": {severity.value: self.count(severity) for severity in Severity},
            "missing_terminal_signal": list(self.missing_terminal_signal),
            **({} if self.adapter is None else {"adapter": self.adapter}),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.header(),
            "signals": [signal_dict(record) for record in self.signals],
            "diagnostics": [diagnostic.to_dict() for diagnostic in self.diagnostics],
        }


def signal_dict(record: SeenSignal) -> dict[str, Any]:
    """One signal as ``to_dict`` lists it."""
    return {
        "line": record.line,
        "kind": str(record.signal.kind),
        "payload": record.signal.payload,
        "raw_line": record.signal.raw_line,
    }
