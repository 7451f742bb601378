"""The language server's rewrite of a hand-written signal prints the same signal.

A rewrite is offered only when the helper call prints exactly what the line
printed, for every value the script may compute: a positional from ``"$q"``
goes after ``--`` (q may be ``--id`` or ``--help``); a key the helpers refuse
or a payload the schema refuses is never rewritten (the call would exit 2).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import VOCABULARY_VERSION
from bernstein_signals_toolkit.tools.lsp.analysis import rewrite_as_helper
from shell_support import run

COMPUTED = ["--id", "--help", "--", "-3", "--options", "x y", "--bogus", "--var"]
"""Computed values the schema takes (an empty one the helper refuses, as it should)."""
LINES = [
    'echo "BERNSTEIN:QUESTION {\\"question\\":\\"$1\\"}"',
    'echo "BERNSTEIN:QUESTION {\\"question\\":\\"$1\\",\\"id\\":\\"$1\\"}"',
    'echo "BERNSTEIN:BLOCKED {\\"reason\\":\\"$1\\"}"',
    'echo "BERNSTEIN:PLAN_DRAFT {\\"markdown\\":\\"$1\\"}"',
    'echo "BERNSTEIN:FAILED {\\"reason\\":\\"$1\\"}"',
]


def _same_output(line: str, *args: str) -> None:
    rewrites = rewrite_as_helper(line, 0)
    if not rewrites:
        return
    [(_, start, end, text)] = rewrites
    rewritten = line[:start] + text + line[end:]
    before = run("bash", line, *args)
    after = run("bash", rewritten, *args)
    kind, printed = _signal(after.stdout)
    expected = _signal(before.stdout)
    if isinstance(printed, dict) and isinstance(expected[1], dict):  # the helper's version stamp
        printed = {k: v for k, v in printed.items() if k in expected[1] or v != VOCABULARY_VERSION}
    assert (after.status, (kind, printed)) == (0, expected), (
        line,
        rewritten,
        args,
        after,
    )


def _signal(output: bytes) -> tuple[str, object]:
    """The line's kind and payload (the helper writes the canonical key order)."""
    head, _, payload = output.decode().rstrip("\n").partition(" ")
    return head, json.loads(payload) if payload else None


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("value", COMPUTED)
def test_a_computed_value_that_reads_as_an_option_stays_a_value(line: str, value: str) -> None:
    _same_output(line, value)


def test_the_rewrite_puts_the_end_of_options_before_computed_positionals() -> None:
    [(_, _, _, text)] = rewrite_as_helper(LINES[0], 0)
    assert text == 'bernstein_question -- "$1"'


@pytest.mark.parametrize(
    "payload",
    ['{"Summary":"x"}', '{"a b":1}', '{"-x":"y"}', '{"1a":"y"}', '{"summary":"x","Summary":"y"}'],
)
def test_a_key_the_helpers_refuse_is_not_rewritten(payload: str) -> None:
    assert rewrite_as_helper(f"printf 'BERNSTEIN:COMPLETED {payload}\\n'", 0) == []


@pytest.mark.parametrize(
    "line",
    [
        """printf 'BERNSTEIN:PLAN_DRAFT {"markdown":""}\\n'""",
        """printf 'BERNSTEIN:QUESTION {"question":"q","options":["a","a"]}\\n'""",
        """printf 'BERNSTEIN:QUESTION {"question":"q","id":""}\\n'""",
        """printf 'BERNSTEIN:BLOCKED {"reason":1}\\n'""",
    ],
)
def test_a_payload_the_schema_refuses_is_not_rewritten(line: str) -> None:
    assert rewrite_as_helper(line, 0) == []


KEYS = st.sampled_from(["summary", "Summary", "a b", "reason", "question", "id", "x_1", "-a"])
VALUES = st.one_of(
    st.sampled_from(["", "--id", "--help", "-", "x", "a\tb"]),
    st.integers(-3, 3),
    st.lists(st.sampled_from(["a", "--", ""]), max_size=2),
)
KINDS = st.sampled_from(["COMPLETED", "QUESTION", "BLOCKED", "FAILED", "PLAN_DRAFT"])


@pytest.mark.timeout(600)
@settings(max_examples=60)
@given(KINDS, st.dictionaries(KEYS, VALUES, max_size=3))
def test_any_rewrite_prints_what_the_line_printed(kind: str, payload: dict[str, object]) -> None:
    text = json.dumps(payload, separators=(",", ":")).replace("'", "")
    if "\\" in text:
        return
    _same_output(f"printf '%s\\n' 'BERNSTEIN:{kind} {text}'")
