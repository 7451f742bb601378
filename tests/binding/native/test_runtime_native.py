"""The public native names: the seed's override, and the mappers native.py re-exports.

The mappers' behaviour is tested in ``tests/binding/native/`` against streams composed
from the upstream definitions (``tests/fixtures/native/upstream/``).
"""

from __future__ import annotations

import json

from bernstein_signals import (
    ClaudeStreamJsonParser,
    CodexJsonParser,
    SignalKind,
    SignalParser,
    StreamSignal,
    _native_claude,
    _native_codex,
    _native_support,
)


def test_native_reexports_the_upstream_mappers() -> None:
    assert ClaudeStreamJsonParser is _native_claude.ClaudeStreamJsonParser
    assert CodexJsonParser is _native_codex.CodexJsonParser
    assert SignalParser is _native_support.SignalParser
    for parser in (ClaudeStreamJsonParser(), CodexJsonParser()):
        assert isinstance(parser, SignalParser)


def test_the_default_parser_reads_the_canonical_grammar() -> None:
    parser = SignalParser()
    signal = parser.stream_signal_parser('BERNSTEIN:FAILED {"reason":"x"}\n')
    assert signal == StreamSignal(
        SignalKind.FAILED, {"reason": "x"}, 'BERNSTEIN:FAILED {"reason":"x"}'
    )
    assert parser.stream_signal_parser('{"type":"result"}') is None
    assert parser.stream_signal_parser("plain output") is None


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
