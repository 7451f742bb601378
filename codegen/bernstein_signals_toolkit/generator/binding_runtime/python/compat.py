"""A drop-in for Bernstein's ``bernstein.core.protocols.stream_signals``, on this binding.

Code written against that module switches with its import line. Same names,
signatures and results, with the binding's strict JSON kept:

- ``parse_signal`` and ``iter_signals`` read as the reference does (strip,
  split on whitespace, a known kind, an optional JSON object), through the
  binding's lenient reader: a payload with NaN or Infinity, an integer over
  MAX_INTEGER_DIGITS digits, nesting over MAX_NESTING_DEPTH or a lone
  surrogate escape is plain output (the reference's json.loads took them; a
  duplicate key keeps the last value in both). bytes lines are read as UTF-8
  (the reference returned None).
  Nothing is logged for a refused line.
- ``format_signal`` checks no schema; TypeError for a payload that is not a
  dict, ValueError for one JSON cannot carry, as the reference raises. NaN,
  Infinity and over-long integers are among those (the reference wrote
  NaN). ``kind`` may also be a kind's name as a str.
- ``StreamSignal`` is the binding's, with the reference's defaults
  (``payload={}``, ``raw_line=""``): binding functions take it, and it is
  hashable (the reference's was not, its payload being a dict).
- ``MissingTerminalSignal`` takes a message, as the reference's; it is a
  subclass of the binding's, so either ``except`` catches it.
- ``check_terminal_signal(stdout_lines, *, run_id)`` (the reference keeps it
  in its conformance module) returns the reference's warning text.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import signals as _signals
from . import terminal as _terminal
from .formatting import format_signal as _format_signal
from .kinds import SIGNAL_PREFIX, TERMINAL_SIGNAL_KINDS, SignalKind
from .parsing import parse_signal as _parse_signal

__all__ = [
    "SIGNAL_PREFIX",
    "TERMINAL_SIGNAL_KINDS",
    "MissingTerminalSignal",
    "SignalKind",
    "StreamSignal",
    "check_terminal_signal",
    "format_signal",
    "has_terminal_signal",
    "iter_signals",
    "parse_signal",
]


@dataclass(frozen=True, slots=True)
class StreamSignal(_signals.StreamSignal):
    """One parsed signal; ``payload`` and ``raw_line`` default as in the reference."""

    payload: dict[str, Any] = field(default_factory=dict, hash=False)
    raw_line: str = ""


class MissingTerminalSignal(_terminal.MissingTerminalSignal):
    """A run without COMPLETED or FAILED; built from a message, as the reference's."""

    def __init__(self, *args: object) -> None:
        RuntimeWarning.__init__(self, *args)
        self.run_id = ""


def parse_signal(line: str) -> StreamSignal | None:
    """The signal on ``line``, read tolerantly (stripped, whitespace-split), else None."""
    found = _parse_signal(line, lenient=True)
    if found is None:
        return None
    return StreamSignal(found.kind, found.payload, found.raw_line)


def iter_signals(lines: Iterable[str]) -> list[StreamSignal]:
    """The signals among ``lines``, in order, as a list."""
    out = []
    for line in lines:
        signal = parse_signal(line)
        if signal is not None:
            out.append(signal)
    return out


def has_terminal_signal(signals: Iterable[_signals.StreamSignal]) -> bool:
    """Whether ``signals`` hold COMPLETED or FAILED."""
    return any(signal.is_terminal for signal in signals)


def format_signal(kind: SignalKind | str, payload: dict[str, Any] | None = None) -> str:
    """The signal line without a newline; no schema check.

    TypeError for a payload that is not a dict, ValueError for one JSON cannot
    carry (or an unknown kind).
    """
    if payload is not None and not isinstance(payload, dict):
        raise TypeError(f"payload must be a dict, got {type(payload).__name__}")
    return _format_signal(kind, payload, validate=False)


def check_terminal_signal(stdout_lines: Iterable[str], *, run_id: str) -> MissingTerminalSignal | None:
    """The warning for a run whose ``stdout_lines`` hold no terminal signal, else None."""
    if has_terminal_signal(iter_signals(stdout_lines)):
        return None
    return MissingTerminalSignal(
        f"adapter run {run_id!r} did not emit a terminal stream signal (COMPLETED or FAILED)"
    )
