"""format_signal then parse_signal gives back the kind and payload, on exactly one line."""

from __future__ import annotations

import decimal

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
INTEGRAL_DOUBLE_DIGITS_BELOW = 1e21
"""spec/canonical-form.md rule 5: an integral double below 1e21 is written as plain digits."""


def as_read_back(value: object) -> object:
    """``value`` as a reader gives it back: an integral float written as digits is an int."""
    if isinstance(value, dict):
        return {key: as_read_back(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_read_back(item) for item in value]
    if (
        isinstance(value, float)
        and value.is_integer()
        and abs(value) < INTEGRAL_DOUBLE_DIGITS_BELOW
    ):
        # Its shortest digits, padded with zeros: past 2^53 not always the double's exact
        # value (7.159138896084293e16 is written 71591388960842930), but the same double.
        read_back = int(decimal.Decimal(repr(value)))
        assert float(read_back) == value
        return read_back
    return value


# Every character str.splitlines() splits at; bytes.splitlines() splits at "\n" and "\r".
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


@example(SignalKind.COMPLETED, {"a": "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029\x7f\x00/é😀"})
@example(SignalKind.QUESTION, {"\u2028": ["\x85"], "": {"": None}})
@example(SignalKind.BLOCKED, {"": 7.159138896084293e16})
@example(SignalKind.FAILED, {"n": [-0.0, 1e308, 5e-324, 2**64, -(2**63), 1.0, 1e20, 1e21]})
@settings(max_examples=1000)
@given(st.sampled_from(SignalKind), st.none() | PAYLOADS)
def test_formatted_signals_parse_back(kind: SignalKind, payload: dict[str, object] | None) -> None:
    line = format_signal(kind, payload, validate=False)
    assert not any(char in line for char in LINE_BREAKS)
    assert len(line.encode("utf-8").splitlines()) == 1
    signal = parse_signal(line)
    assert signal is not None
    assert signal.kind == kind
    assert typed(signal.payload) == typed(as_read_back({} if payload is None else payload))
    assert signal.raw_line == line
    assert parse_signal(line + "\n") == signal
