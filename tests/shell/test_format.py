"""The lines are byte-identical to the canonical format, under every shell and locale."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import StreamSignal, format_signal, parse_signal
from bernstein_signals_toolkit.generator.load import load_vocabulary
from shell_support import ROOT, SHELLS, STAMPS, helper_format, reference_format, run, shell_command

KNOWN_FAILURES = {
    key.removeprefix("shell/")
    for key in tomllib.loads((ROOT / "tests/corpus/known_failures.toml").read_text())
    if key.startswith("shell/")
}
ALL_VALID = sorted((ROOT / "tests" / "corpus" / "lines").glob("valid__*.line"))
CORPUS = [case for case in ALL_VALID if case.name not in KNOWN_FAILURES]
VOCABULARY = load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")


def _signal(case: Path) -> StreamSignal:
    signal = parse_signal(case.read_bytes().decode("utf-8"))
    assert signal is not None, case.name
    return signal


def _call(signal: StreamSignal) -> tuple[str, list[str]]:
    """The helper call that prints ``signal``: its kind's function when the typed options
    can say the payload, else bernstein_emit with key=value and key:=JSON arguments."""
    kind = VOCABULARY.kind(signal.kind.value)
    payload = dict(signal.payload)
    # The helper fills a version field itself: a payload with its own goes through bernstein_emit.
    typed = STAMPS.get(kind.name) not in payload and all(
        key in {prop.name for prop in kind.properties}
        and (
            isinstance(value, str)
            or (
                isinstance(value, list)
                and kind.property(key).is_array
                and all(isinstance(item, str) for item in value)
            )
        )
        for key, value in payload.items()
    )
    if typed:
        args = [payload.pop(name) for name in kind.required]
        for key, value in payload.items():
            for item in value if isinstance(value, list) else [value]:
                args += [f"--{key}", item]
        return f"bernstein_{kind.snake}", args
    args = [kind.name]
    for key, value in payload.items():
        if isinstance(value, str):
            args.append(f"{key}={value}")
        else:
            line = format_signal("COMPLETED", {"v": value}, validate=False)
            raw = line.removeprefix('BERNSTEIN:COMPLETED {"v":').removesuffix("}")
            args.append(f"{key}:={raw}")
    return "bernstein_emit", args


def test_known_failures_really_cannot_be_passed_as_arguments() -> None:
    listed = [case for case in ALL_VALID if case.name in KNOWN_FAILURES]
    assert len(listed) == len(KNOWN_FAILURES), "a listed case is not in the corpus"
    for case in listed:
        _, args = _call(_signal(case))
        assert any("\0" in arg for arg in args), f"{case.name} now passes: unlist it"


def test_corpus_calls_say_each_payload() -> None:
    """The calls the shell tests make carry every field of each corpus payload."""
    for case in CORPUS:
        signal = _signal(case)
        function, args = _call(signal)
        assert function.startswith("bernstein_")
        strings = [v for v in signal.payload.values() if isinstance(v, str)]
        assert all(any(value in arg for arg in args) for value in strings), case.name


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_corpus_lines(shell: str, locale: str) -> None:
    # POSIX sh has no "${@:n:m}": each call takes its arguments from "$1".., then shifts.
    lines, args, expected = ["set -eu"], [], []
    for case in CORPUS:
        signal = _signal(case)
        function, fields = _call(signal)
        call = " ".join(f'"${i}"' for i in range(1, len(fields) + 1))
        lines.append(f"{function} {call}\nshift {len(fields)}")
        args += fields
        made_by = helper_format if function != "bernstein_emit" else reference_format
        expected.append(made_by(signal.kind.value, signal.payload))
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
        expected.append(helper_format("FAILED", {"reason": value}))
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
    assert result.lines == [helper_format("FAILED", {"reason": every_control})]
    assert b"\\u001f" in result.stdout
    assert b"\x7f" in result.stdout


@pytest.mark.parametrize("size", [4096, 4097, 20_000])
def test_long_texts_escape_as_short_ones(shell: str, size: int) -> None:
    """A shell may escape short and long texts in different ways (bash: its own ${//} up to
    4 KiB, the linear split past it); the bytes are the same on both sides of the bound."""
    unit = "".join(chr(c) for c in range(1, 32)) + '\x7f"\\/\u0085\u2028\u2029é x'
    text = unit * (size // len(unit.encode()))
    text += "x" * (size - len(text.encode()))  # exactly size bytes
    result = run(shell, 'bernstein_failed --reason "$1"', text)
    assert result.lines == [helper_format("FAILED", {"reason": text})]


def test_corpus_is_present() -> None:
    assert CORPUS, Path("tests/corpus/lines")
