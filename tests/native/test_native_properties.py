"""The native mappers on any input: no raise, valid and formattable, one terminal, linear."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import SignalKind, format_signal, validate_payload
from bernstein_signals._native_support import NATIVE_EVENT_TABLE, NativeJsonParser
from linear_support import assert_linear
from native.native_support import MAPPERS

_TYPES = sorted({row.event for row in NATIVE_EVENT_TABLE} | {"result", "unknown.type"})
_TEXT = st.text(max_size=12) | st.sampled_from(["\ud800", "a\udfffb", " ", "", "allow", "success"])
_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_TEXT, children, max_size=4),
    max_leaves=20,
)
_KEYS = st.sampled_from(
    [
        "subtype", "is_error", "error", "errors", "result", "message", "stop_reason",
        "terminal_reason", "session_id", "thread_id", "usage", "total_cost_usd", "num_turns",
        "modelUsage", "model", "request_id", "request", "questions", "call_id", "item",
        "content", "input", "name", "id", "tool_name", "tool_use_id",
    ]
)  # fmt: skip
_ASK: Any = {
    "questions": [
        {"question": "Q\ud800?", "options": [{"label": "a"}, {"label": "a"}, {"label": ""}]}
    ]
}
_VALUES: st.SearchStrategy[Any] = st.sampled_from(
    [
        "can_use_tool", "AskUserQuestion", "tool_use", "refusal", "error_max_turns", True, False,
        None, 2**70, -1, float("nan"), float("inf"), 1e308, [], {}, "\ud800",
        {"subtype": "can_use_tool", "tool_name": "AskUserQuestion", "input": _ASK},
        {"content": [{"type": "tool_use", "name": "AskUserQuestion", "id": "t", "input": _ASK}]},
        [{"question": "Go?", "options": [{"label": "x"}, "y", 3]}],
        {"type": "error", "message": "warn \udc00"},
        {"input_tokens": 2**64, "output_tokens": True, "cached_input_tokens": 3},
    ]
)  # fmt: skip
_EVENT = st.fixed_dictionaries({"type": st.sampled_from(_TYPES)}, optional={}).flatmap(
    lambda base: st.dictionaries(_KEYS, _VALUES | _JSON, max_size=6).map(lambda d: {**d, **base})
)
_LINE = st.one_of(
    _EVENT.map(json.dumps),
    _JSON.map(json.dumps),
    st.text(max_size=40),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")),
    _EVENT.map(lambda event: json.dumps(event)[:-1]),
    st.sampled_from(['{"type":"result"', "[" * 5000, '{"a":' * 3000, "{}", "\ud800"]),
)


def _check(parser: NativeJsonParser, run: list[str]) -> None:
    terminals = 0
    for line in run:
        signal = parser.stream_signal_parser(line)
        if signal is None:
            continue
        assert validate_payload(signal.kind, signal.payload) == []
        format_signal(signal.kind, signal.payload)  # raises if it cannot be written again
        terminals += signal.kind in (SignalKind.COMPLETED, SignalKind.FAILED)
    assert terminals <= 1


@settings(max_examples=600)
@given(st.lists(_EVENT.map(json.dumps) | _LINE, max_size=12))
@pytest.mark.parametrize("protocol", sorted(MAPPERS))
def test_any_run_maps_without_raising_to_valid_signals_and_one_terminal(
    protocol: str, run: list[str]
) -> None:
    # canonical BERNSTEIN lines are the adapter's own; the native ones are what we count
    native = [line for line in run if not line.startswith("BERNSTEIN:")]
    _check(MAPPERS[protocol](), native)


@settings(max_examples=300)
@given(st.lists(_EVENT, max_size=8), _JSON)
@pytest.mark.parametrize("protocol", sorted(MAPPERS))
def test_reply_line_never_raises(protocol: str, run: list[dict[str, Any]], reply: Any) -> None:
    parser = MAPPERS[protocol]()
    ids = []
    for event in run:
        signal = parser.stream_signal_parser(json.dumps(event))
        if signal is not None and signal.kind == SignalKind.QUESTION:
            ids.append(signal.payload.get("id"))
    for ident in [*ids, reply]:
        for candidate in ({"in_reply_to": ident, "answer": "allow"}, reply, json.dumps(reply)):
            line = parser.reply_line(candidate)
            assert line is None or json.loads(line)["type"] == "control_response"


_PROMPT = {"subtype": "can_use_tool", "tool_name": "Bash", "input": {"command": "ls"}}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("protocol", sorted(MAPPERS))
def test_time_is_linear_in_the_stream(protocol: str) -> None:
    sample = [
        {"type": "error", "message": "Reconnecting... 1/5"},
        {"type": "item.completed", "item": {"id": "i", "type": "error", "message": "w"}},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "x" * 50}]}},
        {"type": "control_request", "request_id": "r", "request": _PROMPT},
        {"type": "system", "subtype": "status"},
    ]  # fmt: skip
    text = [json.dumps(event) + "\n" for event in sample]

    def make(size: int) -> Any:
        stream = text * size

        def run() -> None:
            parser = MAPPERS[protocol]()
            for _ in parser.parse_lines(stream):
                pass

        return run

    assert_linear(make, 400, what=f"{protocol} over a long stream")
