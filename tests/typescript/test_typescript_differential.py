"""The TypeScript binding against the Python one, through one long-running Node process.

For thousands of random payloads (non-ASCII and astral keys, U+2028, floats,
integers past 2^53, nested extras) ``formatSignal`` writes the bytes of
``format_signal`` and refuses what it refuses; ``parseSignal`` reads every
line, mutated or not, strict or lenient, as ``parse_signal`` does; replies too.
"""

from __future__ import annotations

import decimal
import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    MAX_INTEGER_DIGITS,
    MAX_NESTING_DEPTH,
    SignalKind,
    SignalScanner,
    UnknownKindSignal,
    format_signal,
    parse_reply,
    parse_signal,
    validate_payload,
)
from bernstein_signals_toolkit.generator.load import load_vocabulary
from linear_support import assert_linear
from typescript.node_support import ROOT, Harness

_SAFE = 2**53 - 1
_WHITESPACE = "".join(chr(code) for code in range(0x10000) if chr(code).isspace())
_KINDS = [kind.value for kind in SignalKind]

_text = st.text(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from('\u2028\u2029\x85\x00\x1f"\\\U0001f600\uffff\ue000/~'),
    ),
    max_size=8,
)
_integers = st.one_of(
    st.integers(-(2**64), 2**64),
    st.integers(_SAFE - 3, _SAFE + 3),
    st.integers(-(10**60), 10**60),
)
_floats = st.floats(allow_nan=False, allow_infinity=False)
_scalars = st.one_of(st.none(), st.booleans(), _integers, _floats, _text)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)
_payloads = st.dictionaries(_text, _values, max_size=6)


def _digits(value: int) -> str:
    """An int's digits whatever the interpreter's int_max_str_digits."""
    return str(decimal.Decimal(value))


def _tagged(value: Any) -> list[Any]:
    if value is None:
        return ["n"]
    if isinstance(value, bool):
        return ["b", value]
    if isinstance(value, int):
        return ["i", _digits(value)]
    if isinstance(value, float):
        return ["f", repr(value)]
    if isinstance(value, str):
        return ["s", value]
    if isinstance(value, list):
        return ["a", [_tagged(item) for item in value]]
    return ["o", [[key, _tagged(item)] for key, item in value.items()]]


def _same(python: Any, tagged: list[Any]) -> bool:
    """Whether the value JavaScript read (tagged) is the value Python read."""
    tag = tagged[0]
    if python is None or isinstance(python, (bool, str)):
        return tagged == (
            ["n"] if python is None else ["b" if isinstance(python, bool) else "s", python]
        )
    if isinstance(python, int):
        if abs(python) > _SAFE:
            return tagged == ["int", _digits(python)]
        return tag == "num" and float(tagged[1]) == python
    if isinstance(python, float):
        number = float(tagged[1]) if tag == "num" else math.nan
        return number == python and math.copysign(1, number) == math.copysign(1, python)
    if isinstance(python, list):
        items = tagged[1] if tag == "a" else []
        return tag == "a" and len(items) == len(python) and all(map(_same, python, items))
    members = dict(tagged[1]) if tag == "o" else {}
    return (
        tag == "o"
        and members.keys() == python.keys()
        and all(_same(item, members[key]) for key, item in python.items())
    )


@pytest.fixture(scope="module")
def harness() -> Iterator[Harness]:
    running = Harness()
    yield running
    running.close()


def _python_format(
    kind: str, payload: dict[str, Any] | None, *, validate: bool = False
) -> str | None:
    try:
        return format_signal(kind, payload, validate=validate)
    except (ValueError, TypeError):
        return None


def _check_parse(harness: Harness, line: str, lenient: bool, unknown: bool = False) -> None:
    expected = parse_signal(line, lenient=lenient, unknown_kinds=unknown)
    found = harness.ask(op="parse", line=line, lenient=lenient, unknownKinds=unknown)["signal"]
    if expected is None:
        assert found is None, (line, found)
        return
    assert found is not None, line
    assert found["kind"] == str(expected.kind)
    assert found["unknownKind"] == isinstance(expected, UnknownKindSignal)
    assert found["isTerminal"] == expected.is_terminal
    assert found["rawLine"] == expected.raw_line
    assert _same(expected.payload, found["payload"]), (line, found["payload"])


def _nested(depth: int) -> dict[str, Any]:
    value: Any = 1
    for _ in range(depth - 1):
        value = [value]
    return {"a": value}


@pytest.mark.timeout(600)
@settings(max_examples=2500)
@given(st.sampled_from(_KINDS), _payloads)
@example("COMPLETED", {"\U0001f600": 1, "\uffff": 2, "\ue000": 3})
@example("COMPLETED", {"n": 1e21, "m": 1e-7, "z": -0.0, "o": 1.0, "t": 0.1 + 0.2, "e": 5e-324})
@example("COMPLETED", {"big": 10**MAX_INTEGER_DIGITS - 1, "too": 2**53 + 1})
@example("COMPLETED", {"over": 10**MAX_INTEGER_DIGITS})
@example("COMPLETED", _nested(MAX_NESTING_DEPTH))
@example("COMPLETED", _nested(MAX_NESTING_DEPTH + 1))
@example("COMPLETED", {"s": "a\u2028b\u2029c\x85d\x7f\x00"})
@example("COMPLETED", {"lone": "\ud800"})
def test_format_writes_python_bytes_and_parse_reads_them_back(
    harness: Harness, kind: str, payload: dict[str, Any]
) -> None:
    expected = _python_format(kind, payload)
    found = harness.ask(op="format", kind=kind, payload=_tagged(payload), validate=False)
    assert found.get("line") == expected, (payload, found)
    if expected is None:
        assert found["error"] == "not-json"
        return
    _check_parse(harness, expected, lenient=False)


_lines = st.one_of(
    st.text(max_size=30),
    st.builds(
        lambda kind, payload, junk: f"BERNSTEIN:{kind} {payload}{junk}",
        st.sampled_from([*_KINDS, "COMPLETE", "question", "", "NEW_KIND", "A1", "_X", "Ü"]),
        st.sampled_from(
            ['{"a":1}', "{}", '{"a":1e400}', '{"s":"\\ud800"}', '{"a":1 }', '{"a":[1,]}']
        )
        | st.text(max_size=12),
        st.sampled_from(["", "\n", "\r\n", " ", "\r"]),
    ),
    st.builds(
        lambda kind, payload: format_signal(kind, payload, validate=False),
        st.sampled_from(_KINDS),
        st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=4), max_size=3),
    ),
)
_padding = st.text(st.sampled_from(f"{_WHITESPACE}\ufeffx"), max_size=3)


@pytest.mark.timeout(600)
@settings(max_examples=2500)
@given(_lines, st.tuples(_padding, _padding, _padding), st.booleans(), st.booleans())
@example('BERNSTEIN:COMPLETED {"n":12345678901234567890}', ("", "", ""), False, False)
@example("BERNSTEIN:  QUESTION \u3000{}", ("\x1c\x85", "", "\u2028"), True, False)
@example("BERNSTEIN:COMPLETED", ("\ufeff", "", ""), True, False)
@example("BERNSTEIN:PROGRESS_2 {}", ("", "", ""), False, True)
@example("BERNSTEIN: NEW  ", (" ", "", ""), True, True)
def test_parse_reads_lines_as_python_does(
    harness: Harness, line: str, padding: tuple[str, str, str], lenient: bool, unknown: bool
) -> None:
    """Lenient lines get whitespace (Python's str.isspace set, and U+FEFF, which is not)
    before the line, after the prefix and after the line."""
    if lenient:
        before, inside, after = padding
        prefix = "BERNSTEIN:"
        if line.startswith(prefix):
            line = prefix + inside + line[len(prefix) :]
        line = before + line + after
    _check_parse(harness, line, lenient, unknown)


_VOCABULARY = load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")
_near_valid = st.sampled_from(_VOCABULARY.kinds).flatmap(
    lambda kind: st.tuples(
        st.just(kind.name),
        st.sampled_from(kind.examples or [{}]),
        st.dictionaries(
            st.sampled_from([*(prop.name for prop in kind.properties), "extra", "x/~y"]),
            _values
            | st.sampled_from(["", "1.1.0", "1.2.3-rc.1+b", ".sdd/plans/a.md", ".sdd/../x"])
            | st.lists(st.sampled_from(["a", "b", "", 1]), max_size=3),
            max_size=3,
        ),
        st.sets(st.sampled_from([prop.name for prop in kind.properties] or ["none"]), max_size=2),
    )
)


@pytest.mark.timeout(600)
@settings(max_examples=2500)
@given(_near_valid)
def test_validate_payload_reports_what_python_reports(
    harness: Harness, case: tuple[str, dict[str, Any], dict[str, Any], set[str]]
) -> None:
    """The same errors, in the same order: pointer, rule, message and detail."""
    kind, example, changes, dropped = case
    payload = {k: v for k, v in {**example, **changes}.items() if k not in dropped}
    expected = [[e.pointer, e.rule, e.message, e.detail] for e in validate_payload(kind, payload)]
    found = harness.ask(op="validate", kind=kind, payload=_tagged(payload))
    assert found["errors"] == expected, payload
    line = harness.ask(op="format", kind=kind, payload=_tagged(payload), validate=True)
    assert ("line" in line) == (_python_format(kind, payload, validate=True) is not None), line


_stream_lines = st.one_of(
    st.binary(max_size=12),
    st.sampled_from(
        [
            b"BERNSTEIN:COMPLETED",
            b'BERNSTEIN:FAILED {"reason":"x"}',
            b"BERNSTEIN:",
            b"BERN",
            b"BERNSTEIN:NEW_KIND",
            b'BERNSTEIN:NEW {"a":1}',
            b"BERNSTEIN:new",
        ]
    ),
    st.builds(
        lambda kind, payload: format_signal(kind, payload, validate=False).encode(),
        st.sampled_from(_KINDS),
        st.dictionaries(_text, _scalars, max_size=2),
    ),
    st.builds(lambda line: line[:-1] + b"\xff", st.just(b'BERNSTEIN:COMPLETED {"a":"x"}')),
)


@pytest.mark.timeout(600)
@settings(max_examples=1500)
@given(
    st.lists(st.tuples(_stream_lines, st.sampled_from([b"\n", b"\r\n", b"\r", b""])), max_size=8),
    st.lists(st.integers(0, 400), max_size=5),
    st.integers(1, 60),
    st.booleans(),
)
def test_stream_reading_agrees(
    harness: Harness, lines: list[tuple[bytes, bytes]], cuts: list[int], limit: int, unknown: bool
) -> None:
    """SignalScanner in both bindings: the same records (line number, kind, raw bytes) and
    the same line count, for any chunking, terminators, invalid UTF-8, line limit, and
    with or without unknown kinds."""
    data = b"".join(line + end for line, end in lines)
    points = sorted(min(cut, len(data)) for cut in cuts)
    scanner = SignalScanner(max_line_bytes=limit)
    scanner._unknown_kinds = unknown  # as read_signals(..., unknown_kinds=True) sets it
    records, at = [], 0
    for point in [*points, len(data)]:
        records += scanner.feed(data[at : max(at, point)])
        at = max(at, point)
    records += scanner.close()
    expected = [[r.line_no, str(r.signal.kind), r.raw.hex()] for r in records]
    found = harness.ask(op="read", hex=data.hex(), cuts=points, limit=limit, unknownKinds=unknown)
    assert found["records"] == expected, data
    assert found["lines"] == scanner.lines


@settings(max_examples=500)
@given(
    st.one_of(
        st.builds(
            lambda answer, to: {"answer": answer, "in_reply_to": to},
            _text | st.integers(),
            st.none() | _text,
        ),
        st.dictionaries(st.sampled_from(["answer", "in_reply_to", "x"]), _scalars, max_size=3),
    ).map(lambda reply: json.dumps(reply, ensure_ascii=False)),
    st.sampled_from(["", "\n", "\r\n", " "]),
)
def test_parse_reply_agrees(harness: Harness, text: str, end: str) -> None:
    expected = parse_reply(text + end)
    found = harness.ask(op="reply", line=text + end)["reply"]
    assert (found is None) == (expected is None), (text, found)
    if expected is not None:
        assert _same(dict(expected), found)


_HOSTILE_SHAPES = [
    ('BERNSTEIN:COMPLETED {"k":', '{"a":', "1}", False),
    ('BERNSTEIN:COMPLETED {"k":', "[", "1}", False),
    ('BERNSTEIN:COMPLETED {"k":"', "a", '"}', False),
    ('BERNSTEIN:COMPLETED {"k":"', "a[", '"}', False),
    ('BERNSTEIN:COMPLETED {"k":[', '"\\ud83d\\ude00",', "1]}", False),
    ('BERNSTEIN:COMPLETED {"k":[', "12345678901234567,", "1]}", False),
    ('BERNSTEIN:COMPLETED {"k":"', "\\u2028", '"}', False),
    ("", " ", "BERNSTEIN:COMPLETED {}", True),
    ("BERNSTEIN:COMPLETED", " ", "x", True),
    ("BERNSTEIN:COMPLETED ", "1", "", False),
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("head", "unit", "tail", "lenient"), _HOSTILE_SHAPES)
def test_parsing_time_grows_linearly(
    harness: Harness, head: str, unit: str, tail: str, lenient: bool
) -> None:
    """Hostile shapes (nesting, escapes, digit and whitespace runs) cost linear time in Node,
    and Node reads them as Python does."""
    _check_parse(harness, head + unit * 50 + tail, lenient)

    def make(size: int) -> Any:
        return lambda: harness.ask(
            op="time", head=head, unit=unit, count=size, tail=tail, lenient=lenient
        )

    assert_linear(make, 20_000, what=f"parseSignal on {unit!r} x n")


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("unit", "distinct"), [("a", True), ("a", False), ("", False)])
def test_validation_time_grows_linearly(harness: Harness, unit: str, distinct: bool) -> None:
    """uniqueItems and per-item checks over n options cost linear time in Node. The size
    keeps the errors of n empty options (one object each) in V8's young generation, where
    allocation is linear; past it, building that many objects grows ~60x for 10x in V8
    with or without a validator."""

    def make(size: int) -> Any:
        return lambda: harness.ask(
            op="validate-shape",
            kind="QUESTION",
            base={"question": "x"},
            field="options",
            unit=unit,
            count=size,
            distinct=distinct,
        )

    assert_linear(make, 2_000, what=f"validatePayload on {_size_note(unit, distinct)}")


def _size_note(unit: str, distinct: bool) -> str:
    return f"n {'distinct' if distinct else 'equal'} options {unit!r}"
