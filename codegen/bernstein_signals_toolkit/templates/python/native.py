"""Mapping native JSON event protocols onto the canonical vocabulary.

:class:`SignalParser` is the seed's ``CLIAdapter.stream_signal_parser`` hook on
its own: the default reads the canonical grammar, and a subclass overrides
``stream_signal_parser`` to translate native events, calling
``super().stream_signal_parser(line)`` for lines that are not native. Two real
mappers ship: Claude Code ``--output-format stream-json`` and Codex
``exec --json``. No line makes them raise, and every signal they yield can be
written again by ``format_signal(signal.kind, signal.payload)``.
"""

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any, Final

from ._strict_json import integer_from_text
from .fields import FAILED_REASON
from .kinds import SignalKind
from .parsing import parse_signal
from .signals import StreamSignal

__all__ = ["ClaudeStreamJsonParser", "CodexJsonParser", "SignalParser"]


def _strip(line: str) -> str:
    if line.endswith("\n"):
        return line[:-2] if line.endswith("\r\n") else line[:-1]
    return line


_EVENT_DECODER: Final = json.JSONDecoder(parse_int=integer_from_text)
"""Integers counted by the binding, so which lines are events does not depend on the
interpreter's ``int_max_str_digits``."""
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _json_object(line: str) -> dict[str, Any] | None:
    """The JSON object on ``line``, or None for anything else (never raises)."""
    try:
        value = _EVENT_DECODER.decode(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _carriable(signal: StreamSignal) -> StreamSignal:
    """The signal with every str in its payload encodable as UTF-8.

    A native event's strings come from ``json.loads``, which lets an escaped
    lone surrogate (``"\\ud800"``) through; a signal line cannot carry one, so
    each becomes U+FFFD and every mapped signal stays formattable.
    """
    payload = signal.payload
    if not any(isinstance(v, str) and _SURROGATE.search(v) for v in payload.values()):
        return signal
    cleaned = {
        key: _SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value
        for key, value in payload.items()
    }
    return StreamSignal(signal.kind, cleaned, signal.raw_line)


def _text(value: object) -> str | None:
    """A non-empty str, or the non-empty ``message`` of an object."""
    if isinstance(value, dict):
        value = value.get("message")
    return value if isinstance(value, str) and value else None


def _message(value: object) -> str | None:
    """A message from a str, a ``{"message": str}`` object or the first of a list of them."""
    if isinstance(value, list):
        return next((found for item in value if (found := _text(item)) is not None), None)
    return _text(value)


class SignalParser:
    """Turns one stdout line into a signal, or None for plain output.

    The default implementation is the canonical grammar (strict), so adapters
    without a native protocol override nothing.
    """

    def stream_signal_parser(self, line: str) -> StreamSignal | None:
        return parse_signal(line)

    def parse_lines(self, lines: Iterable[str]) -> Iterator[StreamSignal]:
        """The signals among ``lines``, in order."""
        for line in lines:
            signal = self.stream_signal_parser(line)
            if signal is not None:
                yield signal


class _NativeJsonParser(SignalParser, ABC):
    """A JSON-lines protocol: objects go to :meth:`map_event`, other lines to the grammar."""

    def stream_signal_parser(self, line: str) -> StreamSignal | None:
        if not isinstance(line, str):
            return None
        text = _strip(line)
        event = _json_object(text) if text.startswith("{") else None
        if event is None:
            return super().stream_signal_parser(line)
        signal = self.map_event(event, text)
        return None if signal is None else _carriable(signal)

    @abstractmethod
    def map_event(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        """The signal a native event stands for, or None for events that are not signals.

        Return str values in a flat payload; lone surrogates in them are
        replaced afterwards, so that the signal can be written again with
        :func:`~.formatting.format_signal`.
        """


class ClaudeStreamJsonParser(_NativeJsonParser):
    """Claude Code ``--output-format stream-json``: the final ``result`` event ends the run.

    ``is_error: true`` gives FAILED with the subtype (``error_max_turns``,
    ``error_during_execution``) or the error message as reason; otherwise
    COMPLETED. ``system``, ``assistant``, ``user`` and stream events are not signals.
    """

    def map_event(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        if event.get("type") != "result":
            return None
        payload: dict[str, Any] = {}
        session = event.get("session_id")
        if isinstance(session, str):
            payload["session_id"] = session
        if event.get("is_error") is not True:
            return StreamSignal(SignalKind.COMPLETED, payload, line)
        subtype = event.get("subtype")
        reason = subtype if isinstance(subtype, str) and subtype and subtype != "success" else None
        if reason is None:
            reason = _message(event.get("error")) or _message(event.get("errors"))
        if reason is None:
            reason = _message(event.get("result")) or "error"
        payload[FAILED_REASON] = reason
        return StreamSignal(SignalKind.FAILED, payload, line)


class CodexJsonParser(_NativeJsonParser):
    """Codex ``exec --json``: ``turn.completed`` gives COMPLETED; ``turn.failed``
    (``error.message``) and ``error`` (``message``) give FAILED with the message.
    Thread, item and ``turn.started`` events are not signals.
    """

    def map_event(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        kind = event.get("type")
        if kind == "turn.completed":
            return StreamSignal(SignalKind.COMPLETED, {}, line)
        if kind == "turn.failed":
            reason = _message(event.get("error")) or "turn failed"
        elif kind == "error":
            reason = _message(event.get("message")) or "error"
        else:
            return None
        return StreamSignal(SignalKind.FAILED, {FAILED_REASON: reason}, line)
