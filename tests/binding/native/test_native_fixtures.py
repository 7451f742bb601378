"""The native mappers on streams composed from the upstream definitions, and the event table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals import SignalKind, format_signal, validate_payload
from bernstein_signals._native_claude import ClaudeStreamJsonParser
from bernstein_signals._native_codex import CodexJsonParser
from bernstein_signals._native_support import (
    _MAX_PENDING,
    _MAX_TEXT,
    NATIVE_EVENT_TABLE,
    event_table_markdown,
)
from binding.native.native_support import (
    FIXTURES,
    MAPPERS,
    SOURCES,
    events,
    lines,
    mapped,
    mapper_for,
)

README = Path(__file__).resolve().parents[3] / "README.md"
THREAD = "019a6b1e-3c44-7d02-9f1e-2b7c5d8e4a10"
SESSION = "4e1c0a52-8f3b-4d6e-a1c9-7b2d5e8f0a13"
RECONNECT = (
    "Reconnecting... {}/5 (stream disconnected before completion: error sending request for"
    " url (https://chatgpt.com/backend-api/codex/responses))"
)
DISCONNECTED = (
    "stream disconnected before completion: error sending request for url"
    " (https://chatgpt.com/backend-api/codex/responses)"
)
UNAUTHORIZED = (
    "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header"
)
CLAUDE_END = {
    "session_id": SESSION,
    "model": "claude-sonnet-4-5-20250929",
    "usage": {"input_tokens": 14, "cached_input_tokens": 39825, "output_tokens": 412},
    "cost_usd": 0.0483915,
}
DATABASE = {
    "question": "Which database should the migration target?",
    "options": ["Postgres", "SQLite"],
}
PROMPT = {"question": "Allow Bash: pytest -q tests/test_login.py?", "options": ["allow", "deny"]}


def _codex_usage(inputs: int, cached: int, outputs: int) -> dict[str, int]:
    return {"input_tokens": inputs, "cached_input_tokens": cached, "output_tokens": outputs}


EXPECTED: dict[str, list[tuple[SignalKind, dict[str, Any]]]] = {
    "codex_success.jsonl": [
        (
            SignalKind.COMPLETED,
            {
                "session_id": THREAD,
                "usage": _codex_usage(24763, 24448, 122),
                "turns": 1,
                "warnings": 1,
                "last_warning": "`[features].web_search_request` is deprecated."
                " Use `web_search` instead.",
            },
        )
    ],
    "codex_reconnect_then_success.jsonl": [
        (
            SignalKind.COMPLETED,
            {
                "session_id": THREAD,
                "usage": _codex_usage(8120, 0, 40),
                "turns": 1,
                "warnings": 2,
                "last_warning": RECONNECT.format(2),
            },
        )
    ],
    "codex_turn_failed.jsonl": [
        (
            SignalKind.FAILED,
            {
                "session_id": THREAD,
                "reason": DISCONNECTED,
                "subtype": "turn.failed",
                "turns": 1,
                "warnings": 6,
                "last_warning": DISCONNECTED,
            },
        )
    ],
    "codex_signed_out.jsonl": [
        (
            SignalKind.FAILED,
            {
                "session_id": THREAD,
                "reason": UNAUTHORIZED,
                "subtype": "turn.failed",
                "turns": 1,
                "warnings": 1,
                "last_warning": UNAUTHORIZED,
            },
        )
    ],
    "codex_multiple_turns.jsonl": [
        (
            SignalKind.COMPLETED,
            {"session_id": THREAD, "usage": _codex_usage(100, 0, 10), "turns": 1},
        )
    ],
    "codex_request_user_input.jsonl": [
        (SignalKind.QUESTION, {**DATABASE, "id": "call_q7Lk2"}),
        (
            SignalKind.COMPLETED,
            {"session_id": THREAD, "usage": _codex_usage(900, 0, 60), "turns": 1},
        ),
    ],
    "claude_success.jsonl": [(SignalKind.COMPLETED, {**CLAUDE_END, "turns": 3})],
    "claude_max_turns.jsonl": [
        (
            SignalKind.FAILED,
            {
                **CLAUDE_END,
                "turns": 2,
                "reason": "Reached maximum number of turns (2)",
                "subtype": "error_max_turns",
            },
        )
    ],
    "claude_error_during_execution.jsonl": [
        (
            SignalKind.FAILED,
            {
                **CLAUDE_END,
                "turns": 0,
                "reason": "error_during_execution",
                "subtype": "error_during_execution",
            },
        )
    ],
    "claude_refusal.jsonl": [
        (
            SignalKind.FAILED,
            {
                **CLAUDE_END,
                "turns": 1,
                "reason": "I can't help with writing that malware.",
                "subtype": "refusal",
            },
        )
    ],
    "claude_signed_out.jsonl": [
        (
            SignalKind.FAILED,
            {
                **CLAUDE_END,
                "turns": 1,
                "reason": "Invalid API key · Please run /login",
                "subtype": "authentication_failed",
                "warnings": 1,
                "last_warning": "Invalid API key · Please run /login",
            },
        )
    ],
    "claude_permission_prompt.jsonl": [
        (SignalKind.QUESTION, {**PROMPT, "id": "req_1_8f2a"}),
        (SignalKind.COMPLETED, {**CLAUDE_END, "turns": 2}),
    ],
    "claude_ask_user_question.jsonl": [
        (SignalKind.QUESTION, {**DATABASE, "id": "toolu_01Ask000000000000000000b2"}),
        (SignalKind.COMPLETED, {**CLAUDE_END, "turns": 2}),
    ],
    "claude_ask_denied_headless.jsonl": [
        (SignalKind.QUESTION, {**DATABASE, "id": "toolu_01Ask000000000000000000b2"}),
        (SignalKind.COMPLETED, {**CLAUDE_END, "turns": 2}),
    ],
    "claude_control_cancel.jsonl": [
        (SignalKind.QUESTION, {**PROMPT, "id": "req_3_77e0"}),
        (
            SignalKind.FAILED,
            {
                **CLAUDE_END,
                "turns": 1,
                "reason": "Request was aborted.",
                "subtype": "error_during_execution",
            },
        ),
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_maps_to(name: str) -> None:
    assert mapped(name) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mapped_signals_are_valid_and_formattable(name: str) -> None:
    for kind, payload in mapped(name):
        assert validate_payload(kind, payload) == []
        assert format_signal(kind, payload).startswith(f"BERNSTEIN:{kind.value} ")


def test_every_fixture_has_expectations_and_a_cited_source() -> None:
    names = {path.name for path in FIXTURES.glob("*.jsonl")}
    assert names == set(EXPECTED) == set(SOURCES["fixtures"])
    for name, source in SOURCES["fixtures"].items():
        assert source["composed_from"] in {"openai/codex", "anthropics/claude-agent-sdk-python"}
        assert name.startswith("codex_") == (source["composed_from"] == "openai/codex")
        assert source["versions"]
        assert source["shows"]
        for path, commit in source["versions"].items():
            assert path.count("/") >= 2, (name, path)
            assert re.fullmatch("[0-9a-f]{40}", commit), (name, path)


def test_every_table_row_is_handled_and_every_event_type_has_a_fixture() -> None:
    seen: dict[str, set[str]] = {protocol: set() for protocol in MAPPERS}
    for name in EXPECTED:
        protocol = mapper_for(name).PROTOCOL
        seen[protocol] |= {event["type"] for event in events(name)}
    for row in NATIVE_EVENT_TABLE:
        assert row.protocol in MAPPERS
        if row.handler is not None:
            assert callable(getattr(MAPPERS[row.protocol], row.handler))
        assert row.event in seen[row.protocol], f"no fixture shows {row.protocol} {row.event}"
    # and no fixture holds an event type the table does not decide
    decided = {(row.protocol, row.event) for row in NATIVE_EVENT_TABLE}
    assert {(p, e) for p, types in seen.items() for e in types} <= decided


def test_every_row_maps_to_kinds_or_nothing() -> None:
    kinds = {kind.value for kind in SignalKind} | {"nothing"}
    for row in NATIVE_EVENT_TABLE:
        assert set(row.maps_to.split(" or ")) <= kinds, row
        if row.maps_to != "nothing":
            assert row.handler is not None, row  # a signal needs code that builds it


def test_readme_renders_the_event_table_and_the_bounds() -> None:
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert " ".join(event_table_markdown().split()) in readme
    assert f"cut at {_MAX_TEXT} code points, at most {_MAX_PENDING} unanswered" in readme


def test_one_terminal_per_run_and_reset_starts_the_next() -> None:
    parser = CodexJsonParser()
    kinds = []
    for line in lines("codex_multiple_turns.jsonl"):
        if '"thread.started"' in line:
            parser.reset()  # exec's first event: a host that keeps one mapper resets here
        signal = parser.stream_signal_parser(line)
        if signal is not None:
            kinds.append((signal.kind, signal.payload.get("reason")))
    assert kinds == [
        (SignalKind.COMPLETED, None),
        (SignalKind.FAILED, "Quota exceeded. Check your plan and billing details."),
    ]


def test_a_transient_error_alone_is_not_an_end() -> None:
    parser = CodexJsonParser()
    assert parser.stream_signal_parser('{"type":"error","message":"Reconnecting... 1/5"}') is None
    failed = parser.stream_signal_parser('{"type":"turn.failed","error":{}}')
    assert failed is not None
    assert failed.payload["reason"] == "Reconnecting... 1/5"  # the last error, not a placeholder
    assert parser.stream_signal_parser('{"type":"turn.completed","usage":{}}') is None


@pytest.mark.parametrize(
    ("fields", "kind", "subtype"),
    [
        ({"subtype": "success", "is_error": False}, SignalKind.COMPLETED, None),
        ({"subtype": "success", "terminal_reason": "completed"}, SignalKind.COMPLETED, None),
        (
            {"subtype": "success", "terminal_reason": "aborted_tools"},
            SignalKind.FAILED,
            "aborted_tools",
        ),
        ({"subtype": "success", "stop_reason": "refusal"}, SignalKind.FAILED, "refusal"),
        ({"subtype": "success", "is_error": True}, SignalKind.FAILED, "error"),
        ({"subtype": "error_max_turns", "is_error": False}, SignalKind.FAILED, "error_max_turns"),
        ({"is_error": True, "errors": ["boom"]}, SignalKind.FAILED, "error"),
        ({"subtype": "success", "api_error_status": 529}, SignalKind.FAILED, "api_error_529"),
        ({"subtype": "success", "api_error_status": None}, SignalKind.COMPLETED, None),
    ],
)
def test_claude_result_outcome(
    fields: dict[str, Any], kind: SignalKind, subtype: str | None
) -> None:
    import json

    signal = ClaudeStreamJsonParser().stream_signal_parser(json.dumps({"type": "result", **fields}))
    assert signal is not None
    assert signal.kind == kind
    assert signal.payload.get("subtype") == subtype
    if kind == SignalKind.FAILED:
        assert signal.payload["reason"] == ("boom" if "errors" in fields else subtype)


def test_canonical_lines_still_parse_and_raw_line_keeps_the_event() -> None:
    for parser in (ClaudeStreamJsonParser(), CodexJsonParser()):
        signal = parser.stream_signal_parser('BERNSTEIN:QUESTION {"question":"Go?"}\n')
        assert signal is not None
        assert signal.kind == SignalKind.QUESTION
        assert parser.stream_signal_parser("plain output\n") is None
    line = '{"type":"turn.completed","usage":{}}\r\n'
    signal = CodexJsonParser().stream_signal_parser(line)
    assert signal is not None
    assert signal.raw_line == line.rstrip()
