"""Did the run end properly? Every adapter run should emit a terminal signal.

Both checks take the same things, so that either works on what the caller
has at hand: output lines (str or bytes, as :func:`~.parsing.iter_signals`
reads them), parsed signals, or the records of :func:`~.readers.read_signals`,
mixed freely. A line is parsed strictly unless ``lenient`` is set; anything
else is no terminal, as :func:`~.parsing.parse_signal` reads it as plain output.
"""

from collections.abc import Iterable

from .errors import _shown
from .kinds import TERMINAL_SIGNAL_KINDS
from .parsing import _BYTES_LINES, parse_signal
from .readers import SignalRecord, UnknownKindRecord
from .signals import StreamSignal, UnknownKindSignal

__all__ = ["MissingTerminalSignal", "check_terminal_signal", "has_terminal_signal"]


class MissingTerminalSignal(RuntimeWarning):
    """A run ended without COMPLETED or FAILED: reported, not a failure."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        kinds = " or ".join(sorted(TERMINAL_SIGNAL_KINDS))
        super().__init__(f"run {_shown(run_id)} emitted no terminal signal ({kinds})")


def _is_terminal(item: object, lenient: bool) -> bool:
    if isinstance(item, StreamSignal | UnknownKindSignal):
        return item.is_terminal
    if isinstance(item, SignalRecord | UnknownKindRecord):
        return item.signal.is_terminal
    signal = parse_signal(item, lenient=lenient)
    return signal is not None and signal.is_terminal


def has_terminal_signal(items: Iterable[object], *, lenient: bool = False) -> bool:
    """Whether ``items`` (lines, signals or records) hold COMPLETED or FAILED.

    Stops at the first terminal. One str or bytes instead of an iterable is a
    TypeError: it must not read as a run that never ended.
    """
    if isinstance(items, (str, *_BYTES_LINES)):
        raise TypeError(
            f"a terminal check reads an iterable of lines or signals, not one {type(items).__name__};"
            " split the output into lines first (text.splitlines())"
        )
    return any(_is_terminal(item, lenient) for item in items)


def check_terminal_signal(
    items: Iterable[object], *, run_id: str, lenient: bool = False
) -> MissingTerminalSignal | None:
    """The warning for a run whose ``items`` (lines, signals or records) hold no terminal
    signal, else None.

    Takes what :func:`has_terminal_signal` takes. The warning is returned, not
    raised or issued, so that a conformance report can list it beside other
    findings.
    """
    if has_terminal_signal(items, lenient=lenient):
        return None
    return MissingTerminalSignal(run_id)
