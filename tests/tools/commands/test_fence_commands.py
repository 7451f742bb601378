"""The fence's command-line surface (issue 17): validate --key-file/--allow-kinds, wrap and conform
--fence/--allow-kinds refusals and the key hand-over on fd 3 (wrap's relay filter:
test_fence_relay.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals import (
    KIND_NOT_ALLOWED,
    REPLAYED_SIGNAL,
    UNAUTHENTICATED_SIGNAL,
    SignalKey,
    SignalMarker,
    key_handover,
)
from bernstein_signals.fence_rules import KEY_FD_MAX, KEY_FD_VARIABLE, KEY_VARIABLE
from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.tools.commands._process import ProcessGroup
from bernstein_signals_toolkit.tools.validate import CODES, conformance_report
from linear_support import assert_linear

KEY = SignalKey.parse("0a1b2c3d4e5f6071:" + "9e" * 32)
OTHER = SignalKey.parse("0a1b2c3d4e5f6071:" + "9f" * 32)
CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*CLI, *args], stdin=subprocess.DEVNULL, capture_output=True, cwd=cwd, check=False
    )


def _one_line_error(result: subprocess.CompletedProcess[bytes], *words: str) -> str:
    assert result.returncode == 2, result.stderr
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0]
    return lines[0]


def test_the_binding_and_the_code_table_name_the_same_codes() -> None:
    assert CODES[UNAUTHENTICATED_SIGNAL].name == "unauthenticated-signal"
    assert CODES[REPLAYED_SIGNAL].name == "replayed-signal"
    assert CODES[KIND_NOT_ALLOWED].name == "kind-not-allowed"


# ---------------------------------------------------------------------------
# validate --key-file / --allow-kinds
# ---------------------------------------------------------------------------


def _log(tmp_path: Path) -> tuple[Path, Path]:
    marker = SignalMarker(KEY)
    first = marker.mark("QUESTION", {"id": "q-1", "question": "Go?"})
    lines = [
        first,  # 1
        "BERNSTEIN:COMPLETED",  # 2: not marked
        SignalMarker(OTHER).mark("FAILED", {"reason": "x"}),  # 3: another key, same run
        first,  # 4: replayed
        marker.mark("PLAN_READY", {"path": ".sdd/plans/x.md"}),  # 5
    ]
    log = tmp_path / "run.log"
    log.write_text("\n".join(lines) + "\n")
    key_file = tmp_path / "key"
    key_file.write_text(KEY.text() + "\n")
    return log, key_file


def test_validate_key_file_reports_each_refused_line_and_counts_only_accepted_terminals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, key_file = _log(tmp_path)
    status = main(["validate", "--format", "json", "--key-file", str(key_file), str(log)])
    report = json.loads(capsys.readouterr().out)["files"][0]
    assert status == 1
    found = [(d["line"], d["code"]) for d in report["diagnostics"]]
    assert found == [(2, "BS601"), (3, "BS601"), (4, "BS602"), (5, "BS301"), (5, "BS306")]
    assert [s["kind"] for s in report["signals"]] == ["QUESTION", "PLAN_READY"]
    assert all("_sig" not in s["payload"] for s in report["signals"])
    assert report["missing_terminal_signal"] == [str(log)]
    messages = {d["line"]: d["message"] for d in report["diagnostics"]}
    assert "not marked" in messages[2]
    assert "bad mark" in messages[3]
    assert "sequence number 1" in messages[4]


@pytest.mark.parametrize("form", ["text", "json", "sarif", "github"])
def test_every_format_names_the_fence_codes_and_lines(
    form: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, key_file = _log(tmp_path)
    args = ["validate", "--format", form, "--key-file", str(key_file), "--allow-kinds"]
    main([*args, "QUESTION,COMPLETED", str(log)])
    out = capsys.readouterr().out
    if form == "json":
        found = {(d["line"], d["code"]) for d in json.loads(out)["files"][0]["diagnostics"]}
        assert {(2, "BS601"), (4, "BS602"), (5, "BS603")} <= found
    elif form == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        found = {
            (r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"])
            for r in results
        }
        assert {(2, "BS601"), (4, "BS602"), (5, "BS603")} <= found
    elif form == "github":
        found = {
            (int(line.split("line=")[1].split(",")[0]), line.split("title=")[1][:5])
            for line in out.splitlines()
            if line.startswith("::error ")
        }
        assert {(2, "BS601"), (4, "BS602"), (5, "BS603")} <= found
    else:
        assert f"{log}:2:1: error[BS601]" in out
        assert f"{log}:4:1: error[BS602]" in out
        assert f"{log}:5:1: error[BS603]" in out
    assert KEY.text().split(":")[1] not in out


def test_validate_key_file_errors_are_one_line_and_never_show_the_content(tmp_path: Path) -> None:
    log, _ = _log(tmp_path)
    _one_line_error(_cli("validate", "--key-file", str(tmp_path / "absent"), str(log)), "absent")
    secretish = tmp_path / "bad"
    secretish.write_text("0a1b2c3d4e5f6071:" + "9e" * 31 + "ZZ\n")
    line = _one_line_error(
        _cli("validate", "--key-file", str(secretish), str(log)), "not a signal key"
    )
    assert "9e9e" not in line
    secretish.write_bytes(b"\xff" * 100_000)
    _one_line_error(_cli("validate", "--key-file", str(secretish), str(log)), "larger than")
    secretish.write_bytes(b"\xff" * 100)
    _one_line_error(_cli("validate", "--key-file", str(secretish), str(log)), "not a signal key")
    _one_line_error(
        _cli("validate", "--payload", "COMPLETED", "--key-file", str(secretish), str(log)),
        "--payload",
    )


@pytest.mark.timeout(60)
def test_key_file_that_is_no_regular_file_is_refused_without_waiting(tmp_path: Path) -> None:
    """A FIFO nobody writes would hang open() and read(); a directory or /dev/zero too."""
    log, _ = _log(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (str(fifo), str(tmp_path), "/dev/zero"):
        _one_line_error(_cli("validate", "--key-file", path, str(log)), "not a regular file")


def test_key_file_allows_one_newline_as_a_key_descriptor_does(tmp_path: Path) -> None:
    log, key_file = _log(tmp_path)
    for ending, status in ((b"", 1), (b"\n", 1), (b"\r\n", 2), (b"\n\n", 2), (b" ", 2)):
        key_file.write_bytes(KEY.text().encode() + ending)
        result = _cli("validate", "--key-file", str(key_file), str(log))
        assert result.returncode == status, (ending, result.stderr)


@pytest.mark.parametrize("fence", [["--key-file", "KEY"], ["--allow-kinds", "COMPLETED"]])
def test_lenient_with_the_fence_is_refused(tmp_path: Path, fence: list[str]) -> None:
    """A lenient reading strips the line; the mark covers the canonical line only."""
    _, key_file = _log(tmp_path)
    lenient = tmp_path / "lenient.log"
    marked = SignalMarker(KEY).mark("COMPLETED")
    lenient.write_text("  " + marked + "\t\n")
    fence = [str(key_file) if part == "KEY" else part for part in fence]
    _one_line_error(_cli("validate", "--lenient", *fence, str(lenient)), "--lenient")
    with pytest.raises(ValueError, match="--lenient"):
        conformance_report([marked], key=KEY, lenient=True)
    # Without --lenient the stripped-looking line is refused (BS601), never accepted.
    report = conformance_report(["  " + marked + "\t"], key=KEY)
    assert report.signals == []


def test_allow_kinds_refuses_unknown_kinds_naming_the_valid_ones(tmp_path: Path) -> None:
    log, _ = _log(tmp_path)
    line = _one_line_error(_cli("validate", "--allow-kinds", "COMPLETED,DONE", str(log)), "DONE")
    assert "BLOCKED, COMPLETED, FAILED, PLAN_DRAFT, PLAN_READY, QUESTION" in line
    _one_line_error(_cli("validate", "--allow-kinds", ",", str(log)), "no kind given")
    _one_line_error(_cli("conform", "--allow-kinds", "NOPE", "--", "true"), "NOPE")
    _one_line_error(_cli("wrap", "--allow-kinds", "NOPE", "--", "true"), "NOPE")


@pytest.mark.parametrize("command", ["wrap", "conform"])
def test_fence_with_native_is_refused(command: str) -> None:
    _one_line_error(
        _cli(command, "--fence", "--native", "codex", "--", "codex", "exec"), "--native"
    )


def test_allow_kinds_without_a_key_refuses_other_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    lines = ['BERNSTEIN:PLAN_READY {"path":".sdd/plans/x.md"}', "BERNSTEIN:FAILED"]
    report = conformance_report(lines, allow_kinds=frozenset({"COMPLETED", "FAILED"}))
    assert [(d.line, d.code) for d in report.diagnostics] == [(1, "BS603")]
    assert [str(s.signal.kind) for s in report.signals] == ["FAILED"]


# ---------------------------------------------------------------------------
# The hand-over
# ---------------------------------------------------------------------------


def _fd_is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _low_descriptors() -> dict[int, tuple[int, bool]]:
    return {
        fd: (os.fstat(fd).st_ino, os.get_inheritable(fd))
        for fd in range(3, KEY_FD_MAX + 1)
        if _fd_is_open(fd)
    }


@pytest.mark.timeout(60)
@pytest.mark.parametrize("low_numbers", ["free", "all taken"])
def test_the_key_goes_on_a_socket_and_nothing_of_ours_moves(low_numbers: str) -> None:
    """The command finds the key on the socket its variable names, never in the environment;
    when every number up to KEY_FD_MAX is ours, the socket is moved in the child only."""
    held: list[int] = []
    if low_numbers == "all taken":
        while True:
            spare = os.open(os.devnull, os.O_RDONLY)
            if spare > KEY_FD_MAX:
                os.close(spare)
                break
            held.append(spare)
    before = {
        fd: (os.fstat(fd).st_ino, os.get_inheritable(fd)) for fd in range(3, 10) if _fd_is_open(fd)
    }
    try:
        script = (
            f'fd=${KEY_FD_VARIABLE}; [ -S "/dev/fd/$fd" ] && echo socket;'
            f' IFS= read -r line <&"$fd"; echo "$line"; echo "${{{KEY_VARIABLE}:-none}}"'
        )
        group = ProcessGroup(
            ["sh", "-c", script],
            key=KEY,
            env={**os.environ, KEY_VARIABLE: "a key in the environment"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
        )
        with group as process:
            assert process.stdout is not None
            out = process.stdout.read()
            group.wait()
        after = {
            fd: (os.fstat(fd).st_ino, os.get_inheritable(fd))
            for fd in range(3, 10)
            if _fd_is_open(fd)
        }
        assert after == before
    finally:
        for fd in held:
            os.close(fd)
    assert out.decode().splitlines() == ["socket", KEY.text(), "none"]


def test_the_child_environment_holds_the_fd_number_never_the_key() -> None:
    with key_handover(KEY, {"PATH": "/bin", KEY_VARIABLE: KEY.text()}) as handover:
        env = handover.options["env"]
        assert env == {"PATH": "/bin", KEY_FD_VARIABLE: str(handover.options["pass_fds"][0])}


@pytest.mark.timeout(120)
def test_fenced_validation_time_is_linear_in_the_stream() -> None:
    marker = SignalMarker(KEY)
    block = [
        "plain output line",
        marker.mark("BLOCKED", {"reason": "w"}),
        "BERNSTEIN:COMPLETED",
        SignalMarker(OTHER).mark("FAILED", {"reason": "x"}),
    ]

    def make(n: int) -> Any:
        lines = block * n
        return lambda: conformance_report(lines, key=KEY, allow_kinds=frozenset({"BLOCKED"}))

    assert_linear(make, 100, what="validate --key-file over many lines")
