"""Strict parse_signal against the grammar oracle (Lark LALR + documented limits)."""

from __future__ import annotations

import string

from hypothesis import example, given, settings
from hypothesis import strategies as st

from _grammar_oracle import oracle, typed
from bernstein_signals import MAX_NESTING_DEPTH, SignalKind, parse_signal

KINDS = [kind.value for kind in SignalKind]
PREFIX = "BERNSTEIN:"

# -- grammar-shaped JSON text, including what the limits refuse ---------------

WS = st.sampled_from(["", "", "", " ", "\t", "  ", " \t "])
ESCAPES = st.sampled_from(
    [
        '\\"',
        "\\\\",
        "\\/",
        "\\b",
        "\\f",
        "\\n",
        "\\r",
        "\\t",
        "\\u00e9",
        "\\u0000",
        "\\u001F",
        "\\u2028",
        "\\ud83d\\ude00",
        "\\uD834\\uDD1E",
        "\\ud800",
        "\\udc00",
        "\\uDBFF",
        "\\ud800\\u0041",
        "\\udc00\\ud800",
        "\\\\ud800",
    ]
)
RAW = st.text(
    st.characters(exclude_characters='"\\', exclude_categories=["Cc", "Cs"])
    | st.sampled_from(["\x7f", "\x85", "\u2028", "é", "😀", "\ufeff", "\t", "\ud800", "\x00"]),
    max_size=4,
)
STRING = st.builds(lambda a, e, b: f'"{a}{e}{b}"', RAW, ESCAPES | st.just(""), RAW)
NUMBER = st.builds(
    lambda whole, fraction, exponent: f"{whole}{fraction}{exponent}",
    st.integers(-(10**20), 10**20),
    st.sampled_from(["", "", ".5", ".0", ".125"]),
    st.sampled_from(["", "", "e5", "E+2", "e-7", "e308", "e309", "E-400", "e400"]),
) | st.sampled_from(
    [
        "-0",
        "-0.0",
        "1.7976931348623157e308",
        "NaN",
        "Infinity",
        "-Infinity",
        "01",
        "+1",
        ".5",
        "5.",
        "1e",
        "0x10",
        "-",
    ]
)
SCALAR = NUMBER | STRING | st.sampled_from(["true", "false", "null", "True", "nul"])


def _join(open_: str, close: str, items: list[str], ws: list[str]) -> str:
    pad = ws + [""] * 4
    body = (pad[0] + "," + pad[1]).join(items)
    return open_ + pad[2] + body + pad[3] + close


@st.composite
def _container(draw: st.DrawFn, children: st.SearchStrategy[str]) -> str:
    ws = draw(st.lists(WS, min_size=4, max_size=4))
    if draw(st.booleans()):
        return _join("[", "]", draw(st.lists(children, max_size=4)), ws)
    members = draw(st.lists(st.tuples(STRING, WS, WS, children), max_size=3))
    items = [f"{key}{a}:{b}{value}" for key, a, b, value in members]
    return _join("{", "}", items, ws)


VALUE = st.recursive(SCALAR, _container, max_leaves=6)


@st.composite
def objects(draw: st.DrawFn) -> str:
    ws = draw(st.lists(WS, min_size=4, max_size=4))
    members = draw(st.lists(st.tuples(STRING, WS, WS, VALUE), max_size=4))
    return _join("{", "}", [f"{k}{a}:{b}{v}" for k, a, b, v in members], ws)


KIND = st.sampled_from(KINDS) | st.sampled_from(
    ["UNKNOWN", "COMPLETEDX", "Completed", "PLAN-READY", "A1_"]
)
TERMINATOR = st.sampled_from(["", "", "", "\n", "\r\n"])


@st.composite
def valid_lines(draw: st.DrawFn) -> str:
    payload = draw(st.none() | objects())
    body = PREFIX + draw(KIND) + ("" if payload is None else " " + payload)
    return body + draw(TERMINATOR)


INSERTS = st.sampled_from(
    [
        "\r",
        "\n",
        "\t",
        " ",
        "\x00",
        "\x1f",
        "\x0b",
        "\x0c",
        "\x85",
        "\u2028",
        "\u2029",
        "é",
        "😀",
        "\ud800",
        "\ufeff",
        '"',
        "\\",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "x",
        "BERNSTEIN:",
        "\r\n",
        "NaN",
    ]
)


@st.composite
def mutated_lines(draw: st.DrawFn) -> str:
    line = draw(valid_lines())
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(line)))
        operation = draw(
            st.sampled_from(["insert", "delete", "truncate", "case", "space", "append"])
        )
        if operation == "insert":
            line = line[:at] + draw(INSERTS) + line[at:]
        elif operation == "delete":
            line = line[:at] + line[at + draw(st.integers(1, 3)) :]
        elif operation == "truncate":
            line = line[:at]
        elif operation == "case":
            line = line[:at] + line[at:].swapcase()
        elif operation == "space":
            line = line.replace(" ", draw(st.sampled_from(["", "  ", "\t", "\u00a0"])), 1)
        else:
            line += draw(st.sampled_from([" ", "\t", "x", "\n", "\r", "\r\n", "\n\n", "}", " {}"]))
    return line


RANDOM = (
    st.text()
    | st.text(alphabet=string.printable).map(lambda s: PREFIX + s)
    | st.text().map(lambda s: PREFIX + s)
)


def _agree(line: str) -> None:
    expected = oracle(line)
    actual = parse_signal(line)
    if expected is None:
        assert actual is None, (line, actual)
        return
    assert actual is not None, (line, expected)
    kind, payload = expected
    assert actual.kind == kind
    assert typed(actual.payload) == typed(payload)
    assert (
        actual.raw_line == line.removesuffix("\n").removesuffix("\r")
        if line.endswith("\n")
        else line
    )


def _nested(depth: int) -> str:
    return PREFIX + "COMPLETED " + "[" * 0 + '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)


@example('BERNSTEIN:COMPLETED {"a":' + "9" * 4300 + "}")
@example('BERNSTEIN:COMPLETED {"a":' + "9" * 4301 + "}")
@example('BERNSTEIN:COMPLETED {"a":-' + "9" * 4301 + "}")
@example('BERNSTEIN:COMPLETED {"a":' + "1" * 5000 + ".5}")
@example(_nested(MAX_NESTING_DEPTH))
@example(_nested(MAX_NESTING_DEPTH + 1))
@example('BERNSTEIN:COMPLETED {"a":[' + "[" * 200 + "]" * 200 + "]}")
@example('BERNSTEIN:COMPLETED {"a":"' + "[" * 70 + '"}')
@example("BERNSTEIN:COMPLETED {}\r")
@example("BERNSTEIN:COMPLETED {}\n\n")
@example('BERNSTEIN:COMPLETED {"a":1}\r\n')
@example('BERNSTEIN:COMPLETED {"a":\r1}')
@example('BERNSTEIN:COMPLETED {"a":"\\ud800"}')
# Found by Hypothesis: the member holding the lone surrogate is overwritten by a duplicate.
@example('BERNSTEIN:BLOCKED {"":[{"\\ud800":0}],"":""}')
@example('BERNSTEIN:COMPLETED {"a":"\\\\ud800"}')
@example('BERNSTEIN:COMPLETED {"\\udc00":1}')
@example('BERNSTEIN:COMPLETED {"a":"\ud800"}')
@example('BERNSTEIN:COMPLETED {"a":1e400}')
@example('BERNSTEIN:COMPLETED {"a":NaN}')
@example('BERNSTEIN:COMPLETED {"a":-Infinity}')
@example('BERNSTEIN:COMPLETED {"a":"\t"}')
@example('BERNSTEIN:COMPLETED {"a":"\x7f\x85\u2028"}')
@example('BERNSTEIN:COMPLETED {"a":1,"a":2}')
@example("BERNSTEIN:COMPLETED  {}")
@example("BERNSTEIN:COMPLETED\t{}")
@example("BERNSTEIN:COMPLETED {} ")
@example("BERNSTEIN:COMPLETED{}")
@example("BERNSTEIN:COMPLETED ")
@example("\ufeffBERNSTEIN:COMPLETED")
@example("BERNSTEIN:COMPLETED\u00a0{}")
@example("BERNSTEIN:COMPLETED { }")
@example("BERNSTEIN:COMPLETED {\t}")
@example("BERNSTEIN:COMPLETED [1]")
@example('BERNSTEIN:COMPLETED "x"')
@example("BERNSTEIN:COMPLETED null")
@example('BERNSTEIN:QUESTION {"question":""}')
@settings(max_examples=2000)
@given(valid_lines())
def test_grammatical_lines_agree_with_the_oracle(line: str) -> None:
    _agree(line)


@settings(max_examples=2500)
@given(mutated_lines())
def test_mutated_lines_agree_with_the_oracle(line: str) -> None:
    _agree(line)


@settings(max_examples=1000)
@given(RANDOM)
def test_random_text_agrees_with_the_oracle(line: str) -> None:
    _agree(line)
