"""Codex ``exec --json``, mapped from the upstream definitions.

Read from openai/codex (read, not vendored):

- ``codex-rs/exec/src/exec_events.rs`` at 08a1f30ca23f51922d1a4a4965b5ab999b64bead:
  ``ThreadEvent`` (``thread.started``, ``turn.started``, ``turn.completed`` with
  ``usage``, ``turn.failed`` with ``error.message``, ``item.*``,
  ``item.plan.delta``, ``request_user_input`` with ``call_id`` and
  ``questions``, ``error``), ``ThreadItemDetails::Error`` ("a non-fatal error
  surfaced as an item");
- ``codex-rs/exec/src/event_processor_with_jsonl_output.rs`` at
  029bf4d55c5d33e77bdbdfaec25d06836ae9e213: a server ``Error`` notification
  becomes an ``error`` event and the status stays ``Running``; only a turn's
  end (``turn.completed``/``turn.failed``) initiates shutdown, an interrupted
  turn emits neither; config and deprecation warnings and model reroutes are
  ``error`` items;
- ``codex-rs/protocol/src/request_user_input.rs`` at
  045c529265ced1ae8eeeb81f9e3e5186b74109f0: a question has ``id``, ``header``,
  ``question`` and optional ``options`` of ``{label, description}``.

What each event becomes is :data:`~._native_support.NATIVE_EVENT_TABLE`.
"""

from typing import Any, Final

from ._native_support import (
    _SESSION_ID,
    _SUBTYPE,
    _TURNS,
    _USAGE,
    NativeJsonParser,
    _first_question,
    _message,
    _text,
    _usage,
)
from .fields import FAILED_REASON, QUESTION_ID, QUESTION_OPTIONS, QUESTION_TEXT
from .kinds import SignalKind
from .signals import StreamSignal

__all__ = ["CodexJsonParser"]

_USAGE_NAMES: Final = {
    "input_tokens": "input_tokens",
    "cached_input_tokens": "cached_input_tokens",
    "output_tokens": "output_tokens",
}


class CodexJsonParser(NativeJsonParser):
    """Codex ``exec --json``: ``turn.completed`` is COMPLETED, ``turn.failed`` FAILED.

    A transient ``error`` ("Reconnecting... 2/5") is not the end of the run: it
    is counted in the terminal payload's ``warnings``. The terminal carries
    the thread id as ``session_id``, ``usage`` and ``turns``. ``reply_line`` is
    always None: ``codex exec`` reads its prompt on stdin and no answer after it.
    """

    PROTOCOL = "codex exec --json"

    def reset(self) -> None:
        super().reset()
        self._last_error: str | None = None
        self._turns = 0

    def _thread_started(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        self.extras[_SESSION_ID] = _text(event.get("thread_id"))
        return None

    def _turn_started(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        self._turns += 1
        return None

    def _turn_completed(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        payload = {_USAGE: _usage(event.get("usage"), _USAGE_NAMES), _TURNS: self._turns or None}
        return self._end(SignalKind.COMPLETED, payload, line)

    def _turn_failed(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        reason = _message(event.get("error")) or self._last_error or "turn failed"
        payload = {FAILED_REASON: reason, _SUBTYPE: "turn.failed", _TURNS: self._turns or None}
        return self._end(SignalKind.FAILED, payload, line)

    def _error(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        found = _message(event.get("message"))
        self._last_error = found or self._last_error
        self._warn(found)
        return None

    def _item_completed(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        item = event.get("item")
        if isinstance(item, dict) and item.get("type") == "error":
            self._warn(_message(item.get("message")))
        return None

    def _request_user_input(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        asked = _first_question(event)
        if asked is None:
            return None
        payload: dict[str, Any] = {
            QUESTION_TEXT: asked.text,
            QUESTION_OPTIONS: asked.options,
            QUESTION_ID: _text(event.get("call_id")) or _text(asked.entry.get("id")),
        }
        return StreamSignal(
            SignalKind.QUESTION, {k: v for k, v in payload.items() if v is not None}, line
        )
