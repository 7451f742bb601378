"""Issue 16 item 10: CLI ``emit`` and the shell's ``bernstein_emit`` accept and refuse alike.

The same KIND and key arguments go to both, in bash: a lowercase kind, a key
with a space, a key that starts with a digit... Either both refuse (CLI exit
2, helper status 2) or both write the same line. Kinds are drawn around the
vocabulary's own (an unknown well-formed kind is a difference by design: the
CLI validates against the schema, bernstein_emit writes any kind).
"""

from __future__ import annotations

import itertools
import json
import subprocess
from pathlib import Path

import pytest

from bernstein_signals_toolkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "generated" / "shell" / "bernstein-signals.sh"

_KINDS = [
    "COMPLETED",
    "completed",
    "Completed",
    "COMPLETEd",
    " COMPLETED",
    "COMPLETED ",
    "BLOCKED",
    "blocked",
]
_MEMBERS = [
    [],
    ["note=x"],
    ["note_2=x"],
    ["my key=x"],
    ["Note=x"],
    ["2note=x"],
    ["_note=x"],
    ["no-te=x"],
    ["note:=3"],
    ["é=x"],
    ["=x"],
    ["note"],
    ["a=1", "b=2"],
    ["reason=r", "hint=h"],
]


def _cli(kind: str, members: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        status = main(["emit", kind, *members])
    except SystemExit as exc:  # argparse refusals
        status = int(exc.code or 0)
    return status, capsys.readouterr().out


@pytest.mark.timeout(120)
def test_cli_emit_and_bernstein_emit_agree(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (kind, members)
        for kind, members in itertools.product(_KINDS, _MEMBERS)
        if not (
            kind.strip().upper() == "BLOCKED" and "reason=r" not in members
        )  # schema, not syntax
    ]
    script = [f". {json.dumps(str(LIBRARY))}"]
    for kind, members in cases:
        quoted = " ".join(json.dumps(arg) for arg in [kind, *members])
        script.append(
            f'line=$(bernstein_emit {quoted} 2>/dev/null); printf "%s\\t%s\\n" "$?" "$line"'
        )
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
    )
    shell = [line.split("\t", 1) for line in done.stdout.decode().splitlines()]
    assert len(shell) == len(cases)
    compared = 0
    for (kind, members), (shell_status, shell_line) in zip(cases, shell, strict=True):
        status, out = _cli(kind, members, capsys)
        case = f"emit {kind!r} {members}"
        if shell_status == "0":
            assert (status, out) == (0, shell_line + "\n"), case
            compared += 1
        else:
            assert shell_status == "2", case
            assert (status, out) == (2, ""), case
    assert compared == 7  # the accepted side is exercised too: 6 COMPLETED, 1 BLOCKED
