"""What the native-mapper tests share: the fixtures, their sources, the mappers by protocol."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bernstein_signals import SignalKind
from bernstein_signals._native_claude import ClaudeStreamJsonParser
from bernstein_signals._native_codex import CodexJsonParser
from bernstein_signals._native_support import NativeJsonParser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "native" / "upstream"
SOURCES: dict[str, Any] = json.loads((FIXTURES / "sources.json").read_text(encoding="utf-8"))
MAPPERS: dict[str, type[NativeJsonParser]] = {
    ClaudeStreamJsonParser.PROTOCOL: ClaudeStreamJsonParser,
    CodexJsonParser.PROTOCOL: CodexJsonParser,
}


def mapper_for(name: str) -> NativeJsonParser:
    """A fresh mapper for a fixture, by its name's prefix."""
    return ClaudeStreamJsonParser() if name.startswith("claude_") else CodexJsonParser()


def lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").splitlines(keepends=True)


def events(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines(name)]


def mapped(name: str) -> list[tuple[SignalKind, dict[str, Any]]]:
    return [(s.kind, s.payload) for s in mapper_for(name).parse_lines(lines(name))]
