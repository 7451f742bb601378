"""Did the run end properly? Every adapter run should emit a terminal signal."""

from collections.abc import Iterable

from .errors import _shown
from .kinds import TERMINAL_SIGNAL_KINDS
from .parsing import iter_signals
from .signals import StreamSignal

__all__ = ["MissingTerminalSignal", "check_terminal_signal", "has_terminal_signal"]


class MissingTerminalSignal(RuntimeWarning):
    """A run ended without COMPLETED or FAILED: reported, not a failure."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        kinds = " or ".join(sorted(TERMINAL_SIGNAL_KINDS))
        super().__init__(f"run {_shown(run_id)} emitted no terminal signal ({kinds})")


def has_terminal_signal(signals: Iterable[StreamSignal]) -> bool:
    return any(signal.is_terminal for signal in signals)


def check_terminal_signal(lines: Iterable[object], *, run_id: str) -> MissingTerminalSignal | None:
    """The warning for a run whose output ``lines`` hold no terminal signal, else None.

    The warning is returned, not raised or issued, so that a conformance report
    can list it beside other findings.
    """
    if has_terminal_signal(iter_signals(lines)):
        return None
    return MissingTerminalSignal(run_id)
