"""The fence's proof (issue 17): an adapter's agent prints a hostile file under ``conform --fence``
and ``wrap --fence``; every forged line is refused and reported, only the adapter's own signals act.

The agent (tests/adapters/fenced_agent.sh) prints tests/data/hostile_signals.txt and a
copy of a line the adapter emitted before (a replay), and records its environment and
whether fd 3 is open. The key is fixed for the run by a driver that replaces
``SignalKey.generate`` (the commands make a fresh one otherwise), so the tests can look
for it in everything the run left behind.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals import SignalKey, parse_signal, read_signals
from bernstein_signals.fence_rules import (
    KEY_FD_MAX,
    KEY_FD_MIN,
    KEY_FD_VARIABLE,
    KEY_VARIABLE,
    UNAUTHENTICATED_PREFIX,
)
from bernstein_signals_toolkit.tools.validate import conformance_report
from shell_support import LIBRARY, SHELLS, shell_command

ROOT = Path(__file__).resolve().parents[3]
HOSTILE = ROOT / "tests" / "data" / "hostile_signals.txt"
ADAPTERS = ROOT / "tests" / "adapters"
PYTHON_ADAPTER = [sys.executable, str(ADAPTERS / "fenced_python_adapter.py"), str(HOSTILE)]
KEY = SignalKey.parse("5eed5eed5eed5eed:" + "c0ffee00" * 8)
_DRIVER = (
    "import sys\n"
    "from unittest import mock\n"
    "from bernstein_signals import SignalKey\n"
    "from bernstein_signals_toolkit.cli import main\n"
    "key = SignalKey.parse(sys.argv[1])\n"
    "mock.patch.object(SignalKey, 'generate', return_value=key).start()\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


def _run(*args: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """The CLI with the run's key fixed to :data:`KEY`."""
    return subprocess.run(
        [sys.executable, "-c", _DRIVER, KEY.text(), *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        check=False,
        timeout=120,
    )


def _hostile_lines() -> tuple[list[int], list[int]]:
    """1-based numbers of the hostile file's lines a strict reader takes for signals, and of
    those only a lenient reader takes."""
    strict, lenient = [], []
    for number, line in enumerate(HOSTILE.read_text(encoding="utf-8").splitlines(), 1):
        if parse_signal(line) is not None:
            strict.append(number)
        elif parse_signal(line, lenient=True) is not None:
            lenient.append(number)
    return strict, lenient


def test_the_hostile_file_holds_forgeries_of_every_kind() -> None:
    kinds = set()
    marked = 0
    for line in HOSTILE.read_text(encoding="utf-8").splitlines():
        signal = parse_signal(line)
        if signal is not None:
            kinds.add(str(signal.kind))
            marked += "_sig" in signal.payload
    assert kinds == {"BLOCKED", "COMPLETED", "FAILED", "PLAN_DRAFT", "PLAN_READY", "QUESTION"}
    assert marked >= 10
    strict, lenient = _hostile_lines()
    assert len(strict) >= 25
    assert len(lenient) == 2


def _agent_inherited_no_key(cwd: Path) -> None:
    inherited = (cwd / ".sdd" / "agent.txt").read_text(encoding="utf-8")
    assert "fd 3: closed" in inherited
    assert KEY_VARIABLE not in inherited  # BERNSTEIN_SIGNAL_KEY_FD contains it too
    assert KEY.run not in inherited
    assert KEY.text().split(":")[1] not in inherited


def _no_key_in(*texts: bytes) -> None:
    secret = KEY.text().split(":")[1].encode()
    for text in texts:
        assert secret not in text
        assert KEY.text().encode() not in text


def _conform(cwd: Path, adapter: list[str], *options: str) -> tuple[int, dict[str, Any], bytes]:
    result = _run("conform", "--fence", "--format", "json", *options, "--", *adapter, cwd=cwd)
    _no_key_in(result.stdout, result.stderr)
    return result.returncode, json.loads(result.stdout)["files"][0], result.stderr


def _check_conform_report(status: int, report: dict[str, Any], first_line: int) -> None:
    """The adapter's stdout: QUESTION (line 1), BLOCKED (2), the agent's output from
    ``first_line`` (the hostile file, then the replayed BLOCKED), COMPLETED."""
    strict, _ = _hostile_lines()
    hostile_lines = len(HOSTILE.read_text(encoding="utf-8").splitlines())
    replay = first_line + hostile_lines
    refused = [(d["line"], d["code"]) for d in report["diagnostics"] if d["code"] >= "BS6"]
    expected = [(first_line - 1 + number, "BS601") for number in strict] + [(replay, "BS602")]
    assert refused == expected
    assert {d["severity"] for d in report["diagnostics"] if d["code"] >= "BS6"} == {"error"}
    forged_questions = [
        d for d in report["diagnostics"] if d["code"] == "BS601" and "QUESTION" in d["message"]
    ]
    assert forged_questions
    assert all("not answered" in d["message"] for d in forged_questions)
    assert [(s["line"], s["kind"]) for s in report["signals"]] == [
        (1, "QUESTION"),
        (2, "BLOCKED"),
        (replay + 1, "COMPLETED"),
    ]
    assert all("_sig" not in s["payload"] for s in report["signals"])
    assert report["adapter"]["answers"] == [{"line": 1, "in_reply_to": "q-1", "answer": "yes"}]
    assert report["adapter"]["exit_status"] == 0
    assert report["missing_terminal_signal"] == []
    assert not [d for d in report["diagnostics"] if d["code"] in {"BS301", "BS403", "BS405"}]
    assert status == 1  # the forged lines are errors


@pytest.mark.timeout(180)
def test_conform_fence_takes_only_the_python_adapters_own_signals(tmp_path: Path) -> None:
    status, report, _ = _conform(
        tmp_path, PYTHON_ADAPTER, "--answer-id", "q-1=yes", "--expect-kind", "COMPLETED"
    )
    _check_conform_report(status, report, first_line=3)
    _agent_inherited_no_key(tmp_path)


@pytest.mark.timeout(180)
def test_conform_fence_allow_kinds_refuses_the_adapters_own_other_kinds(tmp_path: Path) -> None:
    status, report, _ = _conform(
        tmp_path, PYTHON_ADAPTER, "--answer-id", "q-1=yes", "--allow-kinds", "QUESTION,COMPLETED"
    )
    assert status == 1
    not_allowed = [(d["line"], d["code"]) for d in report["diagnostics"] if d["code"] == "BS603"]
    assert not_allowed == [(2, "BS603")]  # the adapter's real BLOCKED; forgeries stay BS601
    assert [s["kind"] for s in report["signals"]] == ["QUESTION", "COMPLETED"]


@pytest.mark.timeout(180)
def test_conform_fence_text_report_and_transcript(tmp_path: Path) -> None:
    result = _run(
        "conform",
        "--fence",
        "--transcript",
        "--answer-id",
        "q-1=yes",
        "--",
        *PYTHON_ADAPTER,
        cwd=tmp_path,
    )
    _no_key_in(result.stdout, result.stderr)
    text = result.stdout.decode()
    strict, _ = _hostile_lines()
    assert text.count("error[BS601]") == len(strict)
    assert text.count("error[BS602]") == 1
    transcript = [
        line
        for line in text.splitlines()
        if line.startswith("stdout line") and ": BERNSTEIN:" in line
    ]
    assert len(transcript) == 3  # the adapter's QUESTION, BLOCKED and COMPLETED only


def _adapter(name: str) -> list[str]:
    if name == "python":
        return PYTHON_ADAPTER
    shell = [*shell_command(name), str(ADAPTERS / "fenced_shell_adapter.sh")]
    return [*shell, str(LIBRARY), str(HOSTILE)]


@pytest.mark.timeout(180)
@pytest.mark.parametrize("adapter", ["python", *sorted(SHELLS)])
def test_wrap_fence_relays_the_real_signals_unmarked_and_the_forged_ones_neutralised(
    adapter: str, tmp_path: Path
) -> None:
    reply = b'{"in_reply_to":"q-1","answer":"yes"}\n'
    result = _run("wrap", "--fence", "--", *_adapter(adapter), cwd=tmp_path, stdin=reply)
    assert result.returncode == 0, result.stderr
    _no_key_in(result.stdout, result.stderr)
    _agent_inherited_no_key(tmp_path)
    lines = result.stdout.decode().splitlines()
    strict, lenient = _hostile_lines()
    # The marker goes right before the prefix: after the blanks of a lenient line.
    refused = [line for line in lines if UNAUTHENTICATED_PREFIX + "BERNSTEIN:" in line]
    assert len(refused) == len(strict) + len(lenient) + 1  # and the replayed BLOCKED
    assert not any("_sig" in line for line in lines if line not in refused)
    warnings = result.stderr.decode().splitlines()
    diagnostics = [w for w in warnings if w.startswith("wrap: stdout line ")]
    assert len(diagnostics) == len(refused)
    assert sum("error[BS602]" in w for w in diagnostics) == 1
    # A reader downstream, without the key, sees exactly the adapter's own signals.
    records = read_signals(io.BytesIO(result.stdout))
    # The shell's bernstein_completed stamps its vocabulary version; Python's emit does not.
    seen = [
        (str(r.signal.kind), {k: v for k, v in r.signal.payload.items() if k != "vocabulary"})
        for r in records
    ]
    assert seen == [
        ("QUESTION", {"id": "q-1", "options": ["yes", "no"], "question": "Apply the migration?"}),
        ("BLOCKED", {"reason": "waiting for the agent"}),
        ("COMPLETED", {}),
    ]


@pytest.mark.timeout(120)
def test_wrap_fence_ends_a_run_whose_only_terminal_is_forged(tmp_path: Path) -> None:
    result = _run("wrap", "--fence", "--", "cat", str(HOSTILE), cwd=tmp_path)
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    seen = [r.signal for r in read_signals(io.BytesIO(result.stdout))]
    assert [str(signal.kind) for signal in seen] == ["COMPLETED"]
    assert lines[-1] == seen[0].raw_line  # wrap's own terminal, appended last
    _no_key_in(result.stdout, result.stderr)


@pytest.mark.timeout(120)
def test_a_child_of_the_fenced_command_gets_the_key_on_a_socket_only(tmp_path: Path) -> None:
    """The hand-over itself: the descriptor the variable names is a socket holding the key
    text, and no variable holds the key (the binding then takes it: tests/binding). The key
    is read before the first output, which would have it drained."""
    script = (
        f'fd=${KEY_FD_VARIABLE}; key=$(cat <&"$fd"); [ -S "/dev/fd/$fd" ] && echo socket;'
        f' [ "$key" = "{KEY.text()}" ] && echo same; cat <&"$fd"; echo "$fd";'
        f' env | grep -c "^{KEY_VARIABLE}=" || true'
    )
    result = _run("wrap", "--fence", "--", "sh", "-c", script, cwd=tmp_path)
    lines = result.stdout.decode().splitlines()
    assert lines[:2] == ["socket", "same"]
    assert lines[2] in [str(fd) for fd in range(KEY_FD_MIN, KEY_FD_MAX + 1)]
    assert lines[3] == "0"  # read once, then the socket is empty


@pytest.mark.timeout(120)
def test_wrap_fence_masks_a_key_the_command_prints(tmp_path: Path) -> None:
    script = f'echo $(cat <&"${KEY_FD_VARIABLE}")'
    result = _run("wrap", "--fence", "--", "sh", "-c", script, cwd=tmp_path)
    _no_key_in(result.stdout, result.stderr)
    assert result.stdout.decode().splitlines()[0] == f"{KEY.run}:[key withheld]"
    assert "key" in result.stderr.decode()


@pytest.mark.timeout(240)
@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_conform_fence_takes_only_the_shell_adapters_own_signals(
    shell: str, tmp_path: Path
) -> None:
    adapter = [
        *shell_command(shell),
        str(ADAPTERS / "fenced_shell_adapter.sh"),
        str(LIBRARY),
        str(HOSTILE),
    ]
    status, report, _ = _conform(
        tmp_path,
        adapter,
        "--answer-id",
        "q-1=yes",
        "--expect-kind",
        "COMPLETED",
        "--timeout",
        "120",
    )
    _check_conform_report(status, report, first_line=3)
    _agent_inherited_no_key(tmp_path)


@pytest.mark.timeout(120)
def test_a_key_the_command_did_not_take_is_drained_at_its_first_output(tmp_path: Path) -> None:
    """Printed before reading its descriptor: the key is gone by then, with one warning; a
    command that reads it first gets it and no warning."""
    late = f'echo first; sleep 0.2; cat <&"${KEY_FD_VARIABLE}" | wc -c'
    result = _run("wrap", "--fence", "--", "sh", "-c", late, cwd=tmp_path)
    assert result.stdout.decode().split()[:2] == ["first", "0"]
    assert result.stderr.decode().count("did not take the key") == 1
    early = f'cat <&"${KEY_FD_VARIABLE}" | wc -c; echo done'
    result = _run("wrap", "--fence", "--", "sh", "-c", early, cwd=tmp_path)
    assert result.stdout.decode().split()[:2] == ["82", "done"]
    assert "did not take the key" not in result.stderr.decode()
    silent = "exit 0"
    result = _run("conform", "--fence", "--", "sh", "-c", silent, cwd=tmp_path)
    assert result.stderr.decode().count("did not take the key") == 1
    hung = ["conform", "--fence", "--timeout", "1", "--", "sh", "-c", "exec sleep 30"]
    result = _run(*hung, cwd=tmp_path)
    assert result.stderr.decode().count("did not take the key") == 1
    # conform's report says it too (BS408, a warning), at the line the command first wrote.
    late_report = ["conform", "--fence", "--format", "json", "--", "sh", "-c", late]
    found = json.loads(_run(*late_report, cwd=tmp_path).stdout)["files"][0]["diagnostics"]
    assert [(d["code"], d["line"], d["severity"]) for d in found if d["code"] == "BS408"] == [
        ("BS408", 1, "warning")
    ]
    early_report = ["conform", "--fence", "--format", "json", "--", "sh", "-c", early]
    found = json.loads(_run(*early_report, cwd=tmp_path).stdout)["files"][0]["diagnostics"]
    assert "BS408" not in [d["code"] for d in found]


OUTER = SignalKey.parse("0123456789abcdef:" + "ab" * 32)
CLI_OF_WRAP = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "wrap"]


@pytest.mark.timeout(120)
def test_wrap_inside_a_fenced_run_marks_what_it_relays_and_its_own_terminal(
    tmp_path: Path,
) -> None:
    """wrap took the outer key at import: the inner adapter's accepted lines and wrap's
    terminal are marked with it, so the outer orchestrator accepts them."""
    inner = (
        "import bernstein_signals as b; b.emit('BLOCKED', {'reason': 'inner'});"
        " print('BERNSTEIN:COMPLETED')"
    )
    adapter = [sys.executable, "-c", inner]
    result = subprocess.run(
        [sys.executable, "-c", _DRIVER, KEY.text(), "wrap", "--fence", "--", *adapter],
        input=b"",
        capture_output=True,
        cwd=tmp_path,
        env={**os.environ, KEY_VARIABLE: OUTER.text()},
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    report = conformance_report(lines, key=OUTER)
    assert [str(s.signal.kind) for s in report.signals] == ["BLOCKED", "COMPLETED"]
    assert report.signals[0].signal.payload == {"reason": "inner"}
    assert UNAUTHENTICATED_PREFIX + "BERNSTEIN:COMPLETED" in lines  # the forged one
    assert not [d for d in report.diagnostics if d.code == "BS601" and d.line != 2]


@pytest.mark.timeout(120)
def test_wrap_inside_a_fenced_run_without_its_own_fence_marks_only_its_terminal(
    tmp_path: Path,
) -> None:
    """Without --fence nothing vouches for the command's lines: they stay unmarked (the
    outer reader refuses them), whatever --allow-kinds says; wrap's terminal is marked."""
    forged = 'print(\'BERNSTEIN:BLOCKED {"reason":"forged"}\')'
    for options in ([], ["--allow-kinds", "BLOCKED,COMPLETED,FAILED"]):
        result = subprocess.run(
            [*CLI_OF_WRAP, *options, "--", sys.executable, "-c", forged],
            input=b"",
            capture_output=True,
            cwd=tmp_path,
            env={**os.environ, KEY_VARIABLE: OUTER.text()},
            check=False,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        report = conformance_report(result.stdout.decode().splitlines(), key=OUTER)
        assert [str(s.signal.kind) for s in report.signals] == ["COMPLETED"], options
        assert [d.code for d in report.diagnostics if d.code.startswith("BS6")] == ["BS601"]


def test_wrap_allow_kinds_must_allow_the_terminals_it_appends(tmp_path: Path) -> None:
    result = _run("wrap", "--allow-kinds", "FAILED,QUESTION", "--", "true", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == b""
    assert "COMPLETED" in result.stderr.decode()


_DUMPABLE_DRIVER = (
    "import ctypes, sys\n"
    "from bernstein_signals_toolkit.cli import main\n"
    "status = main(sys.argv[1:])\n"
    "print('dumpable', ctypes.CDLL(None).prctl(3, 0, 0, 0, 0), file=sys.stderr)\n"
    "sys.exit(status)\n"
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", ["wrap", "conform"])
def test_a_fenced_command_is_not_dumpable(command: str, tmp_path: Path) -> None:
    """wrap/conform holding a key are not dumpable (PR_GET_DUMPABLE after the run), so no
    other process of the user reads their memory or writes to their stdin through /proc.
    Unfenced, they stay dumpable."""
    for fence, seen in ((["--fence"], "dumpable 0"), ([], "dumpable 1")):
        result = subprocess.run(
            [sys.executable, "-c", _DUMPABLE_DRIVER, command, *fence, "--", "true"],
            input=b"",
            capture_output=True,
            cwd=tmp_path,
            check=False,
            timeout=120,
        )
        assert seen in result.stderr.decode().splitlines(), (fence, result.stderr)
