"""The standing guard, CLI half: ``wrap`` and ``conform`` signalled at odd moments.

While the command prints a hostile stream (questions conform answers, a
terminal then more output, binary), INT, TERM or HUP reaches ``wrap`` or
``conform`` after a generated delay. Every time: exit status 128+N, no
traceback, stderr one line, nothing of the command's process group left.
"""

from __future__ import annotations

import ast
import json
import select
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bernstein_signals import failed

CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]

# The group: the shell, a background sleep (ignores SIGINT, as background jobs of sh
# do), then a stream written in pieces with questions in it, then a long sleep.
_CHILD = (
    "echo $$ > pids; sleep 30 & echo $! >> pids; : > ready; "
    "i=0; while [ $i -lt 50 ]; do "
    'printf \'BERNSTEIN:QUESTION {"id":"q-%s","question":"go?"}\\n\' $i; '
    "printf 'BERNSTEIN:COMPLETED\\nmore \\377\\000 output'; i=$((i+1)); done; sleep 30"
)


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in {"Z", "X"}


def _wait(condition: object, seconds: float) -> bool:
    for _ in range(int(seconds / 0.02)):
        if callable(condition) and condition():
            return True
        select.select([], [], [], 0.02)
    return False


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    command=st.sampled_from(["wrap", "conform"]),
    number=st.sampled_from([signal.SIGINT, signal.SIGTERM, signal.SIGHUP]),
    delay=st.floats(0, 0.3),
    answers=st.integers(0, 60),
)
# At once: the likeliest moment for wrap to append its FAILED (the CLI printed no terminal
# yet), whose expected bytes once lacked the vocabulary stamp.
@example(command="wrap", number=signal.SIGINT, delay=0.0, answers=0)
def _signalled(command: str, number: signal.Signals, delay: float, answers: int) -> None:
    options: list[str] = []
    if command == "conform":
        options = ["--timeout", "60", "--format", "json"]
        for index in range(answers):
            options += ["--answer", f"answer {index} " + "x" * 2000]
    with tempfile.TemporaryDirectory(prefix="bsig-signalled-") as scratch:
        folder = Path(scratch)
        with subprocess.Popen(
            [*CLI, command, *options, "--", "sh", "-c", _CHILD],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as process:
            try:
                assert _wait((folder / "ready").exists, 30), "the command never started"
                select.select([], [], [], delay)
                process.send_signal(number)
                out, err = process.communicate(timeout=60)
            finally:
                process.kill()
        pids = [int(pid) for pid in (folder / "pids").read_text().split()]
    assert _wait(lambda: all(_gone(pid) for pid in pids), 10), "the group survived"
    text = err.decode("utf-8", "replace")
    assert "Traceback" not in text, text
    assert process.returncode == 128 + number, text
    assert len(text.splitlines()) <= 1, text
    if command == "wrap":
        # FAILED is appended exactly when the command had printed no terminal yet.
        # The binding writes it, as wrap does: stamped with the vocabulary version.
        appended = (failed(reason=f"signal {number.name[3:]}") + "\n").encode()
        assert out.endswith(appended) != (b"\nBERNSTEIN:COMPLETED\n" in out), out[-300:]
    else:
        assert out.startswith(b"{"), out[:200]
        # A whole report, printed after the interrupt, marked with the interruption's code.
        report = json.loads(out)["files"][0]
        assert report["diagnostics"][-1]["code"] == "BS402", report["diagnostics"][-1:]
        assert report["passed"] is False


@pytest.mark.timeout(300)
def test_wrap_and_conform_signalled_at_odd_moments() -> None:
    _signalled()


# ---------------------------------------------------------------------------
# One home for child processes and signals: commands/_process.py
# ---------------------------------------------------------------------------

TOOLKIT = Path(__file__).resolve().parents[2] / "codegen/bernstein_signals_toolkit"
_PROCESS_HOME = TOOLKIT / "tools" / "commands" / "_process.py"
_SIGNALLING = frozenset({"os.kill", "os.killpg", "signal.signal", "signal.set_wakeup_fd"})


def _process_handling(tree: ast.AST) -> Iterator[ast.Call]:
    """Calls that start a child or handle signals outside ProcessGroup's mechanism.

    ``subprocess.run`` of a short-lived tool is fine when its stdin is DEVNULL.
    """
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = ast.unparse(node.func)
        keywords = {k.arg: ast.unparse(k.value) for k in node.keywords}
        if name == "subprocess.run" and keywords.get("stdin") == "subprocess.DEVNULL":
            continue
        if (
            name in _SIGNALLING
            or name.startswith("subprocess.")
            or name.startswith("os.spawn")
            or name.startswith("os.exec")
            or name.endswith((".send_signal", ".terminate"))
        ):
            yield node


def test_children_and_signals_are_handled_only_by_process_group() -> None:
    """wrap once signalled only its child's PID, and conform wrote answers blocking: every
    child process and signal handler goes through commands/_process.ProcessGroup."""
    found = []
    for path in sorted(TOOLKIT.rglob("*.py")):
        if path == _PROCESS_HOME or "binding_runtime" in path.relative_to(TOOLKIT).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [
            f"{path.relative_to(TOOLKIT)}:{call.lineno}: {ast.unparse(call)[:80]}"
            for call in _process_handling(tree)
        ]
    assert not found, "start children through commands/_process.ProcessGroup:\n" + "\n".join(found)


def test_the_process_guard_sees_each_way_in() -> None:
    source = """
subprocess.Popen(["x"])
subprocess.run(["x"])
subprocess.run(["x"], stdin=subprocess.DEVNULL)
os.killpg(1, 15)
process.send_signal(2)
signal.signal(2, handler)
"""
    assert [ast.unparse(c) for c in _process_handling(ast.parse(source))] == [
        "subprocess.Popen(['x'])",
        "subprocess.run(['x'])",
        "os.killpg(1, 15)",
        "process.send_signal(2)",
        "signal.signal(2, handler)",
    ]
