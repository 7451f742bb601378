"""wrap, conform, parse and emit, run as real processes around real adapters (shell and Python)."""

from __future__ import annotations

import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any
from unittest import mock

import jsonschema
import pytest

from bernstein_signals import VOCABULARY_VERSION, completed, failed, parse_signal, read_plan
from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.tools.commands.parse import RECORD_SCHEMA
from bernstein_signals_toolkit.tools.validate import report as report_module

HERE = Path(__file__).resolve().parents[2]
ADAPTERS = {
    "python": [sys.executable, str(HERE / "adapters" / "python_adapter.py")],
    "shell": ["sh", str(HERE / "adapters" / "shell_adapter.sh")],
}
CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]
ANSWERS = ["--answer-id", "q-1=yes", "--answer", "main"]
REPLIES = b'{"answer":"yes","in_reply_to":"q-1"}\n{"answer":"main","in_reply_to":null}\n'


def _cli(
    *args: str, stdin: bytes = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, cwd=cwd, check=False, timeout=120
    )


def _one_line_error(result: subprocess.CompletedProcess[bytes], status: int, text: str) -> None:
    assert result.returncode == status, result.stderr
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("bernstein-signals: error: ")
    assert text in lines[0]


# ---------------------------------------------------------------------------
# conform
# ---------------------------------------------------------------------------


def _conform(adapter: str, mode: str, cwd: Path, *options: str) -> tuple[int, Any, str]:
    result = _cli("conform", "--format", "json", *options, "--", *ADAPTERS[adapter], mode, cwd=cwd)
    document = json.loads(result.stdout)
    return result.returncode, document["files"][0], result.stderr.decode()


def _codes(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d["code"], d["severity"]) for d in report["diagnostics"]]


def _check_plan(cwd: Path, report: dict[str, Any]) -> None:
    [ready] = [s for s in report["signals"] if s["kind"] == "PLAN_READY"]
    signal = parse_signal(ready["raw_line"])
    assert signal is not None
    plan = read_plan(cwd, signal)
    assert "migrate: yes" in plan
    assert "branch: main" in plan


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("completed", ("COMPLETED", [], "exit 0")),
        ("failed", ("FAILED", [], "exit 1")),
        ("none", (None, [("BS301", "warning")], "exit 0")),
        ("killed", (None, [("BS301", "warning")], "signal KILL")),
        ("binary", (None, [("BS301", "warning")], "exit 3")),
        ("bigline", ("COMPLETED", [("BS002", "warning")], "exit 0")),
    ],
)
def test_conform_answers_both_questions_and_reports_every_ending(
    adapter: str,
    mode: str,
    expected: tuple[str | None, list[tuple[str, str]], str],
    tmp_path: Path,
) -> None:
    terminal, codes, outcome = expected
    status, report, stderr = _conform(adapter, mode, tmp_path, *ANSWERS)
    assert status == 0, stderr
    assert _codes(report) == codes
    assert report["counts"]["QUESTION"] == 2
    assert report["counts"]["PLAN_READY"] == 1
    questions = [s["payload"] for s in report["signals"] if s["kind"] == "QUESTION"]
    assert [q.get("id") for q in questions] == ["q-1", None]
    kinds = [s["kind"] for s in report["signals"]]
    assert kinds[-1] == (terminal or "PLAN_READY")
    assert report["missing_terminal_signal"] == ([] if terminal else [report["run_id"]])
    assert f"conform: {outcome}, 2 answer(s) given" in stderr
    _check_plan(tmp_path, report)


def _gone(pid: int) -> bool:
    """Whether a process no longer runs (a zombie waiting for its reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in {"Z", "X"}


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_conform_kills_the_whole_group_of_a_hanging_adapter(adapter: str, tmp_path: Path) -> None:
    status, report, stderr = _conform(adapter, "hang", tmp_path, *ANSWERS, "--timeout", "2")
    assert status == 1
    assert ("BS401", "error") in _codes(report)
    assert report["passed"] is False
    assert "conform: killed after the timeout" in stderr
    sleeper = int((tmp_path / ".sdd" / "sleeper.pid").read_text())
    for _ in range(600):  # a generous bound: the kill is immediate, reaping may lag
        if _gone(sleeper):
            break
        select.select([], [], [], 0.05)
    assert _gone(sleeper)


def test_conform_closes_stdin_when_answers_run_out(tmp_path: Path) -> None:
    status, report, stderr = _conform("shell", "completed", tmp_path, "--answer-id", "q-1=no")
    assert status == 1  # the second question went unanswered: BS403, an error
    assert report["counts"]["QUESTION"] == 2
    assert ("BS403", "error") in _codes(report)
    assert report["adapter"] == {
        "exit_status": 4,
        "answers": [
            {"line": report["adapter"]["answers"][0]["line"], "in_reply_to": "q-1", "answer": "no"}
        ],
    }
    assert "stdin closed" in stderr  # the adapter saw end of file at its second question
    assert "conform: exit 4, 1 answer(s) given" in stderr
    status, report, stderr = _conform("python", "completed", tmp_path)
    assert "QuestionAborted" in stderr
    assert report["counts"]["QUESTION"] == 1


_TWICE = (
    'printf \'%s\\n\' \'BERNSTEIN:QUESTION {"id":"q","question":"a?"}\';'
    'printf \'%s\\n\' \'BERNSTEIN:QUESTION {"id":"q","question":"b?"}\';'
    "printf 'BERNSTEIN:COMPLETED\\n'"
)


def test_conform_makes_an_id_reused_while_unanswered_an_error(tmp_path: Path) -> None:
    result = _cli("conform", "--format", "json", "--", "sh", "-c", _TWICE, cwd=tmp_path)
    assert result.returncode == 1
    report = json.loads(result.stdout)["files"][0]
    assert _codes(report) == [("BS403", "error"), ("BS305", "error"), ("BS403", "error")]
    assert "still unanswered" in report["diagnostics"][1]["message"]
    assert 'QUESTION with id "q" left unanswered' in report["diagnostics"][0]["message"]
    # Answered in time, the same id may come again, and take its next --answer-id.
    for answers in (
        ["--answer-id", "q=x", "--answer", "y"],
        ["--answer-id", "q=x", "--answer-id", "q=y"],
    ):
        result = _cli("conform", *answers, "--format", "json", "--", "sh", "-c", _TWICE)
        assert result.returncode == 0, result.stdout
        given = json.loads(result.stdout)["files"][0]["adapter"]["answers"]
        assert given == [
            {"line": 1, "in_reply_to": "q", "answer": "x"},
            {"line": 2, "in_reply_to": "q", "answer": "y"},
        ]
        assert b"2 answer(s) given" in result.stderr


@pytest.mark.parametrize(
    ("script", "options", "codes"),
    [
        ("exit 0", ["--expect-exit", "0"], [("BS301", "warning")]),
        ("exit 3", ["--expect-exit", "0"], [("BS301", "warning"), ("BS404", "error")]),
        ("kill -9 $$", ["--expect-exit", "137"], [("BS301", "warning")]),
        ("echo BERNSTEIN:COMPLETED", ["--expect-kind", "COMPLETED"], []),
        (
            "echo BERNSTEIN:FAILED; echo BERNSTEIN:COMPLETED",
            ["--expect-kind", "COMPLETED"],
            [("BS405", "error"), ("BS304", "error")],
        ),
        ("echo x", ["--expect-kind", "FAILED"], [("BS301", "warning"), ("BS405", "error")]),
    ],
)
def test_conform_expectations_fail_the_run(
    script: str, options: list[str], codes: list[tuple[str, str]]
) -> None:
    """An adapter that dies early, or ends the wrong way, fails the run a CI user asked for."""
    result = _cli("conform", *options, "--format", "json", "--", "sh", "-c", script)
    report = json.loads(result.stdout)["files"][0]
    assert sorted(_codes(report)) == sorted(codes)
    assert result.returncode == (1 if any(severity == "error" for _, severity in codes) else 0)
    assert report["adapter"]["exit_status"] == {"exit 3": 3, "kill -9 $$": 137}.get(script, 0)


def test_conform_text_output_and_usage_errors(tmp_path: Path) -> None:
    result = _cli("conform", "--", *ADAPTERS["shell"], "none", stdin=b"", cwd=tmp_path)
    assert result.returncode == 1  # its question went unanswered
    assert b"warning[BS301] MissingTerminalSignal" in result.stdout
    assert b"error[BS403] QUESTION" in result.stdout
    # the place is named in words (the run is no file an editor opens at path:line:col)
    findings = result.stdout.decode().splitlines()
    place = re.compile(r"stdout line \d+, column \d+: (error|warning|information)\[BS\d{3}\] ")
    assert findings
    assert all(place.match(line) for line in findings), findings
    assert b"; 1 signal(s): " in result.stderr  # a run is no "1 file(s)"
    _one_line_error(_cli("conform", "--", "no-such-adapter-xyz"), 127, "command not found")
    _one_line_error(_cli("conform"), 2, "no command given")
    bad = _cli("conform", "--answer-id", "novalue", "--", "true")
    assert bad.returncode == 2
    assert b"expected ID=TEXT" in bad.stderr
    bad_kind = _cli("conform", "--expect-kind", "QUESTION", "--", "true")
    _one_line_error(bad_kind, 2, "--expect-kind 'QUESTION' is not a terminal kind")
    bad_exit = _cli("conform", "--expect-exit", "256", "--", "true")
    assert bad_exit.returncode == 2
    assert b"an exit status is 0 to 255" in bad_exit.stderr


# ---------------------------------------------------------------------------
# wrap
# ---------------------------------------------------------------------------


def _wrapped(reason: str | None = None) -> bytes:
    """The line wrap appends: the constructors' line, stamped with the vocabulary version."""
    return (completed() if reason is None else failed(reason=reason)).encode() + b"\n"


@pytest.mark.parametrize(
    ("script", "stdout", "status"),
    [
        ("printf 'out\\n'; printf 'err\\n' >&2", b"out\n" + _wrapped(), 0),
        ("printf x; exit 3", b"x\n" + _wrapped("exit 3"), 3),
        ("", _wrapped(), 0),
        (
            'printf \'BERNSTEIN:FAILED {"reason":"own"}\\n\'; exit 1',
            b'BERNSTEIN:FAILED {"reason":"own"}\n',
            1,
        ),
        ("printf 'BERNSTEIN:COMPLETED'", b"BERNSTEIN:COMPLETED", 0),
        ("printf 'a\\n'; kill -KILL $$", b"a\n" + _wrapped("signal KILL"), 137),
    ],
)
def test_wrap_appends_a_terminal_only_when_missing(script: str, stdout: bytes, status: int) -> None:
    result = _cli("wrap", "--", "sh", "-c", script)
    assert (result.stdout, result.returncode) == (stdout, status)
    assert result.stderr == (b"err\n" if "err" in script else b"")


def test_wrap_relays_binary_and_a_ten_megabyte_line_byte_for_byte() -> None:
    script = (
        "import sys\n"
        "out = sys.stdout.buffer\n"
        "out.write(bytes(range(256)) * 64)\n"
        "out.write(b'\\n' + b'y' * (10 << 20) + b'\\n')\n"
        "out.write(b'\\x00\\xff tail')\n"
        "sys.stderr.buffer.write(bytes(range(255, -1, -1)))\n"
    )
    result = _cli("wrap", sys.executable, "-c", script)
    body = bytes(range(256)) * 64 + b"\n" + b"y" * (10 << 20) + b"\n\x00\xff tail"
    assert result.stdout == body + b"\n" + _wrapped()
    assert result.stderr == bytes(range(255, -1, -1))
    assert result.returncode == 0


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
@pytest.mark.parametrize(
    ("mode", "appended", "status"),
    [
        ("completed", None, 0),
        ("none", _wrapped(), 0),
        ("killed", _wrapped("signal KILL"), 137),
        ("binary", b"\n" + _wrapped("exit 3"), 3),
    ],
)
def test_wrap_around_the_adapters(
    adapter: str, mode: str, appended: bytes | None, status: int, tmp_path: Path
) -> None:
    result = _cli("wrap", "--", *ADAPTERS[adapter], mode, stdin=REPLIES, cwd=tmp_path)
    assert result.returncode == status, result.stderr
    assert b"answers: yes main\n" in result.stdout
    if appended is None:
        assert result.stdout.endswith(b"answers: yes main\nBERNSTEIN:COMPLETED\n")
    else:
        assert result.stdout.endswith(appended)
    assert result.stdout.count(b"BERNSTEIN:COMPLETED") + result.stdout.count(b"FAILED") == 1


_TRAP = (
    "import signal, sys, time\n"
    "def stop(number, frame):\n"
    "    print('got', signal.Signals(number).name, flush=True)\n"
    "    sys.exit(5)\n"
    "signal.signal(signal.SIGINT, stop)\n"
    "signal.signal(signal.SIGTERM, stop)\n"
    "print('ready', flush=True)\n"
    "time.sleep(120)\n"
)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_wrap_forwards_sigterm_and_sigint(number: signal.Signals) -> None:
    """The command handles the signal and exits 5: the run still ends as interrupted."""
    with subprocess.Popen(
        [*CLI, "wrap", sys.executable, "-c", _TRAP],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        try:
            assert process.stdout is not None
            assert process.stdout.readline() == b"ready\n"
            process.send_signal(number)
            out, err = process.communicate(timeout=60)
        finally:
            process.kill()
    reason = number.name.removeprefix("SIG")
    assert out == f"got {number.name}\n".encode() + _wrapped(f"signal {reason}")
    assert process.returncode == 128 + number, err


def test_wrap_errors() -> None:
    _one_line_error(_cli("wrap", "--", "no-such-command-xyz"), 127, "command not found")
    _one_line_error(_cli("wrap", "--", str(HERE)), 126, "permission denied")
    _one_line_error(_cli("wrap"), 2, "no command given")


# ---------------------------------------------------------------------------
# parse
# ---------------------------------------------------------------------------

_STREAM = (
    b"starting\n"
    b'BERNSTEIN:QUESTION {"id":"q-1","question":"Apply?"}\n'
    b"\xff\xfe binary noise\n"
    b'BERNSTEIN:PLAN_READY {"path":".sdd/plans/a.md"}\r\n'
    b"BERNSTEIN:COMPLETED"
)


def test_parse_jsonl_records_follow_the_published_schema(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    log.write_bytes(_STREAM)
    result = _cli("parse", str(log))
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.decode().splitlines()]
    schema = json.loads(RECORD_SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for record in records:
        jsonschema.Draft202012Validator(schema).validate(record)
    assert [(r["line"], r["kind"]) for r in records] == [
        (2, "QUESTION"),
        (4, "PLAN_READY"),
        (5, "COMPLETED"),
    ]
    assert records[1] == {
        "input": str(log),
        "line": 4,
        "kind": "PLAN_READY",
        "payload": {"path": ".sdd/plans/a.md"},
        "raw_line": 'BERNSTEIN:PLAN_READY {"path":".sdd/plans/a.md"}',
    }
    # Deterministic by default; --timestamps adds a time to each record.
    assert _cli("parse", str(log)).stdout == result.stdout
    stamped = [
        json.loads(line) for line in _cli("parse", "--timestamps", str(log)).stdout.splitlines()
    ]
    for record in stamped:
        jsonschema.Draft202012Validator(schema).validate(record)
        assert record.pop("time").endswith("Z")
    assert stamped == records


def test_parse_cloudevents(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    log.write_bytes(_STREAM)
    events = [
        json.loads(line)
        for line in _cli("parse", "--format", "cloudevents", "-", stdin=_STREAM).stdout.splitlines()
    ]
    assert events[0] == {
        "specversion": "1.0",
        "type": "dev.bernstein.signal.question",
        "source": "stdin:",
        "id": "2",
        "datacontenttype": "application/json",
        "data": {"id": "q-1", "question": "Apply?"},
    }
    assert [e["type"] for e in events] == [
        "dev.bernstein.signal.question",
        "dev.bernstein.signal.plan_ready",
        "dev.bernstein.signal.completed",
    ]
    assert all("time" not in event for event in events)
    from_file = _cli("parse", "--format", "cloudevents", str(log)).stdout.splitlines()
    assert json.loads(from_file[0])["source"] == str(log)
    shared = _cli(
        "parse",
        "--format",
        "cloudevents",
        "--source",
        "urn:run:7",
        "--timestamps",
        str(log),
        str(log),
    ).stdout.splitlines()
    ids = [(json.loads(line)["source"], json.loads(line)["id"]) for line in shared]
    assert len(set(ids)) == len(ids) == 6
    assert all("T" in json.loads(line)["time"] for line in shared)


def test_parse_writes_each_signal_as_it_arrives() -> None:
    with subprocess.Popen(
        [*CLI, "parse"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        try:
            assert process.stdin is not None
            assert process.stdout is not None
            process.stdin.write(b"noise\nBERNSTEIN:COMPLETED\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, "parse held the record back"
            assert json.loads(process.stdout.readline())["kind"] == "COMPLETED"
            process.stdin.close()
            assert process.wait(timeout=60) == 0
        finally:
            process.kill()


def test_parse_errors(tmp_path: Path) -> None:
    _one_line_error(_cli("parse", str(tmp_path / "missing.log")), 2, "missing.log: cannot read")
    _one_line_error(_cli("parse", str(tmp_path)), 2, "is a directory")
    _one_line_error(_cli("parse", "-", "-"), 2, "stdin (-) can be read only once")


# ---------------------------------------------------------------------------
# emit
# ---------------------------------------------------------------------------


def test_emit_prints_one_validated_line() -> None:
    result = _cli("emit", "QUESTION", "question=Apply?", 'options:=["yes","no"]', "id=q-1")
    assert (
        result.stdout
        == b'BERNSTEIN:QUESTION {"id":"q-1","options":["yes","no"],"question":"Apply?"}\n'
    )
    assert _cli("emit", "COMPLETED").stdout == b"BERNSTEIN:COMPLETED\n"
    _one_line_error(_cli("emit", "completed"), 2, "KIND must be ALL-CAPS")  # as bernstein_emit
    steps = _cli("emit", "PLAN_READY", "path=.sdd/plans/a.md", "steps:=4", "note=a=b")
    assert (
        steps.stdout == b'BERNSTEIN:PLAN_READY {"note":"a=b","path":".sdd/plans/a.md","steps":4}\n'
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["QUESTION"], "invalid QUESTION payload: /question"),
        (["PLAN_READY", "path=../etc/passwd"], "invalid PLAN_READY payload: /path"),
        (["QUESTION", "question=a", "options:=[]"], "/options"),
        (["FAILED", "reason:=nope"], "reason:= is not JSON"),
        (["FAILED", "reason"], "expected key=value or key:=JSON"),
        (["FAILED", "=x"], "the key is empty"),
        (["FAILED", "reason=a", "reason=b"], "'reason' is given twice"),
        (["NOPE"], "unknown kind 'NOPE'"),
        (["COMPLETED", "x:=NaN"], "invalid COMPLETED payload"),
    ],
)
def test_emit_refuses_bad_payloads_with_nothing_on_stdout(args: list[str], message: str) -> None:
    _one_line_error(_cli("emit", *args), 2, message)


def test_emit_output_is_what_conform_expects(tmp_path: Path) -> None:
    """A shell adapter using `emit` for every line passes conform with no diagnostics."""
    emit = " ".join(CLI) + " emit"
    script = (
        f"{emit} QUESTION question=Go? id=q-1 && read -r reply && "
        f"{emit} PLAN_DRAFT 'markdown=# Plan' path=.sdd/p.md && "
        f"{emit} PLAN_READY path=.sdd/p.md && {emit} COMPLETED"
    )
    result = _cli("conform", "--answer-id", "q-1=ok", "--", "sh", "-c", script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == b""
    assert b"4 signal(s): 0 error(s), 0 warning(s), 0 information" in result.stderr


def test_conform_transcript_lists_the_signals_in_order(tmp_path: Path) -> None:
    script = 'printf \'noise\\nBERNSTEIN:BLOCKED {"reason":"x"}\\nBERNSTEIN:COMPLETED\\n\''
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bernstein_signals_toolkit.cli",
            "conform",
            "--transcript",
            "--",
            "sh",
            "-c",
            script,
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    # Each line: the stdout line number, the signal; nothing that reads as script:line.
    lines = result.stdout.decode().splitlines()
    found = [re.fullmatch(r"stdout line (\d+): (BERNSTEIN:.*)", line) for line in lines]
    assert [
        match.groups() if match else line for match, line in zip(found, lines, strict=True)
    ] == [
        ("2", 'BERNSTEIN:BLOCKED {"reason":"x"}'),
        ("3", "BERNSTEIN:COMPLETED"),
    ]


# ---------------------------------------------------------------------------
# Signals to wrap and conform reach the whole group (issue 10, item 8)
# ---------------------------------------------------------------------------

# A group with a process that ignores every forwarded signal (only SIGKILL ends
# it), a background sleep (ignores SIGINT, as background jobs of sh do) and the
# shell itself in a foreground sleep.
_GROUP = (
    "sh -c 'trap \"\" INT TERM HUP; exec sleep 60' & echo $! >> pids; "
    "sleep 60 & echo $! >> pids; echo $$ >> pids; "
    'printf \'BERNSTEIN:BLOCKED {"reason":"busy"}\\n\'; : > ready; sleep 60'
)


def _wait_for(path: Path, timeout: float = 30.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if path.exists():
            return
        select.select([], [], [], 0.05)
    raise AssertionError(f"{path} never appeared")


def _all_gone(pids: list[int]) -> list[int]:
    """The pids still running after a generous wait (reaping by init may lag)."""
    for _ in range(200):
        running = [pid for pid in pids if not _gone(pid)]
        if not running:
            return []
        select.select([], [], [], 0.05)
    return running


@pytest.mark.timeout(90)
@pytest.mark.parametrize("command", ["wrap", "conform"])
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_the_whole_group_and_exits_128_plus_n(
    command: str, number: signal.Signals, tmp_path: Path
) -> None:
    options = ["--format", "json"] if command == "conform" else []
    with subprocess.Popen(
        [*CLI, command, *options, "--", "sh", "-c", _GROUP],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        try:
            _wait_for(tmp_path / "ready")
            process.send_signal(number)
            out, err = process.communicate(timeout=60)
        finally:
            process.kill()
    pids = [int(line) for line in (tmp_path / "pids").read_text().split()]
    assert len(pids) == 3
    assert _all_gone(pids) == [], "a process of the group survived"
    assert process.returncode == 128 + number, err
    assert b"Traceback" not in err
    name = number.name.removeprefix("SIG")
    if command == "wrap":
        assert out == b'BERNSTEIN:BLOCKED {"reason":"busy"}\n' + _wrapped(f"signal {name}")
    else:
        report = json.loads(out)["files"][0]
        assert report["counts"]["BLOCKED"] == 1
        assert ("BS402", "error") in _codes(report)
        assert ("BS401", "error") not in _codes(report)
        assert report["diagnostics"][-1]["code"] == "BS402"
        assert f"interrupted by SIG{name}" in report["diagnostics"][-1]["message"]
        assert report["passed"] is False
        [summary] = err.decode().splitlines()
        assert summary.startswith(f"conform: interrupted by SIG{name}")


# ---------------------------------------------------------------------------
# Answers never block conform (issue 10, item 7)
# ---------------------------------------------------------------------------

_ASK = "BERNSTEIN:QUESTION " + json.dumps({"question": "Big?", "id": "q"})
_NEVER_READS = f"printf '%s\\n' '{_ASK}'; sleep 60"
_READS_LATE = (
    "import sys, time\n"
    f"print({_ASK!r}, flush=True)\n"
    "time.sleep(1)\n"
    "reply = sys.stdin.buffer.readline()\n"
    'print(\'BERNSTEIN:BLOCKED {"reason":"got %d"}\' % len(reply), flush=True)\n'
    "print('BERNSTEIN:COMPLETED', flush=True)\n"
)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("size", [100_000, 130_000])
def test_conform_timeout_fires_while_an_answer_waits_to_be_written(
    size: int, tmp_path: Path
) -> None:
    answer = "x" * size
    result = subprocess.run(
        [*CLI, "conform", "--format", "json", "--timeout", "2", "--answer", answer, "--",
         "sh", "-c", _NEVER_READS],
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, check=False, timeout=50,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)["files"][0]
    assert ("BS401", "error") in _codes(report)
    assert b"conform: killed after the timeout, 1 answer(s) given" in result.stderr


@pytest.mark.timeout(60)
def test_conform_delivers_a_big_answer_to_an_adapter_that_reads_late(tmp_path: Path) -> None:
    answer = "y" * 130_000  # twice a pipe buffer; one argument holds at most 128 KiB
    result = subprocess.run(
        [*CLI, "conform", "--transcript", "--answer-id", f"q={answer}", "--",
         sys.executable, "-c", _READS_LATE],
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, check=False, timeout=50,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    reply = json.dumps({"answer": answer, "in_reply_to": "q"}, separators=(",", ":"))
    assert b"exit 0, 1 answer(s) given" in result.stderr
    assert result.stdout.decode().endswith(": BERNSTEIN:COMPLETED\n")
    assert f'BERNSTEIN:BLOCKED {{"reason":"got {len(reply) + 1}"}}' in result.stdout.decode()


# ---------------------------------------------------------------------------
# Arguments that go into a signal or reply are checked up front (issue 10, crashes)
# ---------------------------------------------------------------------------

_NOT_UTF8 = "\udcff"  # how Python sees the byte 0xff in argv


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["conform", "--answer", _NOT_UTF8, "--", "true"], "argument --answer"),
        (["conform", "--answer", "ok\udcc3", "--", "true"], "argument --answer"),
        (["conform", "--answer-id", f"q={_NOT_UTF8}", "--", "true"], "argument --answer-id"),
        (["conform", "--answer-id", f"q{_NOT_UTF8}=x", "--", "true"], "argument --answer-id"),
        (["emit", "FAILED", f"reason={_NOT_UTF8}"], "argument key=value"),
        (["emit", "COMPLETED", f"k{_NOT_UTF8}=x"], "argument key=value"),
        (["emit", f"COMPLETED{_NOT_UTF8}"], "argument KIND"),
    ],
)
def test_arguments_that_are_not_utf8_are_a_usage_error(args: list[str], option: str) -> None:
    result = subprocess.run(
        [*CLI, *(a.encode("utf-8", "surrogateescape") for a in args)],
        stdin=subprocess.DEVNULL, capture_output=True, check=False, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stdout == b""
    [line] = result.stderr.decode().splitlines()
    assert line.startswith(f"bernstein-signals {args[0]}: error: {option}")
    assert "not valid UTF-8" in line


def test_conform_names_a_run_whose_command_is_not_utf8_in_valid_utf8(tmp_path: Path) -> None:
    command = [*CLI, "conform", "--format", "json", "--", "sh", "-c", "echo BERNSTEIN:COMPLETED"]
    result = subprocess.run(
        [*command, b"x\xff"], cwd=tmp_path, stdin=subprocess.DEVNULL,
        capture_output=True, check=False, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.decode("utf-8"))["files"][0]
    assert report["run_id"].endswith("'x\\xff'")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("argv", [["wrap", "--", "true"], ["wrap", "--", "no-such-command-xyz"]])
def test_wrap_puts_signal_handlers_back(argv: list[str]) -> None:
    """In process, after a run (or a command that cannot start): handlers and wakeup fd restored."""
    from bernstein_signals_toolkit.cli import main

    before = {number: signal.getsignal(number) for number in _FORWARDED}
    main(argv)
    assert {number: signal.getsignal(number) for number in _FORWARDED} == before
    assert signal.set_wakeup_fd(-1) == -1


_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@pytest.mark.timeout(60)
def test_wrap_kills_the_group_after_the_grace_even_while_its_own_stdout_is_full(
    tmp_path: Path,
) -> None:
    """Nobody reads wrap's stdout, so wrap is blocked writing; the SIGKILL still comes."""
    script = "trap '' TERM; echo $$ > pid; : > ready; exec yes"
    with subprocess.Popen(
        [*CLI, "wrap", "--", "sh", "-c", script],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        try:
            _wait_for(tmp_path / "ready")
            pid = int((tmp_path / "pid").read_text())
            select.select([], [], [], 0.5)  # the pipes fill up: wrap blocks in its write
            process.send_signal(signal.SIGTERM)
            survived = _all_gone([pid])  # waits up to 10 s; the grace is 3 s
            assert process.stdout is not None
            while process.stdout.read(1 << 20):
                pass
            assert process.wait(timeout=30) == 128 + signal.SIGTERM
        finally:
            process.kill()
    assert survived == [], "yes ignores TERM: only the SIGKILL after the grace ends it"


# ---------------------------------------------------------------------------
# conform keeps constant memory however long the run (issue 10, item 9)
# ---------------------------------------------------------------------------

_CHATTY_ADAPTER = (
    "import sys\n"
    "filler = 'x' * 900\n"
    "for n in range(int(sys.argv[1])):\n"
    "    kind = n % 5\n"
    "    if kind == 0:\n"
    '        line = \'BERNSTEIN:QUESTION {"question":"%s","id":"q%d"}\' % (filler, n)\n'
    "    elif kind == 1:\n"
    '        line = \'BERNSTEIN:PLAN_DRAFT {"path":".sdd/p%d.md","n":"%s"}\' % (n, filler)\n'
    "    elif kind == 2:\n"
    '        line = \'BERNSTEIN:blocked {"reason":"%s"}\' % filler\n'
    "    elif kind == 3:\n"
    '        line = \'BERNSTEIN:COMPLETED {"summary":"%s"}\' % filler\n'
    "    else:\n"
    "        line = 'log line %d %s' % (n, filler)\n"
    "    print(line)\n"
)


def _conform_peak(lines: int, options: list[str]) -> int:
    """Peak traced memory of an in-process conform over an adapter printing ``lines`` lines."""
    with open(os.devnull, "wb") as null_out, open(os.devnull, "wb") as null_err:
        out = io.TextIOWrapper(null_out, encoding="utf-8", write_through=True)
        err = io.TextIOWrapper(null_err, encoding="utf-8", write_through=True)
        argv = ["conform", *options, "--", sys.executable, "-c", _CHATTY_ADAPTER, str(lines)]
        with mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", err):
            tracemalloc.start()
            try:
                status = main(argv)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
    assert status == 1  # blocked in lower case, a second terminal: errors
    return peak


@pytest.mark.timeout(300)
@pytest.mark.parametrize("options", [["--format", "json"], ["--transcript"]])
def test_conform_memory_does_not_grow_with_the_run(
    options: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A smaller tracking bound, so that both runs fill their tables and stay quick.
    monkeypatch.setattr(report_module, "MAX_TRACKED", 200)
    small_count = 2_000
    small = _conform_peak(small_count, options)
    big = _conform_peak(small_count * 10, options)
    assert big < small * 1.5, f"peak {small:,} B for {small_count:,} lines, {big:,} B for 10x"


@pytest.mark.parametrize(
    "content",
    [
        '{"in_reply_to": "q", "answer": "x"}\n\n{"in_reply_to": null, "answer": "y"}\n',
        '{"in_reply_to": "q", "answer": "x"}\n{"in_reply_to": "q", "answer": "y"}\n',
        '{"q": ["x", "y"]}\n',
        '{"q": "x"}',
    ],
)
def test_conform_takes_answers_from_a_file(content: str, tmp_path: Path) -> None:
    answers = tmp_path / "answers"
    answers.write_text(content, encoding="utf-8")
    result = _cli(
        "conform", "--answers", str(answers), "--format", "json", "--", "sh", "-c", _TWICE
    )
    report = json.loads(result.stdout)["files"][0]
    given = [(a["in_reply_to"], a["answer"]) for a in report["adapter"]["answers"]]
    if content == '{"q": "x"}':  # one answer for two questions: the second is unanswered
        assert result.returncode == 1
        assert given == [("q", "x")]
        assert _codes(report) == [("BS403", "error")]
    else:
        assert result.returncode == 0, report["diagnostics"]
        assert given == [("q", "x"), ("q", "y")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json\n", ":1: not a reply line"),
        ('{"in_reply_to": "q", "answer": "x"}\n{"answer": 3}\n', ":2: not a reply line"),
        ('{"q": 3}', 'id "q" needs an answer string'),
        ('{"q": []}', 'id "q" needs an answer string'),
        (b"\xff".decode("latin-1"), "not UTF-8 at byte 0"),
    ],
)
def test_conform_refuses_a_bad_answers_file(content: str, message: str, tmp_path: Path) -> None:
    answers = tmp_path / "answers"
    answers.write_bytes(
        content.encode("latin-1") if message.startswith("not UTF-8") else content.encode()
    )
    _one_line_error(_cli("conform", "--answers", str(answers), "--", "true"), 2, message)
    _one_line_error(
        _cli("conform", "--answers", str(tmp_path / "none"), "--", "true"), 2, "--answers"
    )


def test_conform_writes_sarif_and_github_annotations_as_validate_does() -> None:
    sarif = _cli("conform", "--format", "sarif", "--", "sh", "-c", _TWICE)
    assert sarif.returncode == 1
    document = json.loads(sarif.stdout)
    assert document["version"] == "2.1.0"
    rules = [result["ruleId"] for result in document["runs"][0]["results"]]
    assert sorted(rules) == ["BS305", "BS403", "BS403"]
    github = _cli("conform", "--format", "github", "--", "sh", "-c", _TWICE)
    assert github.returncode == 1
    lines = github.stdout.decode().splitlines()
    assert (
        sum(
            line.startswith("::error ") and "title=BS403 question-unanswered" in line
            for line in lines
        )
        == 2
    )


def _bumped(version: str, part: int) -> str:
    core = version.split("+", maxsplit=1)[0].split("-", maxsplit=1)[0]
    numbers = [int(n) for n in core.split(".")]
    numbers[part] += 1
    return ".".join(str(n) for n in (numbers[: part + 1] + [0] * (2 - part)))


@pytest.mark.parametrize(
    ("stamped", "codes"),
    [
        (VOCABULARY_VERSION, []),
        (_bumped(VOCABULARY_VERSION, 0), [("BS406", "error")]),
        (_bumped(VOCABULARY_VERSION, 1), [("BS407", "information")]),
        (_bumped(VOCABULARY_VERSION, 2), []),
        (None, []),  # a producer older than the field, or one that left it out
    ],
)
def test_conform_compares_the_vocabulary_the_terminal_names(
    stamped: str | None, codes: list[tuple[str, str]]
) -> None:
    for end in (completed(vocabulary=stamped), failed(reason="r", vocabulary=stamped)):
        result = _cli("conform", "--format", "json", "--", "printf", "%s\\n", end)
        report = json.loads(result.stdout)["files"][0]
        assert _codes(report) == codes
        assert result.returncode == (1 if codes and codes[0][1] == "error" else 0)
        if codes:
            assert stamped in report["diagnostics"][0]["message"]
            assert VOCABULARY_VERSION in report["diagnostics"][0]["message"]
