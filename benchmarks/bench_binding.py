"""The Python binding against its baselines, measured side by side in one run.

1. iter_signals over the whole corpus vs the seed project's per-line parser.
2. strict parse_signal on signal lines vs Lark LALR on grammar/signal.lark.
3. validate_payload vs jsonschema Draft202012Validator.is_valid.
4. format_signal(validate=False) vs an f-string around json.dumps; validate=True apart.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from benchmarks._corpus import corpus_lines, signal_lines
from benchmarks._timing import report, side_by_side
from bernstein_signals import (
    SignalKind,
    StreamSignal,
    format_signal,
    iter_signals,
    parse_signal,
    validate_payload,
)
from bernstein_signals_toolkit.generator.load import load_grammar

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schema"
GRAMMAR = ROOT / "grammar" / "signal.lark"
PREFIX = "BERNSTEIN:"


def _seed_parse(line: str) -> StreamSignal | None:
    """The seed project's parser: strip, split on whitespace, json.loads, isinstance dict."""
    line = line.strip()
    if not line.startswith(PREFIX):
        return None
    parts = line[len(PREFIX) :].strip().split(maxsplit=1)
    if not parts:
        return None
    try:
        kind = SignalKind(parts[0])
    except ValueError:
        return None
    payload: dict[str, Any] = {}
    if len(parts) == 2:
        try:
            data = json.loads(parts[1])
        except json.JSONDecodeError:
            return None
        if not isinstance(data, dict):
            return None
        payload = data
    return StreamSignal(kind, payload, line)


def _validators() -> dict[SignalKind, jsonschema.Draft202012Validator]:
    return {
        kind: jsonschema.Draft202012Validator(
            json.loads((SCHEMAS / f"{kind.lower()}.schema.json").read_text(encoding="utf-8"))
        )
        for kind in SignalKind
    }


def _dumps_line(kind: SignalKind, payload: dict[str, Any] | None) -> str:
    """The bare baseline: an f-string around json.dumps."""
    if payload is None:
        return f"{PREFIX}{kind}"
    return f"{PREFIX}{kind} {json.dumps(payload, separators=(',', ':'), sort_keys=True)}"


def main(quick: bool) -> None:
    repeats = 3 if quick else 15
    lines = corpus_lines(quick)
    signals = signal_lines(lines)
    share = len(signals) / len(lines)
    print(f"corpus: {len(lines):,} lines, {len(signals):,} signals ({share:.1%})")

    # 1. Reading a whole stdout.
    read = list(iter_signals(lines))
    assert read == [s for line in lines if (s := _seed_parse(line)) is not None]
    times = side_by_side(
        lambda: sum(1 for _ in iter_signals(lines)),
        lambda: sum(1 for line in lines if _seed_parse(line) is not None),
        repeats=repeats,
    )
    report("iter_signals (strict), all lines", len(lines), times, "seed-style loop", ">= 1.0x")

    # 2. Parsing signal lines; Lark is slow, so both run on a sample.
    lark = load_grammar(GRAMMAR)[1]
    sample = signals[: 500 if quick else 2000]
    times = side_by_side(
        lambda: [parse_signal(line) for line in sample],
        lambda: [lark.parse(line.rstrip("\n")) for line in sample],
        repeats=repeats,
        loops=(10, 1),
    )
    report("parse_signal (strict), signal lines", len(sample), times, "Lark LALR", ">= 25x")

    # 3. Validating the corpus's payloads.
    cases = [(signal.kind, signal.payload) for signal in read]
    validators = _validators()
    times = side_by_side(
        lambda: [validate_payload(kind, payload) for kind, payload in cases],
        lambda: [validators[kind].is_valid(payload) for kind, payload in cases],
        repeats=repeats,
        loops=(5, 1),
    )
    report("validate_payload", len(cases), times, "jsonschema is_valid", ">= 20x")

    # 4. Formatting them again.
    payloads = [(kind, payload or None) for kind, payload in cases]
    bare = "f-string + json.dumps"
    for validate, goal in ((False, "time <= 1.0x"), (True, "time none (reported apart)")):

        def formatted(v: bool = validate) -> list[str]:
            return [format_signal(k, p, validate=v) for k, p in payloads]

        times = side_by_side(
            formatted,
            lambda: [_dumps_line(k, p) for k, p in payloads],
            repeats=repeats,
        )
        report(f"format_signal(validate={validate})", len(payloads), times, bare, goal)
