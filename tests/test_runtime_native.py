"""Native protocol mappers: fixture streams of real event shapes, the seed's override, no raise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    ClaudeStreamJsonParser,
    CodexJsonParser,
    SignalKind,
    SignalParser,
    StreamSignal,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "native"


def _signals(parser: SignalParser, name: str) -> list[tuple[SignalKind, dict[str, Any]]]:
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines(keepends=True)
    return [(signal.kind, signal.payload) for signal in parser.parse_lines(lines)]


CLAUDE_SESSION = "2f1c6a0e-4d1b-4a3e-9b7a-5c2d8e9f0a11"


@pytest.mark.parametrize(
    ("parser", "fixture", "expected"),
    [
        (
            ClaudeStreamJsonParser(),
            "claude_success.jsonl",
            [(SignalKind.COMPLETED, {"session_id": CLAUDE_SESSION})],
        ),
        (
            ClaudeStreamJsonParser(),
            "claude_error_max_turns.jsonl",
            [
                (
                    SignalKind.FAILED,
                    {
                        "reason": "error_max_turns",
                        "session_id": "7a8b9c0d-1e2f-4a5b-8c7d-6e5f4a3b2c1d",
                    },
                )
            ],
        ),
        (
            ClaudeStreamJsonParser(),
            "claude_error_during_execution.jsonl",
            [
                (
                    SignalKind.FAILED,
                    {
                        "reason": "error_during_execution",
                        "session_id": "c0ffee00-1234-4abc-9def-0123456789ab",
                    },
                )
            ],
        ),
        (
            ClaudeStreamJsonParser(),
            "claude_error_without_subtype.jsonl",
            [
                (
                    SignalKind.FAILED,
                    {
                        "reason": "Credit balance is too low",
                        "session_id": "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6",
                    },
                )
            ],
        ),
        (CodexJsonParser(), "codex_completed.jsonl", [(SignalKind.COMPLETED, {})]),
        (
            CodexJsonParser(),
            "codex_turn_failed.jsonl",
            [
                (
                    SignalKind.FAILED,
                    {
                        "reason": "stream disconnected before completion: Transport error:"
                        " error decoding response body"
                    },
                )
            ],
        ),
        (
            CodexJsonParser(),
            "codex_error.jsonl",
            [
                (
                    SignalKind.FAILED,
                    {
                        "reason": "unexpected status 401 Unauthorized: Missing bearer"
                        " authentication in header"
                    },
                )
            ],
        ),
    ],
)
def test_fixture_streams(
    parser: SignalParser, fixture: str, expected: list[tuple[SignalKind, dict[str, Any]]]
) -> None:
    assert _signals(parser, fixture) == expected


def test_every_fixture_is_json_lines_and_tested() -> None:
    names = {path.name for path in FIXTURES.glob("*.jsonl")}
    assert len(names) == 7
    for name in names:
        for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
            assert isinstance(json.loads(line), dict)


def test_canonical_lines_still_parse_and_raw_line_keeps_the_native_event() -> None:
    for parser in (ClaudeStreamJsonParser(), CodexJsonParser(), SignalParser()):
        signal = parser.stream_signal_parser('BERNSTEIN:FAILED {"reason":"x"}\n')
        assert signal == StreamSignal(
            SignalKind.FAILED, {"reason": "x"}, 'BERNSTEIN:FAILED {"reason":"x"}'
        )
        assert parser.stream_signal_parser("plain output") is None
    line = '{"type":"turn.completed","usage":{}}\r\n'
    signal = CodexJsonParser().stream_signal_parser(line)
    assert signal is not None
    assert signal.raw_line == line.rstrip()


def test_the_seed_override_works_unchanged() -> None:
    """The seed's MyAdapter example, with CLIAdapter replaced by SignalParser."""

    class MyAdapter(SignalParser):
        def stream_signal_parser(self, line: str) -> StreamSignal | None:
            # Native protocol: one JSON object per line.
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                # Fall back to canonical grammar for downstream tools.
                return super().stream_signal_parser(line)
            if event.get("type") == "finish":
                return StreamSignal(
                    kind=SignalKind.COMPLETED if event.get("ok") else SignalKind.FAILED,
                    payload=event,
                    raw_line=line,
                )
            return None

    adapter = MyAdapter()
    lines = [
        '{"type":"progress"}',
        'BERNSTEIN:QUESTION {"question":"Go?"}',
        '{"type":"finish","ok":false}',
    ]
    assert [s.kind for s in adapter.parse_lines(lines)] == [SignalKind.QUESTION, SignalKind.FAILED]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
_KEYS = st.sampled_from(["type", "subtype", "is_error", "error", "errors", "result", "message"])
_VALUES: st.SearchStrategy[Any] = st.sampled_from(
    ["result", "turn.completed", "turn.failed", "error", "success", True, False, None, 42, [], {}]
)
_EVENTS = st.dictionaries(_KEYS, _VALUES | _JSON, max_size=5)


@settings(max_examples=500)
@given(
    st.one_of(
        _JSON.map(json.dumps),
        _EVENTS.map(json.dumps),
        st.text(max_size=40),
        _EVENTS.map(lambda event: json.dumps(event)[:-1]),  # broken JSON
        st.sampled_from(["42", "[]", "null", '"text"', "{", "[" * 5000, '{"a":' * 3000]),
    )
)
def test_no_line_makes_a_mapper_raise(line: str) -> None:
    for parser in (ClaudeStreamJsonParser(), CodexJsonParser()):
        signal = parser.stream_signal_parser(line)
        if signal is not None:
            assert isinstance(signal.payload, dict)
            if signal.kind == SignalKind.FAILED:
                assert isinstance(signal.payload["reason"], str)
                assert signal.payload["reason"]
