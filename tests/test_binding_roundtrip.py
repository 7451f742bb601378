"""format_signal then parse_signal gives back the kind and payload, on exactly one line."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from _grammar_oracle import typed
from bernstein_signals import SignalKind, format_signal, parse_signal

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=12,
)
PAYLOADS = st.dictionaries(st.text(), JSON, max_size=6)
# Every character str.splitlines() splits at; bytes.splitlines() splits at "\n" and "\r".
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


@example(SignalKind.COMPLETED, {"a": "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029\x7f\x00/é😀"})
@example(SignalKind.QUESTION, {"\u2028": ["\x85"], "": {"": None}})
@example(SignalKind.FAILED, {"n": [-0.0, 1e308, 5e-324, 2**64, -(2**63)]})
@settings(max_examples=1000)
@given(st.sampled_from(SignalKind), st.none() | PAYLOADS)
def test_formatted_signals_parse_back(kind: SignalKind, payload: dict[str, object] | None) -> None:
    line = format_signal(kind, payload, validate=False)
    assert not any(char in line for char in LINE_BREAKS)
    assert len(line.encode("utf-8").splitlines()) == 1
    signal = parse_signal(line)
    assert signal is not None
    assert signal.kind == kind
    assert typed(signal.payload) == typed({} if payload is None else payload)
    assert signal.raw_line == line
    assert parse_signal(line + "\n") == signal
