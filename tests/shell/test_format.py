"""The lines are byte-identical to the canonical format, under every shell and locale."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shell_support import ROOT, SHELLS, reference_format, run, shell_command

CORPUS = sorted((ROOT / "tests" / "corpus" / "lines").glob("valid__*.line"))


def _call(line: bytes) -> tuple[str, list[str]]:
    """The helper call that should print ``line``: kind function, fields as arguments."""
    head, _, body = line.decode().partition(" ")
    kind = head.removeprefix("BERNSTEIN:")
    payload = json.loads(body) if body else {}
    required = {"QUESTION": ["question"], "PLAN_READY": ["path"], "PLAN_DRAFT": ["markdown"]}
    required.update({"BLOCKED": ["reason"]})
    args = [payload.pop(name) for name in required.get(kind, [])]
    for key, value in payload.items():
        for item in value if isinstance(value, list) else [value]:
            args += [f"--{key}", item]
    return f"bernstein_{kind.lower()}", args


def test_corpus_matches_the_reference_formatter() -> None:
    for case in CORPUS:
        head, _, body = case.read_bytes().decode().partition(" ")
        payload = json.loads(body) if body else None
        assert reference_format(head.removeprefix("BERNSTEIN:"), payload) == (
            case.read_bytes().removesuffix(b" {}")
        )


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_corpus_lines(shell: str, locale: str) -> None:
    # POSIX sh has no "${@:n:m}": each call takes its arguments from "$1".., then shifts.
    lines, args, expected = ["set -eu"], [], []
    for case in CORPUS:
        function, fields = _call(case.read_bytes())
        call = " ".join(f'"${i}"' for i in range(1, len(fields) + 1))
        lines.append(f"{function} {call}\nshift {len(fields)}")
        args += fields
        line = case.read_bytes()
        # A helper given no field prints no payload: "COMPLETED {}" comes out bare.
        expected.append(line.removesuffix(b" {}"))
    result = run(shell, "\n".join(lines), *args, locale=locale)
    assert result.stderr == b""
    assert result.lines == expected
    assert result.status == 0


SPECIALS = [
    '"',
    "\\",
    "%",
    "%s",
    "$(id)",
    "`id`",
    "-",
    "--",
    "-n",
    "\n",
    "\r",
    "\t",
    "\x01",
    "\x1f",
    "\x7f",
    "\u0085",
    "\u2028",
    "\u2029",
    "é",
    "😀",
    "\ufeff",
    "/",
    "'",
    "*",
    "?",
    "[",
    "&",
    "\\u0041",
    "|",
    "~",
    "#",
    "{",
    "}",
]
CHARACTERS = st.characters(exclude_characters="\x00", exclude_categories=["Cs"])
TEXT = st.lists(
    st.one_of(st.sampled_from(SPECIALS), st.text(alphabet=CHARACTERS, max_size=6)), max_size=8
).map("".join)


EXAMPLES = 40
"""Hypothesis examples per shell; each runs one shell process over a batch of up to 12 values."""


@settings(max_examples=EXAMPLES)
@given(values=st.lists(TEXT, min_size=1, max_size=12))
@pytest.mark.parametrize("shell_name", list(SHELLS))
def test_arbitrary_text_round_trips(shell_name: str, values: list[str]) -> None:
    shell_command(shell_name)
    body = """set -eu
for a in "$@"; do
  bernstein_failed --reason "$a"
  bernstein_emit X_1 "k=$a" n:=1
  if [ -n "$a" ]; then
    bernstein_question --options "$a" --id "$a" -- "q$a"
  else
    bernstein_question "q"
  fi
done"""
    result = run(shell_name, body, *values)
    expected = []
    for value in values:
        expected.append(reference_format("FAILED", {"reason": value}))
        expected.append(reference_format("X_1", {"k": value, "n": 1}))
        if value:
            payload: dict[str, object] = {"question": "q" + value, "options": [value], "id": value}
        else:
            payload = {"question": "q"}
        expected.append(reference_format("QUESTION", payload))
    assert result.lines == expected
    assert result.status == 0


def test_escapes_are_the_canonical_ones(shell: str) -> None:
    every_control = "".join(chr(c) for c in range(1, 32)) + '\x7f"\\/\u0085\u2028\u2029é'
    result = run(shell, 'bernstein_failed --reason "$1"', every_control)
    assert result.lines == [reference_format("FAILED", {"reason": every_control})]
    assert b"\\u001f" in result.stdout
    assert b"\x7f" in result.stdout


def test_corpus_is_present() -> None:
    assert CORPUS, Path("tests/corpus/lines")
