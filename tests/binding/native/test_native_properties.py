"""The native mappers on any input: no raise, valid and formattable, one terminal, linear."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from bernstein_signals import SignalKind, format_signal, validate_payload
from bernstein_signals._native_support import NATIVE_EVENT_TABLE, NativeJsonParser
from binding.native.native_support import MAPPERS
from linear_support import assert_linear

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
_LABELS = st.lists(st.fixed_dictionaries({"label": _TEXT}) | _TEXT | _JSON, max_size=4)
_ASKED = st.fixed_dictionaries(
    {
        "questions": st.lists(
            st.fixed_dictionaries({"question": _TEXT, "options": _LABELS}), max_size=2
        )
    },
    optional={"command": _TEXT, "file_path": _TEXT},
)
_TOOL = st.sampled_from(["Bash", "AskUserQuestion", "Edit"]) | _TEXT
_SHAPED = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("control_request"),
            "request_id": _TEXT,
            "request": st.fixed_dictionaries(
                {"subtype": st.just("can_use_tool"), "tool_name": _TOOL, "input": _ASKED | _JSON},
                optional={"tool_use_id": _TEXT},
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("assistant"),
            "message": st.fixed_dictionaries(
                {
                    "content": st.lists(
                        st.fixed_dictionaries(
                            {
                                "type": st.just("tool_use"),
                                "name": _TOOL,
                                "id": _TEXT,
                                "input": _ASKED,
                            }
                        )
                        | _JSON,
                        max_size=3,
                    )
                }
            ),
        },
        optional={"error": _TEXT | _JSON},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("request_user_input"),
            "call_id": _TEXT,
            "questions": _ASKED.map(lambda asked: asked["questions"]),
        }
    ),
    st.fixed_dictionaries(
        {"type": st.just("result")},
        optional={
            "subtype": st.sampled_from(["success", "error_max_turns"]) | _TEXT,
            "is_error": st.booleans() | _JSON,
            "stop_reason": st.sampled_from(["refusal", "end_turn"]) | _TEXT,
            "terminal_reason": st.sampled_from(["completed", "aborted_tools"]) | _TEXT,
            "errors": st.lists(_TEXT | _JSON, max_size=2),
            "result": _TEXT,
            "api_error_status": st.sampled_from([None, 0, 529, "overloaded"]) | _JSON,
            "usage": _JSON,
            "total_cost_usd": st.floats() | st.integers(),
        },
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["turn.failed", "error", "item.completed"])},
        optional={"error": _JSON, "message": _TEXT, "item": _JSON},
    ),
)
_LINE = st.one_of(
    _SHAPED.map(json.dumps),
    _EVENT.map(json.dumps),
    _JSON.map(json.dumps),
    st.text(max_size=40),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")),
    _EVENT.map(lambda event: json.dumps(event)[:-1]),
    st.sampled_from(['{"type":"result"', "[" * 5000, '{"a":' * 3000, "{}", "\ud800"]),
)

_RUN = st.lists(_EVENT.map(json.dumps) | _LINE, max_size=12)


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
@given(_RUN)
@pytest.mark.parametrize("protocol", sorted(MAPPERS))
def test_any_run_maps_without_raising_to_valid_signals_and_one_terminal(
    protocol: str, run: list[str]
) -> None:
    # canonical BERNSTEIN lines are the adapter's own; the native ones are what we count
    native = [line for line in run if not line.startswith("BERNSTEIN:")]
    _check(MAPPERS[protocol](), native)


@pytest.mark.parametrize("kind", [SignalKind.QUESTION, SignalKind.COMPLETED, SignalKind.FAILED])
@pytest.mark.parametrize("protocol", sorted(MAPPERS))
def test_the_runs_drawn_reach_every_mapped_kind(protocol: str, kind: SignalKind) -> None:
    """Guards the strategies: a run that yields each kind is among the examples drawn."""

    def yields(run: list[str]) -> bool:
        return any(s.kind == kind for s in MAPPERS[protocol]().parse_lines(run))

    find(_RUN, yields, settings=settings(max_examples=600, database=None))


@settings(max_examples=300)
@given(st.lists(_SHAPED | _EVENT, max_size=8), _JSON)
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
