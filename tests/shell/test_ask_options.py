"""bernstein_ask's own options (--timeout, --var): one rule, in every shell.

A --timeout value reaches shell arithmetic only once it is a bounded decimal
without a leading zero: bash reads ``08`` as bad octal (and exits the caller's
script), ``010`` as 8; a long one overflows. ``ask_timeout_ok`` (the language
server's check) and the shell's ``_bsig_seconds`` are one rule, checked
against each other.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.shell_help import help_texts, usage
from bernstein_signals_toolkit.generator.shell_signature import (
    ASK_TIMEOUT_MAX,
    ASK_TIMEOUT_RULE,
    ask_option_problem,
    ask_signature,
    ask_timeout_ok,
    signatures,
)
from shell_support import ARGUMENT_CHARACTERS, GRAMMAR, ROOT, run

BAD = ["08", "010", "00", "9999999999999", str(ASK_TIMEOUT_MAX + 1), f"{ASK_TIMEOUT_MAX}.5"]
BAD += ["", ".5", "1.", "1.2.3", "1.1234567", "-1", "+1", "1e3", " 1", "0x10", "1,5"]
GOOD = ["0", "0.5", "1", "10", "0.000001", f"{ASK_TIMEOUT_MAX}", f"{ASK_TIMEOUT_MAX}.000000"]
REPORT = 'printf "status=%s\\n" "$?"; echo after'


@pytest.mark.timeout(120)
def test_a_bad_timeout_is_one_line_and_status_2(shell: str) -> None:
    """Never an arithmetic error, never the caller's script ended, never a wait."""
    if shell == "dash":  # no read -t: every --timeout is refused, with its own message
        return
    for value in BAD:
        result = run(shell, f'bernstein_ask q --timeout "$1"\n{REPORT}', value)
        message = f"bernstein_ask: --timeout: '{value}' is not {ASK_TIMEOUT_RULE}\n"
        assert (result.stdout, result.stderr) == (b"status=2\nafter\n", message.encode()), value


@pytest.mark.timeout(120)
def test_a_good_timeout_is_taken(shell: str) -> None:
    if shell == "dash":
        return
    for value in GOOD:
        result = run(shell, f'bernstein_ask q --timeout "$1"\n{REPORT}', value)
        assert result.stdout.endswith(b"status=1\nafter\n"), (value, result)
        assert result.stderr.startswith(b"bernstein_ask: no reply"), (value, result)


@pytest.mark.timeout(120)
def test_the_timeout_is_decimal(shell: str) -> None:
    """``--timeout 10`` (not octal, not bad) takes a reply that is there."""
    if shell == "dash":
        return
    reply = b'{"in_reply_to":null,"answer":"yes"}\n'
    body = f'bernstein_ask q --timeout 10\n{REPORT}\necho "$BERNSTEIN_ANSWER"'
    result = run(shell, body, stdin=reply)
    assert result.stdout.endswith(b"status=0\nafter\nyes\n"), result


@pytest.mark.parametrize("option", ["--timeout 1 --timeout 2", "--var A --var B", "--id a --id b"])
def test_an_option_given_twice_is_refused(shell: str, option: str) -> None:
    """As the question's own options are, and as the language server reads the call."""
    reply = b'{"in_reply_to":"a","answer":"yes"}\n'
    result = run(shell, f"bernstein_ask q {option}\n{REPORT}", stdin=reply)
    name = option.split(maxsplit=1)[0]
    assert (result.stdout, result.stderr) == (
        b"status=2\nafter\n",
        f"bernstein_ask: {name} given twice\n".encode(),
    )


@pytest.mark.parametrize(
    "arguments",
    ["q --id", "q q", "q --options a --options a", "", "q -- --var"],
)
def test_the_questions_refusals_name_bernstein_ask(shell: str, arguments: str) -> None:
    result = run(shell, f"bernstein_ask {arguments}\n{REPORT}")
    assert result.stdout == b"status=2\nafter\n", result
    assert result.stderr.startswith(b"bernstein_ask: "), result
    assert b"bernstein_question" not in result.stderr, result


VALUES = st.from_regex(r"[0-9.]{0,12}", fullmatch=True) | st.text(ARGUMENT_CHARACTERS, max_size=8)


@pytest.mark.timeout(300)
@settings(max_examples=200)
@given(st.lists(VALUES, min_size=1, max_size=20))
def test_the_language_servers_rule_is_the_shells(values: list[str]) -> None:
    checks = "\n".join(
        f'if _bsig_seconds "${{{i}}}"; then echo 1; else echo 0; fi'
        for i in range(1, len(values) + 1)
    )
    result = run("bash", checks, *values)
    assert result.lines == [b"1" if ask_timeout_ok(v) else b"0" for v in values], values


NAMES = st.sampled_from(["A", "a_1", "_x", "1x", "", "a-b", "_bsig_x", "_bsig", "é", "A B"])


@pytest.mark.timeout(300)
@settings(max_examples=60)
@given(st.sampled_from(["var", "timeout"]), NAMES | VALUES)
def test_the_language_servers_message_is_the_helpers(option: str, value: str) -> None:
    """ask_option_problem (the language server's BS502) says what the helper says, or nothing."""
    reply = b'{"in_reply_to":null,"answer":"yes"}\n'
    result = run("bash", f'bernstein_ask q --{option} "$1"\n{REPORT}', value, stdin=reply)
    problem = ask_option_problem(option, value)
    if problem is None:  # taken (--timeout 0 may time out before the reply is read)
        assert result.stdout.endswith((b"status=0\nafter\n", b"status=1\nafter\n")), result
    elif problem.isprintable():
        assert result.stderr == f"bernstein_ask: {problem}\n".encode(), (value, result)
    else:  # the helper's one-line message escapes control characters
        assert result.stdout.endswith(b"status=2\nafter\n"), (value, result)


def test_the_usage_line_is_rendered_from_the_signature(tmp_path: Path) -> None:
    """A question field added to the schema shows in bernstein_ask's usage, as in the question's."""
    schema_dir = tmp_path / "schema"
    shutil.copytree(ROOT / "schema", schema_dir)
    path = schema_dir / "question.schema.json"
    document = json.loads(path.read_text())
    document["properties"]["urgency"] = {"description": "How soon.", "type": "string"}
    path.write_text(json.dumps(document))
    vocabulary = load_vocabulary(schema_dir, GRAMMAR)
    question = signatures(vocabulary)["bernstein_question"]
    first = help_texts(vocabulary)["bernstein_ask"].splitlines()[0]
    assert first == f"Usage: {usage(ask_signature(question))}"
    assert "[--urgency VALUE]" in first
    assert first.startswith("Usage: bernstein_ask QUESTION [--var NAME] [--timeout SECONDS] ")
    printed = run("bash", "bernstein_ask --help").stdout.decode().splitlines()[0]
    assert (
        printed
        == help_texts(load_vocabulary(ROOT / "schema", GRAMMAR))["bernstein_ask"].split("\n")[0]
    )
