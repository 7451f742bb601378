"""examples/wrapper.sh: the complete wrapper that `make demo` runs, under every shell."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from shell_support import LIBRARY, ROOT, helper_format, reference_format, shell_command

EXAMPLE = ROOT / "examples" / "wrapper.sh"
PLAN = '# Plan\n- step 1: analyse "the repo"\n- step 2: apply the fix'


def _wrapper(
    shell: str, tmp_path: Path, reply: bytes, *args: str
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*shell_command(shell), str(EXAMPLE), *args],
        input=reply,
        capture_output=True,
        cwd=tmp_path,
        env={**os.environ, "BSIG_LIB": str(LIBRARY)},
        timeout=60,
        check=False,
    )


def test_the_example_wrapper(shell: str, tmp_path: Path) -> None:
    reply = b'{"in_reply_to":"other","answer":"no"}\n{"in_reply_to":"q-plan","answer":"yes"}\n'
    result = _wrapper(shell, tmp_path, reply)
    assert result.stdout.split(b"\n")[:-1] == [
        reference_format("PLAN_DRAFT", {"markdown": PLAN, "path": ".sdd/plans/example.md"}),
        reference_format("PLAN_READY", {"path": ".sdd/plans/example.md"}),
        reference_format(
            "QUESTION", {"question": "Apply the plan?", "options": ["yes", "no"], "id": "q-plan"}
        ),
        b"tool: analysing .",
        helper_format("COMPLETED"),
    ]
    assert (tmp_path / ".sdd/plans/example.md").read_text() == PLAN + "\n"
    assert result.returncode == 0


def test_the_example_wrapper_fails_like_its_cli(shell: str, tmp_path: Path) -> None:
    result = _wrapper(
        shell, tmp_path, b'{"in_reply_to":"q-plan","answer":"yes"}\n', "sh", "-c", "exit 3"
    )
    assert result.stdout.split(b"\n")[-2] == helper_format("FAILED", {"reason": "exit 3"})
    assert result.returncode == 3
    result = _wrapper(shell, tmp_path, b'{"in_reply_to":"q-plan","answer":"no"}\n')
    assert result.stdout.split(b"\n")[-2] == helper_format(
        "FAILED", {"reason": "operator answered: no"}
    )
    assert result.returncode == 1
    result = _wrapper(shell, tmp_path, b"")
    assert result.stdout.split(b"\n")[-3:-1] == [
        reference_format(
            "BLOCKED", {"reason": "no answer from the operator", "hint": "reply to question q-plan"}
        ),
        helper_format("FAILED", {"reason": "exit 1"}),
    ]
