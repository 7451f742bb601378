"""The calling convention and the schema checks of the per-kind functions."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from shell_support import NO_EXTERNALS, helper_format, reference_format, run, shell_command

QUESTION = reference_format(
    "QUESTION", {"question": "Apply?", "options": ["yes", "-no"], "id": "-q"}
)


@pytest.mark.parametrize(
    "call",
    [
        "bernstein_question 'Apply?' --options yes --options -no --id -q",
        "bernstein_question --id -q --options yes 'Apply?' --options -no",
        "bernstein_question --options yes --options -no --id -q -- 'Apply?'",
    ],
)
def test_options_before_or_after_positionals(shell: str, call: str) -> None:
    result = run(shell, "set -eu\n" + call)
    assert (result.lines, result.stderr, result.status) == ([QUESTION], b"", 0)


def test_after_double_dash_everything_is_positional(shell: str) -> None:
    result = run(shell, "bernstein_question --id q-2 -- -n\nbernstein_blocked -- --hint")
    assert result.lines == [
        reference_format("QUESTION", {"question": "-n", "id": "q-2"}),
        reference_format("BLOCKED", {"reason": "--hint"}),
    ]


def test_every_kind(shell: str) -> None:
    body = """set -eu
bernstein_completed
bernstein_failed
bernstein_failed --reason 'exit 2'
bernstein_plan_draft '# Plan
- step 1' --path .sdd/plans/fix-login.md
bernstein_plan_ready .sdd/plans/2026/q4-roadmap.md
bernstein_blocked 'GITHUB_TOKEN is not set' --hint 'export GITHUB_TOKEN and re-run'"""
    result = run(shell, body)
    assert result.lines == [
        helper_format("COMPLETED"),
        helper_format("FAILED"),
        helper_format("FAILED", {"reason": "exit 2"}),
        reference_format(
            "PLAN_DRAFT", {"markdown": "# Plan\n- step 1", "path": ".sdd/plans/fix-login.md"}
        ),
        reference_format("PLAN_READY", {"path": ".sdd/plans/2026/q4-roadmap.md"}),
        reference_format(
            "BLOCKED",
            {"reason": "GITHUB_TOKEN is not set", "hint": "export GITHUB_TOKEN and re-run"},
        ),
    ]


REFUSED = [
    ("bernstein_question", "missing argument"),
    ("bernstein_question ''", "must be at least 1 character long"),
    ("bernstein_question q extra", "too many arguments"),
    ("bernstein_question q -x", "too many arguments"),
    ("bernstein_question q --x", "unknown option --x (options: --options, --id; try --help)"),
    ("bernstein_question q --options", "needs a value"),
    ("bernstein_question q --options ''", "must be at least 1 character long"),
    ("bernstein_question q --options a --options a", "must not hold duplicate items"),
    ("bernstein_question q --id ''", "must be at least 1 character long"),
    ("bernstein_question q --id a --id b", "given twice"),
    ("bernstein_completed extra", "takes no positional argument"),
    ("bernstein_completed --reason x", "unknown option"),
    ("bernstein_blocked ''", "must be at least 1 character long"),
    ("bernstein_plan_draft ''", "must be at least 1 character long"),
    ("bernstein_plan_draft '# P' --path /etc/passwd", "under .sdd/"),
    *(
        (f"bernstein_plan_ready '{path}'", "under .sdd/")
        for path in [
            "../etc/passwd",
            ".sdd",
            ".sdd/",
            ".sdd//a",
            ".sdd/a/",
            ".sdd/./a",
            ".sdd/../a",
            ".sdd/a/..",
            "/.sdd/a",
            ".sdd\\\\a",
            ".sdd/a\\\\b",
            "x/.sdd/a",
            "./.sdd/a",
            ".sddx/a",
        ]
    ),
]


@pytest.mark.parametrize(("call", "message"), REFUSED)
def test_schema_violations_are_status_2_with_nothing_on_stdout(
    shell: str, call: str, message: str
) -> None:
    result = run(shell, f"{call}\necho status=$? >&2")
    assert result.stdout == b""
    assert message.encode() in result.stderr
    assert b"status=2" in result.stderr


def test_control_characters_in_a_path_are_refused(shell: str) -> None:
    result = run(shell, 'bernstein_plan_ready "$1" || echo "status=$?"', ".sdd/a\nb")
    assert result.stdout == b"status=2\n"
    result = run(shell, 'bernstein_plan_ready "$1" || echo "status=$?"', ".sdd/a\tb")
    assert result.stdout == b"status=2\n"


@pytest.mark.parametrize(
    "path", [".sdd/plans/fix.md", ".sdd/...", ".sdd/.hidden/a", ".sdd/a b/é\x7f"]
)
def test_plan_paths_the_pattern_allows(shell: str, path: str) -> None:
    result = run(shell, 'bernstein_plan_ready "$1"', path)
    assert result.lines == [reference_format("PLAN_READY", {"path": path})]


def test_a_failed_call_aborts_a_set_e_script(shell: str) -> None:
    result = run(shell, "set -eu\nbernstein_question ''\necho not reached")
    assert result.status == 2
    assert result.stdout == b""


def test_help_from_the_schema(shell: str) -> None:
    result = run(shell, "bernstein_question --help")
    assert result.status == 0
    assert result.stdout.startswith(
        b"Usage: bernstein_question QUESTION [--options VALUE]... [--id VALUE]"
    )
    assert b"The adapter needs an answer from the operator" in result.stdout
    for function in (
        "completed",
        "failed",
        "plan_draft",
        "plan_ready",
        "blocked",
        "emit",
        "run",
        "ask",
        "guard",
    ):
        assert run(shell, f"bernstein_{function} --help").stdout.startswith(b"Usage: bernstein_")


@pytest.mark.parametrize("name", [*NO_EXTERNALS, "dash", "busybox"])
def test_no_external_program_is_started(name: str) -> None:
    shell_command(name)
    body = """set -eu
bernstein_question "$1" --options a --options b --id q
bernstein_emit X_Y a=1 b:='[1,{"c":null}]'
bernstein_plan_ready .sdd/p.md
bernstein_failed --reason "$1"
bernstein_run true
bernstein_run false || :
bernstein_ask --id q 'Go?'
bernstein_completed"""
    reply = b'{"in_reply_to":"q","answer":"ok\\u00e9"}\n'
    result = run(name, body, 'a "b"\n\\ é', path="", stdin=reply)
    assert result.stderr == b""
    assert result.status == 0
    assert len(result.lines) == 8


def test_caller_state_is_unchanged(shell: str) -> None:
    body = r"""set -eu
IFS=' :'
j=keep s=keep p=keep key=keep line=keep REPLY=keep
before="$-|$IFS|${LC_ALL-unset}|${LANG-unset}|$j$s$p$key$line$REPLY|$#|$*"
bernstein_question "x" --options a >/dev/null
bernstein_emit X a=1 b:=2 >/dev/null
bernstein_failed --reason y >/dev/null
after="$-|$IFS|${LC_ALL-unset}|${LANG-unset}|$j$s$p$key$line$REPLY|$#|$*"
[ "$before" = "$after" ] && echo same || echo "changed: $before -> $after" """
    result = run(shell, body, "arg 1", "arg2")
    assert result.stdout == b"same\n"


@pytest.mark.parametrize(
    ("shell_name", "names"),
    [
        ("bash", "compgen -v"),
        ("zsh", "print -rl -- ${(k)parameters}"),
        ("ksh93", "typeset +"),
        ("mksh", "typeset +"),
    ],
)
def test_only_reserved_names_are_added(shell_name: str, names: str) -> None:
    shell_command(shell_name)
    body = f"""{names} > "$1"
bernstein_question x --options a --id b >/dev/null
bernstein_emit X a=1 b:='[1]' >/dev/null
bernstein_ask Q >/dev/null
{names} > "$2" """
    with tempfile.TemporaryDirectory() as scratch:
        before, after = Path(scratch, "before"), Path(scratch, "after")
        reply = b'{"in_reply_to":null,"answer":"a"}\n'
        result = run(shell_name, body, str(before), str(after), stdin=reply)
        assert result.status == 0, result.stderr
        added = set(after.read_text().split()) - set(before.read_text().split())
    added -= {"BERNSTEIN_ANSWER", "_", "BASH_COMMAND", "BASH_LINENO", "BASH_SOURCE", "FUNCNAME"}
    assert {name for name in added if not name.startswith("_bsig_")} == set()
