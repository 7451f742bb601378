"""The parsed signal: what a reader hands to the orchestrator."""

from dataclasses import dataclass, field
from typing import Any

from .kinds import TERMINAL_SIGNAL_KINDS, SignalKind

__all__ = ["StreamSignal"]


@dataclass(frozen=True, slots=True)
class StreamSignal:
    """One signal line, parsed; hashable by kind and line, compared by all three fields."""

    kind: SignalKind
    payload: dict[str, Any] = field(hash=False)
    """The JSON object after the kind, ``{}`` when the line had none."""
    raw_line: str
    """The line without its terminator (lenient mode: stripped)."""

    @property
    def is_terminal(self) -> bool:
        """Whether the signal ends the adapter's run (COMPLETED, FAILED)."""
        return self.kind in TERMINAL_SIGNAL_KINDS
