"""Issue 16 item 6: the drop-in for ``bernstein.core.protocols.stream_signals``.

The reference behaviour is re-expressed from the protocol's seed text as a
small oracle: a line is
stripped, must start with the prefix, then a whitespace-separated known kind
and an optional JSON object; anything else is plain output. The compat
module must agree with it on every line whose JSON both accept, and keep the
binding's strict JSON where they differ (documented in its docstring).

The package does not re-export it (``emitters.python.STANDALONE_MODULES``):
its names mirror the binding's own.
"""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import bernstein_signals as bs
from bernstein_signals import compat

_KINDS = [kind.value for kind in bs.SignalKind]


def _oracle(line: object) -> tuple[str, dict[str, Any], str] | None:
    """The seed's parser, re-expressed: (kind, payload, raw_line) or None."""
    if not isinstance(line, str):
        return None
    stripped = line.strip()
    if not stripped.startswith("BERNSTEIN:"):
        return None
    body = stripped[len("BERNSTEIN:") :].lstrip()
    if not body:
        return None
    parts = body.split(None, 1)
    if parts[0] not in _KINDS:
        return None
    payload: dict[str, Any] = {}
    if len(parts) == 2 and parts[1].strip():
        try:
            decoded = json.loads(parts[1].strip())
        except ValueError:
            return None
        if not isinstance(decoded, dict):
            return None
        payload = decoded
    return parts[0], payload, stripped


def test_the_reference_names_are_all_there() -> None:
    for name in (
        "SIGNAL_PREFIX",
        "TERMINAL_SIGNAL_KINDS",
        "SignalKind",
        "StreamSignal",
        "MissingTerminalSignal",
        "parse_signal",
        "iter_signals",
        "has_terminal_signal",
        "format_signal",
        "check_terminal_signal",
    ):
        assert name in compat.__all__
        assert hasattr(compat, name)
    assert compat.SIGNAL_PREFIX == "BERNSTEIN:"
    assert {compat.SignalKind.COMPLETED, compat.SignalKind.FAILED} == compat.TERMINAL_SIGNAL_KINDS


def test_stream_signal_defaults_and_is_terminal() -> None:
    bare = compat.StreamSignal(compat.SignalKind.COMPLETED)
    assert (bare.payload, bare.raw_line, bare.is_terminal) == ({}, "", True)
    assert not compat.StreamSignal(compat.SignalKind.BLOCKED, {"reason": "r"}).is_terminal
    assert isinstance(bare, bs.StreamSignal)  # binding functions take it
    with pytest.raises(dataclasses.FrozenInstanceError):
        bare.raw_line = "x"  # type: ignore[misc]
    assert compat.StreamSignal(compat.SignalKind.COMPLETED).payload is not bare.payload


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("BERNSTEIN:COMPLETED", ("COMPLETED", {}, "BERNSTEIN:COMPLETED")),
        ("  BERNSTEIN:COMPLETED  \n", ("COMPLETED", {}, "BERNSTEIN:COMPLETED")),
        (
            'BERNSTEIN:FAILED {"reason":"exit 2"}',
            ("FAILED", {"reason": "exit 2"}, 'BERNSTEIN:FAILED {"reason":"exit 2"}'),
        ),
        ("BERNSTEIN:  QUESTION   {} ", ("QUESTION", {}, "BERNSTEIN:  QUESTION   {}")),
        ("BERNSTEIN:completed", None),
        ("BERNSTEIN:PROGRESS {}", None),
        ("BERNSTEIN:COMPLETED [1]", None),
        ("BERNSTEIN:COMPLETED {bad", None),
        ("BERNSTEIN:", None),
        ("bernstein:COMPLETED", None),
        ("see BERNSTEIN:COMPLETED", None),
        (None, None),
        (42, None),
    ],
)
def test_parse_signal_as_the_seed_describes(
    line: object, expected: tuple[str, dict[str, Any], str] | None
) -> None:
    assert _oracle(line) == expected  # the oracle is the seed's reading
    signal = compat.parse_signal(line)  # type: ignore[arg-type]
    if expected is None:
        assert signal is None
    else:
        assert isinstance(signal, compat.StreamSignal)
        assert (signal.kind, signal.payload, signal.raw_line) == expected


def test_strict_json_is_kept_where_the_reference_was_loose() -> None:
    deep = "[" * 200 + "]" * 200
    for payload in (
        '{"a":NaN}',
        '{"a":Infinity}',
        '{"a":' + "1" * 5000 + "}",
        f'{{"a":{deep}}}',
        '{"a":"\\ud800"}',
    ):
        line = f"BERNSTEIN:COMPLETED {payload}"
        assert compat.parse_signal(line) is None, payload
    assert compat.parse_signal(b"BERNSTEIN:COMPLETED") == compat.StreamSignal(  # type: ignore[arg-type]
        compat.SignalKind.COMPLETED, {}, "BERNSTEIN:COMPLETED"
    )


def test_iter_signals_returns_a_list_and_the_terminal_checks() -> None:
    lines = ["building", 'BERNSTEIN:QUESTION {"question":"ok?"}', " BERNSTEIN:COMPLETED "]
    signals = compat.iter_signals(lines)
    assert isinstance(signals, list)
    assert [s.kind for s in signals] == ["QUESTION", "COMPLETED"]
    assert compat.has_terminal_signal(signals)
    assert not compat.has_terminal_signal(signals[:1])
    assert not compat.has_terminal_signal([])
    assert compat.check_terminal_signal(lines, run_id="r") is None
    warning = compat.check_terminal_signal(lines[:2], run_id="run-7")
    assert isinstance(warning, compat.MissingTerminalSignal)
    assert isinstance(warning, bs.MissingTerminalSignal)
    assert isinstance(warning, RuntimeWarning)
    assert (
        str(warning)
        == "adapter run 'run-7' did not emit a terminal stream signal (COMPLETED or FAILED)"
    )
    assert str(compat.MissingTerminalSignal("any message")) == "any message"


def test_format_signal_writes_the_seed_examples_and_checks_no_schema() -> None:
    draft = compat.format_signal(compat.SignalKind.PLAN_DRAFT, {"markdown": "# Plan\n- step 1"})
    assert draft == 'BERNSTEIN:PLAN_DRAFT {"markdown":"# Plan\\n- step 1"}'
    assert compat.format_signal(compat.SignalKind.COMPLETED) == "BERNSTEIN:COMPLETED"
    assert compat.format_signal(compat.SignalKind.COMPLETED, {}) == "BERNSTEIN:COMPLETED {}"
    # No schema: a QUESTION without its question is written (the binding's own would refuse).
    assert (
        compat.format_signal(compat.SignalKind.QUESTION, {"x": 1}) == 'BERNSTEIN:QUESTION {"x":1}'
    )
    with pytest.raises(TypeError, match="payload must be a dict, got list"):
        compat.format_signal(compat.SignalKind.COMPLETED, [1])  # type: ignore[arg-type]
    for bad in ({"a": object()}, {"a": math.nan}, {1: "non-str key"}):
        with pytest.raises(ValueError, match=r"."):  # the binding's message, per cause
            compat.format_signal(compat.SignalKind.COMPLETED, bad)  # type: ignore[arg-type]


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
_space = st.sampled_from(["", " ", "  ", "\t", " \t "])


def _utf16_sorted(value: object) -> object:
    if isinstance(value, dict):
        order = sorted(value, key=lambda key: key.encode("utf-16-be"))
        return {key: _utf16_sorted(value[key]) for key in order}
    if isinstance(value, list):
        return [_utf16_sorted(item) for item in value]
    return value


def _seed_compact(payload: object) -> str:
    """The seed's compact sorted ``json.dumps``, with the canonical form's two documented
    differences for these values (spec/canonical-form.md): keys in UTF-16 order, and the
    line-safety escapes of U+0085, U+2028 and U+2029."""
    text = json.dumps(_utf16_sorted(payload), ensure_ascii=False, separators=(",", ":"))
    for char in "\x85\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


@given(
    st.sampled_from([*_KINDS, "completed", "PROGRESS", ""]),
    st.one_of(st.none(), st.dictionaries(st.text(max_size=5), _json, max_size=4), _json),
    _space,
    _space,
    _space,
)
@example("BLOCKED", {"\x85": None, "\U0001f600": 1, "\ufb33": 2}, "", "", "")  # the two differences
def test_parse_signal_agrees_with_the_seed_oracle(
    kind: str, payload: object, before: str, between: str, after: str
) -> None:
    body = "" if payload is None else " " + json.dumps(payload, ensure_ascii=False)
    line = f"{before}BERNSTEIN:{between}{kind}{body}{after}"
    expected = _oracle(line)
    signal = compat.parse_signal(line)
    assert (None if signal is None else (signal.kind, signal.payload, signal.raw_line)) == expected
    if (
        isinstance(payload, dict) and kind in _KINDS
    ):  # and formatting is the seed's compact, sorted JSON
        written = compat.format_signal(kind, payload)
        assert written == f"BERNSTEIN:{kind} " + _seed_compact(payload)
        assert compat.parse_signal(written) == compat.StreamSignal(
            bs.SignalKind(kind), payload, written
        )
