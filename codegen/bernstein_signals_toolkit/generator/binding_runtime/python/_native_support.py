"""What the native mappers share: reading an event line, building payloads, the event table.

Every mapper is a :class:`NativeJsonParser`: one instance maps one run, and
after the event that ends the run it maps no native event any more (so a run
yields at most one terminal signal); :meth:`NativeJsonParser.reset` starts
the next run. Each mapper dispatches through its own rows of
:data:`NATIVE_EVENT_TABLE`, so an event type it ignores is a row saying why,
and :func:`event_table_markdown` renders the same rows for the README.
"""

import json
import math
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final, NamedTuple

from ._strict_json import integer_from_text
from .kinds import SignalKind
from .parsing import parse_signal
from .scanning import strip_terminator
from .signals import StreamSignal

__all__ = [
    "NATIVE_EVENT_TABLE",
    "EventRow",
    "NativeJsonParser",
    "SignalParser",
    "event_table_markdown",
]

# The extras, one name for each fact whichever CLI reports it.
_SESSION_ID: Final = "session_id"
"""Claude's ``session_id``, Codex's ``thread_id``: what resumes the run."""
_MODEL: Final = "model"
_USAGE: Final = "usage"
"""Token counts: ``input_tokens``, ``output_tokens``, ``cached_input_tokens``."""
_COST_USD: Final = "cost_usd"
_TURNS: Final = "turns"
_SUBTYPE: Final = "subtype"
"""The machine reason of a FAILED (Claude's result subtype, ``refusal``, ``turn.failed``)."""
_WARNINGS: Final = "warnings"
"""How many non-fatal errors the run reported before it ended."""
_LAST_WARNING: Final = "last_warning"

_MAX_TEXT: Final = 8192
"""Longest text (in code points) copied from an event into a payload; the rest is cut."""
_MAX_PENDING: Final = 256
"""Most unanswered native questions a mapper remembers for routing replies (oldest dropped)."""
_MAX_INT: Final = 2**63

_EVENT_DECODER: Final = json.JSONDecoder(parse_int=integer_from_text)
"""Integers counted by the binding, so which lines are events does not depend on the
interpreter's ``int_max_str_digits``."""
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class EventRow(NamedTuple):
    """One decision: what a native event type maps to, and why."""

    protocol: str
    event: str
    maps_to: str
    """Signal kinds joined by " or ", or ``nothing``."""
    why: str
    handler: str | None
    """The mapper's method that handles the event, or None: the event maps to nothing."""


def _json_object(line: str) -> dict[str, Any] | None:
    """The JSON object on ``line``, or None for anything else (never raises)."""
    try:
        value = _EVENT_DECODER.decode(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _text(value: object) -> str | None:
    """A non-blank str (cut to :data:`_MAX_TEXT`, lone surrogates as U+FFFD), else None."""
    if not isinstance(value, str) or not value.strip():
        return None
    return _SURROGATE.sub("\ufffd", value[:_MAX_TEXT])


def _message(value: object) -> str | None:
    """A message from a str, a ``{"message": str}`` object, or the first of a list of them."""
    if isinstance(value, list):
        return next((found for item in value if (found := _message(item)) is not None), None)
    if isinstance(value, dict):
        value = value.get("message")
    return _text(value)


def _count(value: object) -> int | None:
    """A non-negative int a signal can carry (bools are not counts)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _MAX_INT:
        return value
    return None


def _amount(value: object) -> float | int | None:
    """A finite non-negative number (a cost), else None."""
    if isinstance(value, float):
        return value if math.isfinite(value) and value >= 0 else None
    return _count(value)


def _usage(source: object, names: Mapping[str, str]) -> dict[str, int] | None:
    """The token counts of ``source`` under the shared names (``names``: native -> shared)."""
    if not isinstance(source, dict):
        return None
    counts = {
        shared: n
        for native, shared in names.items()
        if (n := _count(source.get(native))) is not None
    }
    return counts or None


def _options(labels: Iterable[object]) -> list[str] | None:
    """Distinct non-blank option labels in order, or None (a free-form question)."""
    seen: dict[str, None] = {}
    for label in labels:
        found = _text(label)
        if found is not None:
            seen.setdefault(found, None)
    return list(seen) or None


class _Asked(NamedTuple):
    """The question a QUESTION carries, read from a CLI's list of questions."""

    text: str
    options: list[str] | None
    entry: dict[str, Any]
    """The question's own object (Codex gives it an id)."""


def _first_question(container: object) -> _Asked | None:
    """The first of ``container["questions"]``: both CLIs ask a list, one QUESTION carries the first."""
    questions = container.get("questions") if isinstance(container, dict) else None
    first = questions[0] if isinstance(questions, list) and questions else None
    if not isinstance(first, dict):
        return None
    question = _text(first.get("question")) or _text(first.get("header"))
    if question is None:
        return None
    listed = first.get("options")
    labels = listed if isinstance(listed, list) else []
    options = _options(o.get("label") if isinstance(o, dict) else o for o in labels)
    return _Asked(question, options, first)


class _Pending(OrderedDict[str, Any]):
    """Unanswered native questions by id, at most :data:`_MAX_PENDING` (the oldest go)."""

    def remember(self, key: str, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > _MAX_PENDING:
            self.popitem(last=False)


class SignalParser:
    """Turns one stdout line into a signal, or None for plain output.

    The seed's ``CLIAdapter.stream_signal_parser`` hook on its own: the default
    reads the canonical grammar (strict), so adapters without a native protocol
    override nothing, and a subclass calls ``super().stream_signal_parser(line)``
    for lines that are not native. (``native.SignalParser`` until native.py
    re-exports this one.)
    """

    def stream_signal_parser(self, line: str) -> StreamSignal | None:
        return parse_signal(line)

    def parse_lines(self, lines: Iterable[str]) -> Iterator[StreamSignal]:
        """The signals among ``lines``, in order."""
        for line in lines:
            signal = self.stream_signal_parser(line)
            if signal is not None:
                yield signal


class NativeJsonParser(SignalParser):
    """A JSON-lines protocol mapped through its rows of :data:`NATIVE_EVENT_TABLE`.

    Objects go to the handler their ``type`` names; lines that are not JSON
    objects go to the canonical grammar. Subclasses set ``PROTOCOL`` and hold
    the run's state; :meth:`_end` builds the one terminal signal.
    """

    PROTOCOL: str = ""

    def __init__(self) -> None:
        self._rows: dict[str, EventRow] = {
            row.event: row for row in NATIVE_EVENT_TABLE if row.protocol == self.PROTOCOL
        }
        self.reset()

    def reset(self) -> None:
        """Forget the run: the next event starts a new one (a resumed session, the next turn)."""
        self.ended = False
        self.warnings = 0
        self.last_warning: str | None = None
        self.extras: dict[str, Any] = {}

    def stream_signal_parser(self, line: str) -> StreamSignal | None:
        if not isinstance(line, str):
            return None
        line = str.__str__(line)
        stripped = strip_terminator(line)
        event = _json_object(stripped) if stripped.startswith("{") else None
        if event is None:
            return super().stream_signal_parser(line)
        if self.ended:
            return None
        kind = event.get("type")
        row = self._rows.get(kind) if isinstance(kind, str) else None
        if row is None or row.handler is None:
            return None
        handle: Callable[[dict[str, Any], str], StreamSignal | None] = getattr(self, row.handler)
        return handle(event, stripped)

    def reply_line(self, reply: object) -> str | None:
        """What to write to the CLI's stdin for a reply line (or object), or None.

        None here: a CLI that reads no answers. A mapper whose CLI does
        overrides it, so that a reply from :class:`QuestionTracker` reaches it.
        """
        return None

    def _warn(self, warning: str | None) -> None:
        self.warnings += 1
        if warning is not None:
            self.last_warning = warning

    def _end(self, kind: SignalKind, payload: dict[str, Any], line: str) -> StreamSignal:
        """The run's terminal signal with the identity and warnings gathered so far."""
        self.ended = True
        full = {key: value for key, value in self.extras.items() if value is not None}
        full.update({key: value for key, value in payload.items() if value is not None})
        if self.warnings:
            full[_WARNINGS] = self.warnings
            if self.last_warning is not None:
                full[_LAST_WARNING] = self.last_warning
        return StreamSignal(kind, full, line)


def _rows(protocol: str, rows: Iterable[tuple[str, str, str, str | None]]) -> tuple[EventRow, ...]:
    return tuple(
        EventRow(protocol, event, maps, why, handler) for event, maps, why, handler in rows
    )


_CODEX: Final = "codex exec --json"
_CLAUDE: Final = "claude --output-format stream-json"

NATIVE_EVENT_TABLE: Final[tuple[EventRow, ...]] = _rows(
    _CODEX,
    [
        (
            "thread.started",
            "nothing",
            "records `thread_id` as `session_id` for the terminal",
            "_thread_started",
        ),
        (
            "turn.started",
            "nothing",
            "counts `turns`; a turn is not yet an outcome",
            "_turn_started",
        ),
        (
            "turn.completed",
            "COMPLETED",
            "the event that ends a successful run (exec shuts down after it); carries `usage`",
            "_turn_completed",
        ),
        (
            "turn.failed",
            "FAILED",
            "the event that ends a failed run; reason `error.message`, subtype `turn.failed`",
            "_turn_failed",
        ),
        (
            "error",
            "nothing",
            'non-fatal: exec keeps running ("Reconnecting... 2/5"); counted in `warnings`,'
            " and its message is the reason if `turn.failed` has none",
            "_error",
        ),
        ("item.started", "nothing", "progress of an item (command, file change, tool call)", None),
        ("item.updated", "nothing", "progress of an item", None),
        (
            "item.completed",
            "nothing",
            "an item's outcome is not the run's; an `error` item (config or deprecation"
            " warning, model rerouted) is counted in `warnings`",
            "_item_completed",
        ),
        ("item.plan.delta", "nothing", "streamed plan text", None),
        (
            "request_user_input",
            "QUESTION",
            "the model asks the user: first question's text and option labels, id `call_id`;"
            " `codex exec` reads no answer on stdin, so the reply cannot reach it (a"
            " `ThreadEvent` in exec_events.rs; the JSONL processor read does not emit it yet)",
            "_request_user_input",
        ),
    ],
) + _rows(
    _CLAUDE,
    [
        (
            "system",
            "nothing",
            "`init` records `session_id` and `model`; other subtypes are progress",
            "_system",
        ),
        (
            "assistant",
            "QUESTION or nothing",
            "an `AskUserQuestion` tool use asks the operator (id: the tool use id); a message"
            " `error` (`rate_limit`, `authentication_failed`) is counted in `warnings`",
            "_assistant",
        ),
        ("user", "nothing", "tool results and replayed prompts", None),
        ("stream_event", "nothing", "partial message deltas", None),
        (
            "rate_limit_event",
            "nothing",
            "rate-limit status; the run goes on or fails in `result`",
            None,
        ),
        (
            "result",
            "COMPLETED or FAILED",
            "the event that ends the run; FAILED when `is_error`, a subtype other than `success`,"
            " `stop_reason: refusal`, a `terminal_reason` other than `completed` or an"
            " `api_error_status`; reason"
            " `errors[0]`, else `result`, with the subtype in `subtype`",
            "_result",
        ),
        (
            "control_request",
            "QUESTION or nothing",
            "`can_use_tool` waits on stdin for a permission: options allow/deny, id `request_id`"
            " (for `AskUserQuestion`, its question and options); other subtypes are SDK plumbing",
            "_control_request",
        ),
        (
            "control_cancel_request",
            "nothing",
            "the CLI withdrew a request: its question is forgotten",
            "_control_cancel",
        ),
        ("control_response", "nothing", "an answer to a request the host sent", None),
        ("keep_alive", "nothing", "transport keep-alive", None),
    ],
)
"""Every event type each mapper knows; any other maps to nothing (newer CLIs add types)."""


def event_table_markdown() -> str:
    """The README's table of :data:`NATIVE_EVENT_TABLE`."""
    lines = ["| Stream | Event `type` | Maps to | Why |", "| --- | --- | --- | --- |"]
    for row in NATIVE_EVENT_TABLE:
        lines.append(f"| `{row.protocol}` | `{row.event}` | {row.maps_to} | {row.why} |")
    return "\n".join(lines) + "\n"
