"""Mapping native JSON event protocols onto the canonical vocabulary.

:class:`SignalParser` is the seed's ``CLIAdapter.stream_signal_parser`` hook on
its own: the default reads the canonical grammar, and a subclass overrides
``stream_signal_parser`` to translate native events, calling
``super().stream_signal_parser(line)`` for lines that are not native. Two real
mappers ship: Claude Code ``--output-format stream-json`` and Codex
``exec --json``. No line makes them raise.
"""

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

from .kinds import SignalKind
from .parsing import parse_signal
from .signals import StreamSignal

__all__ = ["ClaudeStreamJsonParser", "CodexJsonParser", "SignalParser"]


def _strip(line: str) -> str:
    if line.endswith("\n"):
        return line[:-2] if line.endswith("\r\n") else line[:-1]
    return line


def _json_object(line: str) -> dict[str, Any] | None:
    """The JSON object on ``line``, or None for anything else (never raises)."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


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
        return self.map_event(event, text)

    @abstractmethod
    def map_event(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        """The signal a native event stands for, or None for events that are not signals."""


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
        payload["reason"] = reason
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
        return StreamSignal(SignalKind.FAILED, {"reason": reason}, line)
