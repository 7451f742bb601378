"""The parsed signal: what a reader hands to the orchestrator."""

from dataclasses import dataclass, field
from typing import Any, Final

from .kinds import TERMINAL_SIGNAL_KINDS, SignalKind

__all__ = ["StreamSignal", "UnknownKindSignal"]


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


@dataclass(frozen=True, slots=True)
class UnknownKindSignal:
    """A well-formed signal line of a kind this binding's vocabulary does not know.

    Only ``parse_signal(..., unknown_kinds=True)`` and ``iter_signals(...,
    unknown_kinds=True)`` return one: for consumers that forward or log
    signals from producers built against a newer vocabulary. Its payload is
    strict JSON but checked against no schema, and it is never terminal: a
    consumer cannot know what an unknown kind means.
    """

    kind: str
    payload: dict[str, Any] = field(hash=False)
    raw_line: str

    @property
    def is_terminal(self) -> bool:
        """Always False: the vocabulary does not say that this kind ends a run."""
        return False


_new: Final = object.__new__
_slots: Final = vars(StreamSignal)  # the slot descriptors, which a frozen class's __setattr__ bypasses
_set_kind: Final = _slots["kind"].__set__
_set_payload: Final = _slots["payload"].__set__
_set_raw_line: Final = _slots["raw_line"].__set__


def new_signal(kind: SignalKind, payload: dict[str, Any], raw_line: str) -> StreamSignal:
    """``StreamSignal(kind, payload, raw_line)`` at a third of the cost, for readers.

    A frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``; filling the slots directly skips that, and readers
    build one signal per signal line.
    """
    signal: StreamSignal = _new(StreamSignal)
    _set_kind(signal, kind)
    _set_payload(signal, payload)
    _set_raw_line(signal, raw_line)
    return signal
