"""A closed stdout (``bernstein-signals parse big.log | head -1``) is no input error.

Every command that writes to stdout ends quietly with status 141 (128 +
SIGPIPE, what ``cat big | head -1`` reports) when its reader has gone: no
"read error: Broken pipe", no traceback, no status 2. The stdout handed to
each command is a pipe whose read end is already closed, so the first write
fails whatever the pipe's buffer size.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bernstein_signals_toolkit.cli import STDOUT_CUT_STATUS
from bernstein_signals_toolkit.tools.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]

_NOT_CUT = {
    "lsp": "speaks LSP over stdio: a client that goes away ends the session, tested in test_lsp"
}
"""Commands whose stdout is not output a reader cuts short, with the reason."""


def _argv(command: str, scratch: Path) -> list[str]:
    big = scratch / "big.log"
    if not big.exists():
        big.write_text(
            "".join(
                f'plain {n}\nBERNSTEIN:QUESTION {{"question":"q{n}?"}}\n' for n in range(20_000)
            )
            + "BERNSTEIN:COMPLETED\n",
            encoding="utf-8",
        )
    many = (
        "i=0; while [ $i -lt 20000 ]; do echo line $i; i=$((i+1)); done; echo BERNSTEIN:COMPLETED"
    )
    return {
        "conform": ["conform", "--format", "json", "--", "sh", "-c", many],
        "conformance": [
            "conformance",
            "--format",
            "json",
            "--",
            sys.executable,
            str(ROOT / "conformance" / "harness" / "python.py"),
        ],
        "diff": ["diff", "--allow-no-baseline", str(ROOT / "schema"), str(ROOT / "schema")],
        "emit": ["emit", "COMPLETED"],
        "generate": ["generate", "--check", "--out", str(scratch / "out")],
        "parse": ["parse", str(big)],
        "schema": ["schema", "QUESTION"],
        "shell": ["shell"],
        "validate": ["validate", "--format", "json", str(big)],
        "vendor": ["vendor", str(scratch / "vendored")],
        "wrap": ["wrap", "--", "sh", "-c", many],
    }[command]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cut")


def _closed_pipe() -> int:
    read_end, write_end = os.pipe()
    os.close(read_end)
    return write_end


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", sorted(set(COMMANDS) - set(_NOT_CUT)))
def test_a_closed_stdout_ends_the_command_quietly(command: str, scratch: Path) -> None:
    stdout = _closed_pipe()
    try:
        done = subprocess.run(
            [*CLI, *_argv(command, scratch)],
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            timeout=100,
            check=False,
        )
    finally:
        os.close(stdout)
    _quiet(done.stderr)
    assert done.returncode == STDOUT_CUT_STATUS


def _quiet(stderr: bytes) -> None:
    """No complaint about the cut (a command's usual summary on stderr may stay)."""
    for complaint in (b"Broken pipe", b"Traceback", b"bernstein-signals: error", b"Exception"):
        assert complaint not in stderr


@pytest.mark.timeout(60)
def test_head_cuts_parse_in_a_real_pipeline(scratch: Path) -> None:
    """The user's line, with bash's PIPESTATUS for the status of the cut command."""
    big = _argv("parse", scratch)[1]
    cli = " ".join(CLI)
    script = f"{cli} parse {big} | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}"
    done = subprocess.run(
        ["bash", "-c", script], stdin=subprocess.DEVNULL, capture_output=True, cwd=ROOT, check=False
    )
    _quiet(done.stderr)
    assert done.stdout.strip() in {b"0", str(STDOUT_CUT_STATUS).encode()}


def test_a_broken_pipe_elsewhere_is_not_a_closed_stdout() -> None:
    """A pipe to a child (``conform`` answering its adapter) breaking is that command's
    matter: only a stdout whose reader has gone is judged a cut."""
    probe = (
        "from bernstein_signals_toolkit.cli import _stdout_cut;"
        "from bernstein_signals_toolkit.toolkit_errors import UsageError\n"
        "try:\n"
        "    try:\n"
        "        raise BrokenPipeError\n"
        "    except OSError:\n"
        "        raise UsageError('read error') from None\n"
        "except UsageError as exc:\n"
        "    print(_stdout_cut(exc), _stdout_cut(BrokenPipeError()), _stdout_cut(ValueError()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], stdin=subprocess.DEVNULL, capture_output=True, check=True
    )
    assert done.stdout.split() == [b"False", b"False", b"False"]
