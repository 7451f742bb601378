"""ECMA-262 patterns translated for Python ``re``: each construct, each refusal, and node as oracle.

The oracle is ``ecma_oracle.js`` in one long-running ``node`` process: it answers
``new RegExp(pattern, "u").test(input)``, as Ajv compiles a JSON Schema pattern.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator.ecma_regex import (
    MAX_GROUP_DEPTH,
    MAX_REPEAT_COUNT,
    EcmaPatternError,
    translate,
)
from bernstein_signals_toolkit.generator.keywords import EXTENSION_PREFIX
from linear_support import assert_linear
from node_oracle_support import NodeOracle, running_oracle

_ORACLE = Path(__file__).with_name("ecma_oracle.js")


@pytest.fixture(scope="module")
def node() -> Iterator[NodeOracle]:
    yield from running_oracle(_ORACLE)


def _node_answers(node: NodeOracle, pattern: str, inputs: list[str]) -> list[bool] | str:
    """node's answers for ``inputs``, or its SyntaxError message for ``pattern``."""
    answer = node.ask({"pattern": pattern, "inputs": inputs})
    if "error" in answer:
        return str(answer["error"])
    results: list[bool] = answer["results"]
    return results


def _python_answers(pattern: str, inputs: list[str]) -> list[bool]:
    compiled = re.compile(translate(pattern))
    return [compiled.search(text) is not None for text in inputs]


def _as_javascript(text: str) -> str:
    """``text`` as node reads it back: an adjacent lead and trail surrogate are one character."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


# ---------------------------------------------------------------------------
# Each construct: what it matches and what it does not (no oracle needed)
# ---------------------------------------------------------------------------

_MATCHES = [
    # The cases: ASCII \d and \w, ECMA's \s, $ at the very end only.
    (r"^\d$", ["0", "9"], ["\u07c0", "\u0660", "a", "0\n"]),
    (r"^\w$", ["a", "Z", "_", "5"], ["é", "\u07c0", "-"]),
    (r"^\s$", [" ", "\ufeff", "\u00a0", "\u3000", "\u2028", "\n", "\x0b"], ["\u180e", "\u200b"]),
    (r"^[a-z]+$", ["main"], ["main\n", "Main", ""]),
    (r"^\D\W\S$", ["\u0660é\u200b"], ["0é ", "a_ "]),
    (r"^.$", ["a", "\U0001f600", "\x85"], ["\n", "\r", "\u2028", "\u2029", "ab"]),
    (r"\bfoo\b", ["foo", "a foo.", "éfooé"], ["afoo", "foo_"]),
    (r"\Bfoo", ["afoo", "_foo"], ["foo", "éfoo"]),
    (r"^a{2}$", ["aa"], ["a", "aaa"]),
    (r"^a{2,}$", ["aa", "aaaa"], ["a"]),
    (r"^a{1,2}?b$", ["ab", "aab"], ["aaab", "b"]),
    (r"^(?:ab|c)*$", ["", "abc", "cab"], ["a", "abb"]),
    (r"^(a)(?=b)", ["ab"], ["ac"]),
    (r"^(?!a)\w", ["ba"], ["ab"]),
    (r"^[^a-c\d]$", ["d", "\n", "é"], ["a", "c", "5"]),
    (r"^[\d-]$", ["-", "5"], ["a"]),
    (r"^[a-b-c]$", ["a", "-", "c"], ["d"]),
    (r"^[\b]$", ["\x08"], ["b"]),
    (r"^[^\D]$", ["7"], ["a"]),
    (r"^[]$", [], ["", "a"]),
    (r"^[^]$", ["\n", "a", "\U0010ffff"], ["", "ab"]),
    (r"^\u{1F600}\uD83D\uDE00$", ["\U0001f600\U0001f600"], ["\U0001f600"]),
    (r"^[\u{1F600}-\u{1F64F}]$", ["\U0001f610"], ["\U0001f650", "\ud83d"]),
    (r"^\x41\u0042\cC\0\t\n\v\f\r$", ["AB\x03\x00\t\n\x0b\x0c\r"], ["AB"]),
    (r"^\^\$\\\.\*\+\?\(\)\[\]\{\}\|\/$", ["^$\\.*+?()[]{}|/"], []),
    ("^\U0001f600$", ["\U0001f600"], []),
    ("^\ud83d\ude00$", ["\U0001f600"], []),  # a literal pair in the source is one code point
    (r"^\uD83D$", ["\ud83d"], ["\U0001f600"]),
    (r"a|", ["", "b"], []),
    (r"^(|a)$", ["", "a"], ["b"]),
    ("", ["", "x"], []),
    (r"^[(){}|*+?.^$]+$", ["(){}|*+?.^$"], ["a"]),
    (r"^[\-\]\\]+$", ["-]\\"], ["a"]),
    ("^a{0}$", [""], ["a"]),
    ("^/$", ["/"], []),
]


@pytest.mark.parametrize(("pattern", "matching", "other"), _MATCHES)
def test_construct(pattern: str, matching: list[str], other: list[str]) -> None:
    compiled = re.compile(translate(pattern))
    for text in matching:
        assert compiled.search(text) is not None, (pattern, text)
    for text in other:
        assert compiled.search(text) is None, (pattern, text)


_INVALID = [
    ("{", 0, "lone '{'"),
    ("a}", 1, "lone '}'"),
    ("]", 0, "lone ']'"),
    ("a{,3}", 1, "incomplete quantifier"),
    ("a{2", 1, "incomplete quantifier"),
    ("a{x}", 1, "incomplete quantifier"),
    ("a{3,2}", 1, "out of order"),
    ("*a", 0, "nothing to repeat"),
    ("a|+", 2, "nothing to repeat"),
    ("a**", 2, "quantifier follows a quantifier"),
    ("a*+", 2, "quantifier follows a quantifier"),  # Python's possessive quantifier
    ("a{2}{3}", 4, "quantifier follows a quantifier"),
    ("^*", 1, "assertion cannot be quantified"),
    ("$?", 1, "assertion cannot be quantified"),
    (r"\b+", 2, "assertion cannot be quantified"),
    ("(?=a)*", 5, "assertion cannot be quantified"),
    ("(?!a){2}", 5, "assertion cannot be quantified"),
    ("(a", 0, "unterminated group"),
    ("a)", 1, "unmatched ')'"),
    ("[a", 0, "unterminated character class"),
    ("[z-a]", 1, "range out of order"),
    (r"[\d-z]", 1, "class escape cannot bound a range"),
    (r"[a-\w]", 1, "class escape cannot bound a range"),
    ("\\", 0, "at the end of the pattern"),
    ("[\\", 1, "at the end of the pattern"),
    # Python-only syntax, and escapes the u flag does not allow.
    ("(?P<name>a)", 0, "invalid group"),
    ("(?P=name)", 0, "invalid group"),
    ("(?i)a", 0, "invalid group"),
    ("(?i:a)", 0, "invalid group"),
    ("(?#comment)", 0, "invalid group"),
    ("(?>a)", 0, "invalid group"),
    (r"\A", 0, r"invalid escape \A"),
    (r"\Z", 0, r"invalid escape \Z"),
    (r"\z", 0, r"invalid escape \z"),
    (r"\N{DIGIT ONE}", 0, r"invalid escape \N"),
    (r"\a", 0, r"invalid escape \a"),
    (r"\e", 0, r"invalid escape \e"),
    (r"\-", 0, r"invalid escape \-"),
    (r"\_", 0, r"invalid escape \_"),
    (r"\U0001F600", 0, r"invalid escape \U"),
    (r"[\B]", 1, r"invalid escape \B"),
    (r"[\1]", 1, r"invalid escape \1"),
    (r"[\k]", 1, r"invalid escape \k"),
    (r"\c1", 0, r"\c must be followed by an ASCII letter"),
    (r"[\c_]", 1, r"\c must be followed by an ASCII letter"),
    (r"\01", 0, r"\0 followed by a digit"),
    (r"[\00]", 1, r"\0 followed by a digit"),
    (r"\x4", 0, r"\x must be followed by two hex digits"),
    (r"\u12", 0, r"\u must be followed by four hex digits"),
    (r"\u{}", 0, r"\u{ needs hex digits"),
    (r"\u{61", 0, r"\u{ needs hex digits"),
    (r"\u{110000}", 0, "above 10FFFF"),
    (r"\u{00000000000000110000}", 0, "above 10FFFF"),
]


@pytest.mark.parametrize(("pattern", "position", "reason"), _INVALID)
def test_invalid_pattern_refused(pattern: str, position: int, reason: str) -> None:
    with pytest.raises(EcmaPatternError) as caught:
        translate(pattern)
    error = caught.value
    assert reason in error.reason
    assert error.position == position
    assert not error.unsupported
    assert "\n" not in str(error)
    assert str(error).endswith(f"at offset {position} of the pattern")


_UNSUPPORTED = [
    ("(?<=a)b", 0, "lookbehind"),
    ("x(?<!a)b", 1, "lookbehind"),
    ("(?<name>a)", 0, "named groups"),
    (r"(a)\1", 3, "backreferences"),
    (r"\k<name>", 0, "named backreferences"),
    (r"\p{L}", 0, "property escapes"),
    (r"[\P{Lu}]", 1, "property escapes"),
    (f"a{{{MAX_REPEAT_COUNT + 1}}}", 1, "repetition count"),
    ("a{0," + "9" * 5000 + "}", 1, "repetition count"),
    ("(" * (MAX_GROUP_DEPTH + 1) + ")" * (MAX_GROUP_DEPTH + 1), MAX_GROUP_DEPTH, "nested deeper"),
]


@pytest.mark.parametrize(("pattern", "position", "reason"), _UNSUPPORTED)
def test_untranslatable_pattern_refused(pattern: str, position: int, reason: str) -> None:
    with pytest.raises(EcmaPatternError) as caught:
        translate(pattern)
    assert reason in caught.value.reason
    assert caught.value.position == position
    assert caught.value.unsupported


def test_deepest_groups_and_largest_count_translate() -> None:
    deep = "(" * MAX_GROUP_DEPTH + "a" + ")" * MAX_GROUP_DEPTH
    assert re.search(translate(deep), "a") is not None
    assert re.search(translate(f"^a{{0,{MAX_REPEAT_COUNT}}}$"), "aaa") is not None


def test_error_message_is_one_line_for_any_character() -> None:
    with pytest.raises(EcmaPatternError) as caught:
        translate("\\\u2028")
    assert str(caught.value).splitlines() == [str(caught.value)]


def test_translate_is_linear() -> None:
    unit = r"(?:[a-z\d\s]+?|\u{1F600}.){1,3}\b(?=x)|"

    def make(size: int) -> Callable[[], object]:
        pattern = unit * size + "(" * 50 + "a" + ")" * 50
        return lambda: translate(pattern)

    assert_linear(make, 300, what="translate")


_SCHEMA_DIR = Path(__file__).resolve().parents[3] / "schema"
_PATH_GUARD = r"(?![^\n]*\n)"


def _schema_patterns(node: object) -> Iterator[str]:
    """Every ``pattern`` value and ``patternProperties`` key in a schema document.

    Extension keywords hold no schema (``x-bernstein-message`` maps ``pattern`` to a text).
    """
    if isinstance(node, dict):
        for key, value in node.items():
            if key.startswith(EXTENSION_PREFIX):
                continue
            if key == "pattern" and isinstance(value, str):
                yield value
            elif key == "patternProperties" and isinstance(value, dict):
                yield from value
                yield from _schema_patterns(list(value.values()))
            else:
                yield from _schema_patterns(value)
    elif isinstance(node, list):
        for item in node:
            yield from _schema_patterns(item)


def test_schema_patterns_translate_and_need_no_newline_guard(node: NodeOracle) -> None:
    """The vocabulary's own patterns agree with node, without the old guard against ``$``.

    The ``.sdd/`` rule once began with ``(?![^\\n]*\\n)`` because Python's ``$`` also
    matches before a final newline; translated, ``$`` is ``\\Z`` and the guard is gone.
    """
    paths = [".sdd/plan.md", ".sdd/plan.md\n", ".sdd/a\nb", ".sdd/../x", ".sdd/./x", ".sdd//x"]
    paths += [
        ".sdd/é",
        ".sdd/a\\b",
        ".sdd/\u2028",
        ".sdd",
        "x/.sdd/a",
        ".sdd/a/",
        ".sdd/\U0001f600",
    ]
    patterns = [
        pattern
        for path in sorted(_SCHEMA_DIR.glob("*.json"))
        for pattern in _schema_patterns(json.loads(path.read_text(encoding="utf-8")))
    ]
    assert patterns
    for pattern in patterns:
        assert _PATH_GUARD not in pattern
        assert _python_answers(pattern, paths) == _node_answers(node, pattern, paths), pattern
    sdd = [p for p in patterns if "sdd" in p]
    assert sdd
    for pattern in sdd:
        assert _python_answers(pattern, [".sdd/plan.md\n", ".sdd/plan.md"]) == [False, True]


# ---------------------------------------------------------------------------
# Exhaustive: the escapes and '.' over every code point, against node
# ---------------------------------------------------------------------------


@pytest.mark.timeout(240)
def test_character_sets_equal_node_on_every_code_point(node: NodeOracle) -> None:
    every = [chr(code) for code in range(0x110000)]
    for pattern in (r"^\s$", r"^\w$", r"^\d$", r"^.$", r"^[^\S\d]$", r"^\W$"):
        answers = _node_answers(node, pattern, every)
        assert isinstance(answers, list), answers
        mine = _python_answers(pattern, every)
        differ = [f"U+{ord(c):04X}" for c, a, b in zip(every, answers, mine, strict=True) if a != b]
        assert not differ, (pattern, differ[:20])


# ---------------------------------------------------------------------------
# Differential: Hypothesis patterns from the supported grammar, inputs near them
# ---------------------------------------------------------------------------

_INTERESTING = (
    "aAzZ09_-/ ,:<=!é\u00e9\u07c0\u0660\u00a0\u1680\u180e\u2000\u200a\u200b\u202f"
    "\u205f\u3000\ufeff\u2028\u2029\n\r\t\x0b\x0c\x00\x08\x7f\x85\U0001f600\U0010ffff"
    "{}[]()|^$.*+?\\\ud83d\ude00"  # and lone surrogates: a pair of them is one character
)
_SYNTAX = set("^$\\.*+?()[]{}|/")
_CLASS_SPECIAL = set("\\]-^[")
_CLASS_ESCAPES = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S"]

Sampler = Callable[[st.DrawFn], str]


def _literal_text(draw: st.DrawFn, char: str, *, in_class: bool) -> str:
    """One way of writing ``char`` in a pattern (raw, escaped, \\x, \\u, \\u{}, \\c)."""
    code = ord(char)
    forms = [f"\\u{{{code:x}}}"]
    special = _CLASS_SPECIAL if in_class else _SYNTAX
    forms.append("\\" + char if char in special else char)
    if code <= 0xFF:
        forms.append(f"\\x{code:02x}")
    if code <= 0xFFFF:
        forms.append(f"\\u{code:04X}")
    else:
        lead, trail = 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)
        forms.append(f"\\u{lead:x}\\u{trail:x}")
    if 1 <= code < 27:
        forms.append("\\c" + chr(code + 64))
    return draw(st.sampled_from(forms))


_chars = st.sampled_from(_INTERESTING)


@st.composite
def _class(draw: st.DrawFn) -> tuple[str, Sampler]:
    pieces: list[str] = []
    candidates = list(_INTERESTING)
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["char", "range", "escape", "backspace"]))
        if kind == "char":
            char = draw(_chars)
            pieces.append(_literal_text(draw, char, in_class=True))
            candidates.append(char)
        elif kind == "range":
            low, high = sorted((draw(_chars), draw(_chars)))
            low_text = _literal_text(draw, low, in_class=True)
            pieces.append(low_text + "-" + _literal_text(draw, high, in_class=True))
            middle = chr((ord(low) + ord(high)) // 2)
            candidates.extend([low, high, middle, chr(max(ord(low) - 1, 0))])
        elif kind == "escape":
            pieces.append(draw(st.sampled_from(_CLASS_ESCAPES)))
        else:
            pieces.append("\\b")
            candidates.append("\b")
    negated = draw(st.booleans())
    text = "[" + ("^" if negated else "") + "".join(pieces) + "]"
    return text, lambda d: d(st.sampled_from(candidates))


@st.composite
def _atom(draw: st.DrawFn, depth: int) -> tuple[str, Sampler]:
    kinds = ["literal", "dot", "escape", "class"] + (["group", "plain group"] if depth else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "literal":
        char = draw(_chars)
        return _literal_text(draw, char, in_class=False), lambda d: char
    if kind == "dot":
        return ".", lambda d: d(_chars)
    if kind == "escape":
        return draw(st.sampled_from(_CLASS_ESCAPES)), lambda d: d(_chars)
    if kind == "class":
        return draw(_class())
    inner, sample = draw(_disjunction(depth - 1))
    return ("(" if kind == "group" else "(?:") + inner + ")", sample


@st.composite
def _term(draw: st.DrawFn, depth: int) -> tuple[str, Sampler]:
    kind = draw(st.sampled_from(["atom", "atom", "atom", "assertion", "lookahead"]))
    if kind == "assertion":
        return draw(st.sampled_from(["^", "$", "\\b", "\\B"])), lambda d: ""
    if kind == "lookahead" and depth:
        inner, _ = draw(_disjunction(depth - 1))
        return draw(st.sampled_from(["(?=", "(?!"])) + inner + ")", lambda d: ""
    text, sample = draw(_atom(depth))
    low = draw(st.integers(0, 3))
    high = low + draw(st.integers(0, 2))
    bounded = [("", 1), ("?", 1), (f"{{{low}}}", low), (f"{{{low},{high}}}", high)]
    unbounded = [("*", 3), ("+", 3), (f"{{{low},}}", low + 2)]
    # Unbounded loops only around a single character: nested ones backtrack
    # exponentially in both engines, and the test is about verdicts, not speed.
    grouped = text.startswith("(")
    quantifier, most = draw(st.sampled_from(bounded if grouped else bounded + unbounded))
    if quantifier:
        quantifier += draw(st.sampled_from(["", "?"]))

    def repeat(d: st.DrawFn) -> str:
        return "".join(sample(d) for _ in range(d(st.integers(0, most + 1))))

    return text + quantifier, (repeat if quantifier else sample)


@st.composite
def _disjunction(draw: st.DrawFn, depth: int) -> tuple[str, Sampler]:
    alternatives = draw(
        st.lists(st.lists(_term(depth), max_size=4), min_size=1, max_size=3),
    )
    text = "|".join("".join(text for text, _ in terms) for terms in alternatives)

    def sample(d: st.DrawFn) -> str:
        terms = d(st.sampled_from(alternatives))
        return "".join(term_sample(d) for _, term_sample in terms)

    return text, sample


@st.composite
def _pattern_and_inputs(draw: st.DrawFn) -> tuple[str, list[str]]:
    pattern, sample = draw(_disjunction(draw(st.integers(0, 2))))
    inputs = []
    for _ in range(draw(st.integers(1, 6))):
        near = sample(draw)
        if draw(st.booleans()):
            near = draw(st.text(_chars, max_size=2)) + near + draw(st.text(_chars, max_size=2))
        near = near[:24]
        inputs.append(_as_javascript(near))
        inputs.append(_as_javascript(near + "\n"))
    inputs.append(_as_javascript(draw(st.text(_chars, max_size=6))))
    return pattern, inputs


@pytest.mark.timeout(240)
@settings(max_examples=2000, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_pattern_and_inputs())
def test_matches_node_on_supported_grammar(node: NodeOracle, case: tuple[str, list[str]]) -> None:
    pattern, inputs = case
    answers = _node_answers(node, pattern, inputs)
    assert isinstance(answers, list), (pattern, answers)
    assert _python_answers(pattern, inputs) == answers, pattern


_SOUP = st.text(
    st.sampled_from(list("ab0129()[]{}|*+?\\^$.-,:=!<>dDwWsSbBcuxkpPfnrtv/\u2028é\U0001f600")),
    max_size=14,
)


@pytest.mark.timeout(240)
@settings(max_examples=3000, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_SOUP, st.lists(st.text(_chars, max_size=5), min_size=1, max_size=4))
def test_refuses_exactly_what_node_refuses(
    node: NodeOracle, pattern: str, texts: list[str]
) -> None:
    """Any text: translated and answering as node does, refused as unsupported, or invalid."""
    inputs = [_as_javascript(text) for text in texts]
    answers = _node_answers(node, pattern, inputs)
    refusal: EcmaPatternError | None = None
    try:
        mine: list[bool] | str = _python_answers(pattern, inputs)
    except EcmaPatternError as error:
        refusal = error
        mine = error.reason
    if refusal is None:
        assert answers == mine, pattern
    elif not refusal.unsupported:
        assert isinstance(answers, str), (pattern, mine, answers)
