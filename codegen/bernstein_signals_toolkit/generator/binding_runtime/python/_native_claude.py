"""Claude Code ``--output-format stream-json``, mapped from the upstream definitions.

Read from anthropics/claude-agent-sdk-python (read, not vendored), the SDK
that drives the CLI over this stream:

- ``src/claude_agent_sdk/_internal/message_parser.py`` at
  008e361d0cd8b29b269f63b898892ec6efde37f3: the message types (``system``,
  ``assistant`` with content blocks and an optional ``error``, ``user``,
  ``stream_event``, ``rate_limit_event``, ``result`` with ``subtype``,
  ``is_error``, ``num_turns``, ``session_id``, ``stop_reason``,
  ``total_cost_usd``, ``usage``, ``modelUsage``, ``result``, ``errors``,
  ``api_error_status``, ``permission_denials``);
- ``src/claude_agent_sdk/_internal/query.py`` at
  013f29d22d9577882dd23316f084006a4ce14050: the control protocol on the same
  stdout: ``control_request`` (``request_id``; ``request.subtype``
  ``can_use_tool`` with ``tool_name``, ``input``, ``tool_use_id``),
  ``control_cancel_request``, and the answer the CLI reads on stdin,
  ``{"type": "control_response", "response": {"subtype": "success",
  "request_id": ..., "response": {"behavior": "allow", "updatedInput": ...}}}``
  or ``{"behavior": "deny", "message": ...}``.

The ``AskUserQuestion`` tool input is ``{"questions": [{"question", "header",
"options": [{"label", "description"}], "multiSelect"}]}``; a host answers it
by allowing the tool with ``updatedInput.answers`` (question text -> label),
as the Agent SDK's user-input guide documents. The CLI asks on stdin only when
run with ``--input-format stream-json --permission-prompt-tool stdio``;
without them it denies the tool (``permission_denials``) and the QUESTION
mapped from the tool use cannot be answered. With ``--input-format
stream-json`` the prompt comes on stdin too, as the user message the Agent
SDK writes for a prompt: ``{"type": "user", "message": {"role": "user",
"content": ...}, "parent_tool_use_id": null, "session_id": ""}``.

What each event becomes is :data:`~._native_support.NATIVE_EVENT_TABLE`.
"""

import json
from collections.abc import Mapping
from typing import Any, Final

from ._native_support import (
    _COST_USD,
    _MODEL,
    _SESSION_ID,
    _SUBTYPE,
    _TURNS,
    _USAGE,
    NativeJsonParser,
    _amount,
    _count,
    _first_question,
    _json_object,
    _message,
    _Pending,
    _text,
    _usage,
)
from .fields import (
    FAILED_REASON,
    QUESTION_ID,
    QUESTION_OPTIONS,
    QUESTION_TEXT,
    REPLY_ANSWER,
    REPLY_IN_REPLY_TO,
)
from .kinds import SignalKind
from .scanning import strip_terminator
from .signals import StreamSignal

__all__ = ["ClaudeStreamJsonParser"]

_ASK_TOOL: Final = "AskUserQuestion"
_ALLOW: Final = "allow"
_DENY: Final = "deny"
_SUCCESSFUL_ENDS: Final = frozenset({"completed", "success", "end_turn"})
"""``terminal_reason`` values of a run that ended normally; any other one is a failure."""
_USAGE_NAMES: Final = {
    "input_tokens": "input_tokens",
    "cache_read_input_tokens": "cached_input_tokens",
    "output_tokens": "output_tokens",
}
_SUMMARY_KEYS: Final = ("command", "file_path", "path", "url", "pattern", "query")
"""Tool input fields that say what a permission prompt is about, in order of preference."""


def _failure_cause(result: dict[str, Any], error_code: str | None) -> str | None:
    """The machine cause of a failed ``result``, or None for a run that succeeded.

    Most specific first: a subtype other than ``success``, a refusal, a
    ``terminal_reason`` other than a normal end, the API's error status, and
    ``is_error`` (named by the last assistant ``error``, as a signed-out run is).
    """
    subtype = _text(result.get("subtype"))
    if subtype is not None and subtype != "success":
        return subtype
    if result.get("stop_reason") == "refusal":
        return "refusal"
    end = _text(result.get("terminal_reason"))
    if end is not None and end not in _SUCCESSFUL_ENDS:
        return end
    status = _count(result.get("api_error_status")) or _text(result.get("api_error_status"))
    if status is not None:
        return f"api_error_{status}"
    if result.get("is_error") is True:
        return error_code or "error"
    return None


def _question(question: str, choices: list[str] | None, ident: str, line: str) -> StreamSignal:
    payload: dict[str, Any] = {QUESTION_TEXT: question, QUESTION_ID: ident}
    if choices is not None:
        payload[QUESTION_OPTIONS] = choices
    return StreamSignal(SignalKind.QUESTION, payload, line)


class ClaudeStreamJsonParser(NativeJsonParser):
    """Claude Code ``--output-format stream-json``: the ``result`` event ends the run.

    A result is FAILED when ``is_error``, when its subtype is not ``success``
    (``error_max_turns``, ``error_during_execution``), on ``stop_reason:
    "refusal"``, on a ``terminal_reason`` other than a normal end and on an
    ``api_error_status``; the
    reason is ``errors[0]``, else ``result``, and the machine cause is in
    ``subtype``. ``control_request``/``can_use_tool`` and ``AskUserQuestion``
    tool uses are QUESTIONs; :meth:`reply_line` turns the orchestrator's reply
    into the ``control_response`` the CLI reads on stdin.
    """

    PROTOCOL = "claude --output-format stream-json"

    def reset(self) -> None:
        super().reset()
        self._requests: _Pending = _Pending()
        """request_id -> (tool name, tool input, AskUserQuestion text or None)."""
        self._asked: _Pending = _Pending()
        """AskUserQuestion tool use id -> its control request id once the CLI asks (or None)."""
        self._error_code: str | None = None
        """The last assistant ``error`` (``authentication_failed``): a failed result's cause."""

    @staticmethod
    def prompt_line(prompt: str) -> str:
        """The user message (one line, no newline) that gives the CLI its prompt on stdin."""
        message = {"role": "user", "content": prompt}
        return json.dumps(
            {"type": "user", "message": message, "parent_tool_use_id": None, "session_id": ""}
        )

    def reply_line(self, reply: object) -> str | None:
        """The ``control_response`` line (no newline) for a reply, or None if none is pending.

        ``reply`` is a reply line (``{"in_reply_to": ..., "answer": ...}``, as
        :meth:`QuestionTracker.answer` returns it) or that object. A permission
        prompt is allowed on the answer ``allow`` and denied on any other; an
        AskUserQuestion is allowed with the answer in ``updatedInput.answers``.
        """
        if isinstance(reply, str):
            reply = _json_object(strip_terminator(str.__str__(reply)))
        if not isinstance(reply, Mapping):
            return None
        ident, answer = reply.get(REPLY_IN_REPLY_TO), reply.get(REPLY_ANSWER)
        if not isinstance(ident, str) or not isinstance(answer, str):
            return None
        request_id = ident if ident in self._requests else self._asked.get(ident)
        if not isinstance(request_id, str) or request_id not in self._requests:
            return None
        tool_input, asked = self._requests.pop(request_id)[1:]
        if asked is not None:
            # keyed by the question exactly as the CLI sent it (the QUESTION's text is cleaned)
            first = tool_input["questions"][0]
            key = first["question"] if isinstance(first.get("question"), str) else asked
            decision: dict[str, Any] = {
                "behavior": _ALLOW,
                "updatedInput": {**tool_input, "answers": {key: answer}},
            }
        elif answer.strip().lower() == _ALLOW:
            decision = {"behavior": _ALLOW, "updatedInput": tool_input}
        else:
            decision = {"behavior": _DENY, "message": f"The operator answered: {answer}"}
        response = {"subtype": "success", "request_id": request_id, "response": decision}
        try:
            return json.dumps({"type": "control_response", "response": response})
        except (ValueError, RecursionError):
            return None

    def _note_identity(self, event: dict[str, Any]) -> None:
        session = _text(event.get("session_id"))
        if session is not None:
            self.extras[_SESSION_ID] = session

    def _system(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        self._note_identity(event)
        if event.get("subtype") == "init":
            self.extras[_MODEL] = _text(event.get("model")) or self.extras.get(_MODEL)
        return None

    def _assistant(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        self._note_identity(event)
        body = event.get("message")
        blocks = body.get("content") if isinstance(body, dict) else None
        blocks = blocks if isinstance(blocks, list) else []
        error = event.get("error")
        if error is not None:
            self._error_code = _text(error) or self._error_code
            said = (_text(b.get("text")) for b in blocks if isinstance(b, dict))
            self._warn(next((s for s in said if s is not None), None) or _message(error))
        for block in blocks:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            ident = _text(block.get("id"))
            asked = _first_question(block.get("input"))
            if block.get("name") != _ASK_TOOL or ident is None or asked is None:
                continue
            if ident in self._asked:
                continue  # the CLI's permission request for it came first and was asked
            self._asked.remember(ident, None)
            return _question(asked[0], asked[1], ident, line)
        return None

    def _result(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        self._note_identity(event)
        cause = _failure_cause(event, self._error_code)
        models = event.get("modelUsage")
        if _MODEL not in self.extras and isinstance(models, dict) and len(models) == 1:
            self.extras[_MODEL] = _text(next(iter(models)))
        payload: dict[str, Any] = {
            _USAGE: _usage(event.get("usage"), _USAGE_NAMES),
            _COST_USD: _amount(event.get("total_cost_usd")),
            _TURNS: _count(event.get("num_turns")),
        }
        if cause is None:
            return self._end(SignalKind.COMPLETED, payload, line)
        payload[FAILED_REASON] = (
            _message(event.get("errors"))
            or _message(event.get("result"))
            or _message(event.get("error"))
            or cause
        )
        payload[_SUBTYPE] = cause
        return self._end(SignalKind.FAILED, payload, line)

    def _control_request(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        request_id, request = _text(event.get("request_id")), event.get("request")
        if request_id is None or not isinstance(request, dict):
            return None
        if request.get("subtype") != "can_use_tool":
            return None
        tool, tool_input = _text(request.get("tool_name")) or "a tool", request.get("input")
        tool_input = tool_input if isinstance(tool_input, dict) else {}
        if tool == _ASK_TOOL and (asked := _first_question(tool_input)) is not None:
            self._requests.remember(request_id, (tool, tool_input, asked[0]))
            tool_use = _text(request.get("tool_use_id"))
            known = tool_use is not None and tool_use in self._asked
            if tool_use is not None:
                self._asked.remember(tool_use, request_id)
            if known:
                return None  # already asked when the tool use streamed by
            return _question(asked[0], asked[1], request_id, line)
        self._requests.remember(request_id, (tool, tool_input, None))
        about = next((s for key in _SUMMARY_KEYS if (s := _text(tool_input.get(key)))), None)
        question = f"Allow {tool}: {about}?" if about else f"Allow {tool}?"
        return _question(question, [_ALLOW, _DENY], request_id, line)

    def _control_cancel(self, event: dict[str, Any], line: str) -> StreamSignal | None:
        request_id = event.get("request_id")
        if isinstance(request_id, str):
            self._requests.pop(request_id, None)
        return None
