"""The canonical form (spec/canonical-form.md): RFC 8785's vectors, a reference, and node.

The reference below is written from the spec, apart from the binding: its
digits come from the double's exact decimal value (not ``repr``), its strings are
escaped character by character and its keys sorted by UTF-16 code units
computed by hand. Node's ``JSON.stringify`` and ``Array.prototype.sort`` are the
second oracle, for the number and key-order rules and for whole objects, in one
long-running ``node`` process.
"""

from __future__ import annotations

import decimal
import json
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bernstein_signals import SignalKind, format_reply, format_signal, parse_signal
from bernstein_signals._canonical_json import dump_canonical, number_text
from bernstein_signals.limits import MAX_INTEGER_DIGITS
from linear_support import assert_linear
from node_oracle_support import NodeOracle, running_oracle

_ORACLE = Path(__file__).with_name("canonical_oracle.js")
_SAFE_INTEGER = 2**53 - 1

# -- the reference, from the spec ------------------------------------------------------

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n"}
_SHORT_ESCAPES |= {"\f": "\\f", "\r": "\\r"}
_LINE_SAFETY = {"\x85", "\u2028", "\u2029"}


def _reference_string(text: str) -> str:
    out = []
    for char in text:
        if char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        elif ord(char) < 0x20 or char in _LINE_SAFETY:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _shortest(magnitude: float) -> tuple[str, int]:
    """ECMAScript's s, n for a positive double: the fewest digits s with s x 10^(n-k) read back
    as it (closest to it when two do), from its exact decimal value.
    """
    with decimal.localcontext() as context:
        context.prec = 1100
        exact = decimal.Decimal(magnitude)
        for count in range(1, 18):
            power = exact.adjusted() - count + 1
            low = int(exact.scaleb(-power).to_integral_value(decimal.ROUND_FLOOR))
            fits = [s for s in (low, low + 1) if float(f"{s}e{power}") == magnitude]
            if fits:
                best = min(
                    fits, key=lambda s: (abs(decimal.Decimal(s).scaleb(power) - exact), s % 2)
                )
                return str(best).rstrip("0"), len(str(best)) + power
    raise AssertionError(magnitude)


def _reference_number(value: float) -> str:
    """ECMAScript Number::toString (ECMA-262 §6.1.6.1.20), step by step."""
    if value == 0:
        return "0"
    digits, n = _shortest(abs(value))
    k = len(digits)
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        fraction = "." + digits[1:] if k > 1 else ""
        text = f"{digits[0]}{fraction}e{'+' if n - 1 > 0 else '-'}{abs(n - 1)}"
    return ("-" if value < 0 else "") + text


def _code_units(key: str) -> list[int]:
    units: list[int] = []
    for char in key:
        point = ord(char)
        if point > 0xFFFF:
            point -= 0x10000
            units += [0xD800 + (point >> 10), 0xDC00 + (point & 0x3FF)]
        else:
            units.append(point)
    return units


def _reference(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _reference_number(value)
    if isinstance(value, str):
        return _reference_string(value)
    if isinstance(value, list):
        return "[" + ",".join(map(_reference, value)) + "]"
    keys = sorted(value, key=_code_units)
    return "{" + ",".join(f"{_reference_string(k)}:{_reference(value[k])}" for k in keys) + "}"


# -- node ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def node() -> Iterator[NodeOracle]:
    yield from running_oracle(_ORACLE)


def _bits(value: float) -> str:
    return struct.pack(">d", value).hex()


# -- RFC 8785's own vectors ------------------------------------------------------------

# Appendix B: IEEE 754 bits -> the JCS text.
_RFC_NUMBERS = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("bits", "expected"), _RFC_NUMBERS)
def test_rfc_8785_number_table(bits: str, expected: str) -> None:
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    assert number_text(value) == expected
    assert dump_canonical({"n": value}) == f'{{"n":{expected}}}'
    assert _reference_number(value) == expected


@pytest.mark.parametrize("bits", ["7fffffffffffffff", "7ff0000000000000", "fff0000000000000"])
def test_nan_and_infinities_are_refused(bits: str) -> None:
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    with pytest.raises(ValueError, match="not JSON"):
        dump_canonical({"n": value})
    with pytest.raises(ValueError, match="not JSON"):
        dump_canonical({"n": [value, 1.0]})  # the path that rewrites numbers refuses it too


def test_rfc_8785_key_order_example() -> None:
    """§3.2.3: the astral U+1F600 sorts before U+FB33 as UTF-16, after it as code points."""
    value = {
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\U0001f600": "Emoji: Grinning Face",
        "\x80": "Control",
        "\xf6": "Latin Small Letter O With Diaeresis",
    }
    assert dump_canonical(value) == (
        '{"\\r":"Carriage Return","1":"One","\x80":"Control",'
        '"\xf6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",'
        '"\U0001f600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}'
    )


def test_rfc_8785_main_example() -> None:
    """§3.2.2's input, read as JSON text by the binding's reader, then written."""
    text = (
        '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],'
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",'
        ' "literals": [null, true, false]}'
    )
    assert dump_canonical(json.loads(text)) == (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )


# -- the protocol's own rules ----------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1.0, "1"),
        (-2.0, "-2"),
        (1e15, "1000000000000000"),
        (1e16, "10000000000000000"),
        (1.5e20, "150000000000000000000"),
        (1e-05, "0.00001"),
        (2.5e-06, "0.0000025"),
        (1e-07, "1e-7"),
        (1.5e-300, "1.5e-300"),
        (-0.0, "0"),
        (2.5, "2.5"),
        (0.001, "0.001"),
        (2.0**53 - 1, "9007199254740991"),
        (2.0**53 + 2, "9007199254740994"),
        (1e16 - 2, "9999999999999998"),
        (2**53 + 1, "9007199254740993"),
        (10**21, "1" + "0" * 21),
        (-(10**30), "-1" + "0" * 30),
        (-0, "0"),
    ],
)
def test_the_spec_table_of_changed_and_kept_cases(value: float, expected: str) -> None:
    """Every row of the spec's table of changes, and integers kept exact past 2^53."""
    assert dump_canonical({"n": value}) == f'{{"n":{expected}}}'


def test_integers_up_to_the_digit_limit_whatever_the_interpreter_setting() -> None:
    big = 10 ** (MAX_INTEGER_DIGITS - 1)
    setting = sys.get_int_max_str_digits()
    try:
        for limit in (0, 640, MAX_INTEGER_DIGITS):
            sys.set_int_max_str_digits(limit)
            assert dump_canonical({"b": -big, "f": 1.0, "\U0001f600": 0, "\ufb33": 0}) == (
                '{"b":-1' + "0" * (MAX_INTEGER_DIGITS - 1) + ',"f":1,"\U0001f600":0,"\ufb33":0}'
            )
            with pytest.raises(ValueError, match="digits"):
                dump_canonical({"b": big * 10, "f": 1.0})
    finally:
        sys.set_int_max_str_digits(setting)


def test_line_safety_escapes_are_kept_on_every_path() -> None:
    for extra in ({}, {"f": 1.0}, {"\U0001f600": 1}):
        text = dump_canonical({"s": "a\x85b\u2028c\u2029d", **extra})
        assert '"a\\u0085b\\u2028c\\u2029d"' in text
        assert len(text.splitlines()) == 1
        with pytest.raises(ValueError, match="lone surrogate"):
            dump_canonical({"s": "\ud800", **extra})


def test_format_signal_and_format_reply_write_the_canonical_form() -> None:
    line = format_signal(
        SignalKind.COMPLETED, {"z": 1.0, "\ufb33": 1e-7, "\U0001f600": -0.0}, validate=False
    )
    assert line == 'BERNSTEIN:COMPLETED {"z":1,"\U0001f600":0,"\ufb33":1e-7}'
    parsed = parse_signal(line)
    assert parsed is not None
    assert format_signal(parsed.kind, parsed.payload, validate=False) == line
    assert format_reply("yes", in_reply_to="q1") == '{"answer":"yes","in_reply_to":"q1"}'


# -- properties --------------------------------------------------------------------------

_TEXT = st.text(
    st.one_of(
        st.characters(exclude_categories=["Cs"]),
        st.sampled_from(["\x85", "\u2028", "\u2029", "\ufb33", "\U0001f600", "\x00", "\x1f"]),
    ),
    max_size=6,
)
_FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-(2**60), 2**60).map(float),
    st.sampled_from([1e16, 1e21, 1e-7, 1e-6, 1e-5, 1e-4, -0.0, 5e-324, 1e20, 9.999e20]),
    # Integral on either side of 2^53 (ints below it) and of 1e16 (where repr turns to e+).
    st.sampled_from([2.0**53 - 1, 2.0**53, -(2.0**53), 2.0**53 + 2, 1e16 - 2, 1e16 + 2]),
)


def _json_values(integers: st.SearchStrategy[int]) -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), integers, _FLOATS, _TEXT)
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=5)
        ),
        max_leaves=20,
    )


_ANY_INTEGER = st.one_of(st.integers(), st.integers(-(10**40), 10**40))
_SAFE_INTEGERS = st.integers(-_SAFE_INTEGER, _SAFE_INTEGER)


@settings(max_examples=1000)
@given(st.dictionaries(_TEXT, _json_values(_ANY_INTEGER), max_size=6))
@example({"": 2.0**-24, "\U0001f600": 1, "\ufb33": [1.0, {"\U00010000": 0, "\uffff": -0.0}]})
def test_the_binding_equals_the_reference(value: dict[str, Any]) -> None:
    text = dump_canonical(value)
    assert text == _reference(value)
    assert dump_canonical(json.loads(text)) == text  # read back and written again: the same


@settings(max_examples=1000)
@given(st.lists(_FLOATS, min_size=1, max_size=50))
def test_numbers_equal_node(node: NodeOracle, values: list[float]) -> None:
    texts = node.ask({"doubles": [_bits(value) for value in values]})["texts"]
    assert [number_text(value) for value in values] == texts


@settings(max_examples=500)
@given(st.lists(_TEXT, min_size=1, max_size=12, unique=True))
def test_key_order_equals_node(node: NodeOracle, keys: list[str]) -> None:
    text = dump_canonical(dict.fromkeys(keys, 0))
    assert list(json.loads(text)) == node.ask({"keys": keys})["sorted"]


@settings(max_examples=600)
@given(st.dictionaries(_TEXT, _json_values(_SAFE_INTEGERS), max_size=6))
def test_whole_objects_equal_node(node: NodeOracle, value: dict[str, Any]) -> None:
    """Node's RFC 8785 canonicalisation of the same value, with the line-safety escapes."""
    sent = json.dumps(value, allow_nan=False)
    assert dump_canonical(value) == node.ask({"json": sent})["canonical"]


# -- cost ------------------------------------------------------------------------------


def _floats_payload(size: int) -> dict[str, Any]:
    return {
        "v": [float(index) for index in range(size)],
        "w": [index * 1e-7 for index in range(size)],
    }


def _astral_keys_payload(size: int) -> dict[str, Any]:
    return {f"\U0001f600{index}\ufb33": {"\ufb33": index} for index in range(size)}


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("make", "what"),
    [(_floats_payload, "floats rewritten"), (_astral_keys_payload, "keys in UTF-16 order")],
)
def test_the_python_encoder_paths_grow_linearly(make: Any, what: str) -> None:
    """The paths json's C encoder cannot take stay linear (keys sort within one object)."""

    def run(size: int) -> Any:
        payload = make(size)
        return lambda: dump_canonical(payload)

    assert_linear(run, 2000, what=f"dump_canonical, {what}")
