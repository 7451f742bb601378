"""``wrap --native`` and ``conform --native`` end to end, around fake ``claude``/``codex``
executables (tests/binding/native/fake_cli.py) that replay the upstream fixtures and check
the replies they read on stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import SignalKind, format_signal, parse_signal
from bernstein_signals._native_support import NATIVE_EVENT_TABLE
from bernstein_signals_toolkit.tools.commands._native_run import (
    MAX_EVENT_BYTES,
    NATIVE_CLIS,
    NativeStream,
)
from bernstein_signals_toolkit.tools.runtime_vocabulary import built_in
from binding.native.native_support import FIXTURES, events, lines, mapper_for
from linear_support import assert_linear_or_as_baseline

FAKE = Path(__file__).resolve().parent / "fake_cli.py"
CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]
PROMPT = "Fix the login tests"
ASK_ID = "toolu_01Ask000000000000000000b2"
CLAUDE_STDIO = [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--input-format",
    "stream-json",
    "--permission-prompt-tool",
    "stdio",
]

pytestmark = pytest.mark.timeout(120)


def _program(tmp_path: Path, name: str, file_name: str | None = None) -> str:
    """An executable called ``file_name`` (default ``name``) that runs the fake CLI as ``name``."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    path = folder / (file_name or name)
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" {name} "$@"\n')
    path.chmod(0o755)
    return str(path)


def _run(
    tmp_path: Path, argv: list[str], fixture: str, status: int = 0
) -> subprocess.CompletedProcess[bytes]:
    env = {
        **os.environ,
        "FAKE_FIXTURE": str(FIXTURES / fixture),
        "FAKE_LOG": str(tmp_path / "stdin.log"),
        "FAKE_EXIT": str(status),
        "FAKE_PROMPT": PROMPT,
    }
    return subprocess.run(
        [*CLI, *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env,
        cwd=tmp_path,
        check=False,
        timeout=100,
    )


def _stdin_log(tmp_path: Path) -> list[str]:
    log = tmp_path / "stdin.log"
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def _mapped_lines(fixture: str, *, keep: bool) -> list[str]:
    """The stream as the mapper reads the fixture: signal lines in place of their events."""
    parser = mapper_for(fixture)
    out = []
    for line in lines(fixture):
        if fixture.startswith("codex_") and json.loads(line)["type"] == "thread.started":
            parser.reset()  # a codex thread is a run
        signal = parser.stream_signal_parser(line)
        if signal is not None:
            out.append(format_signal(signal.kind, dict(signal.payload)))
        else:
            out.append(line.rstrip("\n") if keep else "")
    return out


def _conform(
    tmp_path: Path,
    program: str,
    options: list[str],
    args: list[str],
    fixture: str,
    *,
    status: int = 0,
) -> tuple[subprocess.CompletedProcess[bytes], dict[str, Any]]:
    argv = ["conform", "--format", "json", "--native", program, *options, "--"]
    result = _run(tmp_path, [*argv, _program(tmp_path, program), *args], fixture, status)
    assert result.stdout, result.stderr
    return result, json.loads(result.stdout)["files"][0]


def _codes(report: dict[str, Any]) -> list[str]:
    return [d["code"] for d in report["diagnostics"]]


def _kinds(report: dict[str, Any]) -> list[tuple[int, str]]:
    return [(s["line"], s["kind"]) for s in report["signals"]]


# ---------------------------------------------------------------------------
# wrap --native
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "status", "kind"),
    [
        ("codex_reconnect_then_success.jsonl", 0, SignalKind.COMPLETED),
        ("codex_turn_failed.jsonl", 1, SignalKind.FAILED),
        ("claude_success.jsonl", 0, SignalKind.COMPLETED),
        ("claude_max_turns.jsonl", 1, SignalKind.FAILED),
        ("claude_ask_denied_headless.jsonl", 0, SignalKind.COMPLETED),
    ],
)
def test_wrap_relays_the_mapped_stream_with_one_terminal(
    fixture: str, status: int, kind: SignalKind, tmp_path: Path
) -> None:
    program = fixture.split("_", maxsplit=1)[0]
    args = (
        ["exec", "--json", "go"] if program == "codex" else ["-p", "--output-format", "stream-json"]
    )
    argv = ["wrap", "--native", program, "--", _program(tmp_path, program), *args]
    result = _run(tmp_path, argv, fixture, status)
    assert result.returncode == status, result.stderr
    out = result.stdout.decode().splitlines()
    assert out == _mapped_lines(fixture, keep=True)  # line for line: nothing appended
    signals = [s for line in out if (s := parse_signal(line)) is not None]
    assert [s.kind for s in signals if s.is_terminal] == [kind]


def test_wrap_ends_a_native_run_without_its_terminal_event(tmp_path: Path) -> None:
    (tmp_path / "cut.jsonl").write_text("".join(lines("codex_success.jsonl")[:-1]))
    argv = ["wrap", "--native", "codex", "--", _program(tmp_path, "codex"), "exec", "--json"]
    result = _run(tmp_path, argv, str(tmp_path / "cut.jsonl"), 3)
    assert result.returncode == 3
    last = parse_signal(result.stdout.decode().splitlines()[-1])
    assert last is not None
    assert last.kind == SignalKind.FAILED
    assert last.payload["reason"] == "exit 3"


def test_a_second_codex_thread_is_a_second_run(tmp_path: Path) -> None:
    """thread.started resets the mapper: each thread's end is a terminal, so none is lost."""
    argv = ["wrap", "--native", "codex", "--", _program(tmp_path, "codex"), "exec", "--json"]
    result = _run(tmp_path, argv, "codex_multiple_turns.jsonl", 1)
    terminals = [
        s.kind for line in result.stdout.decode().splitlines() if (s := parse_signal(line))
    ]
    assert terminals == [SignalKind.COMPLETED, SignalKind.FAILED]
    _, report = _conform(tmp_path, "codex", [], ["exec", "--json"], "codex_multiple_turns.jsonl")
    assert "BS304" in _codes(report)  # conform says the outcome is ambiguous


# ---------------------------------------------------------------------------
# conform --native
# ---------------------------------------------------------------------------


def test_conform_a_codex_run_with_transient_errors_is_one_completed(tmp_path: Path) -> None:
    fixture = "codex_reconnect_then_success.jsonl"
    result, report = _conform(
        tmp_path, "codex", ["--expect-kind", "COMPLETED"], ["exec", "--json"], fixture
    )
    assert result.returncode == 0, result.stdout
    assert _kinds(report) == [(6, "COMPLETED")]
    assert report["signals"][0]["payload"]["warnings"] == 2
    assert report["diagnostics"] == []
    assert report["lines"] == len(lines(fixture))


def test_conform_a_failed_codex_run(tmp_path: Path) -> None:
    fixture = "codex_turn_failed.jsonl"
    options = ["--expect-kind", "FAILED", "--expect-exit", "1"]
    result, report = _conform(tmp_path, "codex", options, ["exec", "--json"], fixture, status=1)
    assert result.returncode == 0
    assert _kinds(report) == [(9, "FAILED")]
    failed = events(fixture)[-1]["error"]["message"]
    assert report["signals"][0]["payload"]["reason"] == failed
    assert report["adapter"]["exit_status"] == 1
    plain, plain_report = _conform(
        tmp_path, "codex", ["--expect-kind", "COMPLETED"], ["exec", "--json"], fixture, status=1
    )
    assert plain.returncode == 1
    assert _codes(plain_report) == ["BS405"]


def test_conform_allows_a_claude_permission_prompt_on_stdin(tmp_path: Path) -> None:
    fixture = "claude_permission_prompt.jsonl"
    options = ["--prompt", PROMPT, "--answer", "allow"]
    result, report = _conform(tmp_path, "claude", options, CLAUDE_STDIO, fixture)
    assert result.returncode == 0, result.stderr
    assert _kinds(report) == [(3, "QUESTION"), (6, "COMPLETED")]
    assert report["diagnostics"] == []
    assert report["adapter"]["answers"] == [
        {"line": 3, "in_reply_to": "req_1_8f2a", "answer": "allow"}
    ]
    prompt, reply, end = _stdin_log(tmp_path)
    assert json.loads(prompt)["message"] == {"role": "user", "content": PROMPT}
    request = events(fixture)[2]["request"]
    assert json.loads(reply)["response"] == {
        "subtype": "success",
        "request_id": "req_1_8f2a",
        "response": {"behavior": "allow", "updatedInput": request["input"]},
    }
    assert end == "EOF"  # stdin closed after the terminal, as the CLI waits for it


def test_conform_answers_ask_user_question_from_an_answers_file(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({ASK_ID: "Postgres"}))
    options = ["--prompt", PROMPT, "--answers", str(answers)]
    fixture = "claude_ask_user_question.jsonl"
    result, report = _conform(tmp_path, "claude", options, CLAUDE_STDIO, fixture)
    assert result.returncode == 0, result.stderr
    assert _kinds(report) == [(2, "QUESTION"), (6, "COMPLETED")]
    reply = json.loads(_stdin_log(tmp_path)[1])["response"]
    assert reply["request_id"] == "req_2_c41d"  # the CLI's request, after the tool use asked
    updated = reply["response"]["updatedInput"]
    assert updated["answers"] == {"Which database should the migration target?": "Postgres"}


def test_conform_denies_with_any_other_answer(tmp_path: Path) -> None:
    options = ["--prompt", PROMPT, "--answer-id", "req_1_8f2a=not now"]
    fixture = "claude_permission_prompt.jsonl"
    result, _ = _conform(tmp_path, "claude", options, CLAUDE_STDIO, fixture)
    assert result.returncode == 0, result.stderr
    decision = json.loads(_stdin_log(tmp_path)[1])["response"]["response"]
    assert decision == {"behavior": "deny", "message": "The operator answered: not now"}


def test_an_unanswered_claude_prompt_ends_its_wait(tmp_path: Path) -> None:
    fixture = "claude_permission_prompt.jsonl"
    result, report = _conform(tmp_path, "claude", ["--prompt", PROMPT], CLAUDE_STDIO, fixture)
    assert result.returncode == 1
    assert sorted(_codes(report)) == ["BS301", "BS403"]
    assert report["adapter"]["exit_status"] == 5  # the fake saw end of file, not a hang
    assert _stdin_log(tmp_path)[-1] == "EOF"


def test_an_answer_codex_cannot_read_is_unanswered(tmp_path: Path) -> None:
    fixture = "codex_request_user_input.jsonl"
    result, report = _conform(
        tmp_path, "codex", ["--answer", "Postgres"], ["exec", "--json"], fixture
    )
    assert result.returncode == 1
    (diagnostic,) = report["diagnostics"]
    assert diagnostic["code"] == "BS403"
    assert diagnostic["line"] == 3
    assert "codex reads no answer on stdin" in diagnostic["message"]
    assert report["adapter"]["answers"] == []
    assert _stdin_log(tmp_path) == []  # stdin was closed from the start


def test_a_wrapper_script_is_trusted_and_an_answer_it_cannot_take_is_unanswered(
    tmp_path: Path,
) -> None:
    """No command-line check for a script; without --prompt Claude's stdin is closed at once."""
    fixture = "claude_permission_prompt.jsonl"
    wrapper = _program(tmp_path, "claude", "run-claude")
    argv = ["conform", "--format", "json", "--native", "claude", "--answer", "allow", "--"]
    result = _run(tmp_path, [*argv, wrapper, "-p", "fix it"], fixture)
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)["files"][0]
    (diagnostic,) = report["diagnostics"]
    assert (diagnostic["code"], diagnostic["line"]) == ("BS403", 3)
    assert "claude reads answers only with --prompt and --input-format" in diagnostic["message"]
    assert _kinds(report) == [(3, "QUESTION"), (6, "COMPLETED")]


def test_conform_text_names_stdout_lines_in_words(tmp_path: Path) -> None:
    fixture = "claude_permission_prompt.jsonl"
    argv = ["conform", "--transcript", "--native", "claude", "--prompt", PROMPT, "--"]
    result = _run(tmp_path, [*argv, _program(tmp_path, "claude"), *CLAUDE_STDIO], fixture)
    text = result.stdout.decode().splitlines()
    assert len(text) == 3, text
    assert text[0].startswith("stdout line 3: BERNSTEIN:QUESTION {")
    assert text[1].startswith("stdout line 3, column 1: warning[BS301] MissingTerminalSignal")
    assert text[2].startswith("stdout line 3, column 1: error[BS403] QUESTION with id ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--native", "claude", "--", "claude", "-p", "hi"], "--output-format stream-json"),
        (["--native", "codex", "--", "codex", "exec", "hi"], "--json"),
        (["--native", "codex", "--", "codex", "--json", "hi"], "exec"),
        (
            ["--native", "claude", "--answer", "allow", "--", "claude", "-p",
             "--output-format", "stream-json", "hi"],
            "--input-format stream-json --permission-prompt-tool stdio",
        ),
        (
            ["--native", "claude", "--", "claude", "-p", "--output-format=stream-json",
             "--input-format", "stream-json"],
            "give it with --prompt",
        ),
        (
            ["--native", "claude", "--prompt", "hi", "--answer", "allow", "--", "claude", "-p",
             "--output-format", "stream-json", "--input-format", "stream-json"],
            "--permission-prompt-tool stdio",
        ),
        (["--prompt", "hi", "--", "claude"], "--prompt needs --native claude"),
        (
            ["--native", "codex", "--prompt", "hi", "--", "codex", "exec", "--json"],
            "--prompt is for",
        ),
    ],
)  # fmt: skip
def test_native_command_lines_are_checked_before_the_cli_runs(
    argv: list[str], message: str, tmp_path: Path
) -> None:
    both = argv[0] == "--native" and argv[2] == "--" and "--input-format" not in argv
    for command in ("conform", "wrap") if both else ("conform",):
        result = _run(tmp_path, [command, *argv], "codex_success.jsonl")
        assert result.returncode == 2, (command, result.stderr)
        assert result.stdout == b""
        (line,) = result.stderr.decode().splitlines()
        assert line.startswith("bernstein-signals: error: ")
        assert message in line


# ---------------------------------------------------------------------------
# the mapped stream itself
# ---------------------------------------------------------------------------


_FIXTURE_NAMES = sorted(path.name for path in FIXTURES.glob("*.jsonl"))


def _translate(fixture: str, data: bytes, cuts: list[int], *, keep: bool) -> bytes:
    stream = NativeStream(NATIVE_CLIS[fixture.split("_", maxsplit=1)[0]], built_in(), keep=keep)
    out, begin = bytearray(), 0
    for cut in [*sorted(cuts), len(data)]:
        out += stream.feed(data[begin:cut])
        begin = max(begin, cut)
    return bytes(out + stream.close())


@given(
    fixture=st.sampled_from(_FIXTURE_NAMES),
    cuts=st.lists(st.integers(min_value=0, max_value=4000), max_size=8),
    keep=st.booleans(),
    crlf=st.booleans(),
    final_newline=st.booleans(),
)
def test_any_chunking_gives_the_mapped_stream_line_for_line(
    fixture: str, cuts: list[int], keep: bool, crlf: bool, final_newline: bool
) -> None:
    data = "".join(lines(fixture)).encode()
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    if not final_newline:
        data = data.rstrip(b"\r\n")
    out = _translate(fixture, data, cuts, keep=keep)
    assert out.endswith(b"\n") == final_newline
    expected = _mapped_lines(fixture, keep=keep)
    got = out.decode().split("\n")
    got = got[:-1] if final_newline else got
    if not final_newline and not keep and got[-1] == " ":
        got[-1] = ""  # a blanked last line without a newline is one space, so that it counts
    assert [line.removesuffix("\r") for line in got] == expected


def test_plain_lines_pass_and_an_overlong_event_passes_unmapped() -> None:
    result = b'{"type":"turn.completed","usage":{}}'
    huge = b'{"type":"item.completed","text":"' + b"x" * (MAX_EVENT_BYTES + 10) + b'"}\n'
    data = b"plain text\nBERNSTEIN:PROGRESS\n" + huge + result + b"\n"
    for keep in (True, False):
        out = _translate("codex_x", data, list(range(0, len(data), 1 << 20)), keep=keep)
        first, second, long_line, mapped, end = out.split(b"\n")
        assert (first, second, long_line + b"\n", end) == (
            b"plain text", b"BERNSTEIN:PROGRESS", huge, b"",
        )  # fmt: skip
        assert mapped.startswith(b"BERNSTEIN:COMPLETED")


def test_the_run_start_events_are_rows_of_the_event_table() -> None:
    starts = {(cli.mapper().PROTOCOL, cli.run_start) for cli in NATIVE_CLIS.values()}
    rows = {(row.protocol, row.event) for row in NATIVE_EVENT_TABLE}
    assert {start for start in starts if start[1] is not None} <= rows
    assert any(start[1] is not None for start in starts)


def test_mapping_is_linear_in_the_output_size() -> None:
    chunk = "".join(lines("claude_success.jsonl")).encode()

    def make(size: int) -> Any:
        data = chunk * size
        return lambda: _translate("claude_x", data, list(range(0, len(data), 65536)), keep=True)

    def parse_only(size: int) -> Any:
        events = (chunk * size).splitlines()
        return lambda: [json.loads(line) for line in events]

    # every event is parsed: past the core's cache json.loads itself grows ~25x for 10x
    assert_linear_or_as_baseline(make, parse_only, 40, what="NativeStream over many events")

    def make_long(size: int) -> Any:
        data = b'{"type":"user","x":"' + b"y" * (size * 1000) + b'"}\n'

        def run() -> object:
            stream = NativeStream(NATIVE_CLIS["claude"], built_in(), keep=True)
            for begin in range(0, len(data), 512):
                stream.feed(data[begin : begin + 512])
            return stream.close()

        return run

    def gather_and_parse(size: int) -> Any:
        data = b'{"type":"user","x":"' + b"y" * (size * 1000) + b'"}\n'

        def run() -> object:
            line = bytearray()
            for begin in range(0, len(data), 512):
                line += data[begin : begin + 512]
            return json.loads(bytes(line).decode())

        return run

    # the one long line is gathered and parsed whole: fresh pages past the cache
    assert_linear_or_as_baseline(
        make_long, gather_and_parse, 300, what="NativeStream over one long event in small chunks"
    )


_PIECES = st.sampled_from(
    [
        b"{", b"}", b"\n", b"\r\n", b"\r", b'{"type":"turn.completed"}', b'{"type":"error"}',
        b'{"type":"thread.started","thread_id":"t"}', b'{"type":"result","subtype":"success"}',
        b"BERNSTEIN:COMPLETED", b"plain", b"\xff\xfe", b"\xed\xa0\x80", b"[1]", b'"x"',
    ]
)  # fmt: skip


@given(
    program=st.sampled_from(sorted(NATIVE_CLIS)),
    pieces=st.lists(_PIECES | st.binary(max_size=8), max_size=30),
    cuts=st.lists(st.integers(min_value=0, max_value=300), max_size=6),
    keep=st.booleans(),
)
def test_any_bytes_keep_their_lines(
    program: str, pieces: list[bytes], cuts: list[int], keep: bool
) -> None:
    """Never a raise; as many newlines out as in; a line that is no event passes unchanged."""
    data = b"".join(pieces)
    out = _translate(f"{program}_any", data, cuts, keep=keep)
    assert out.count(b"\n") == data.count(b"\n")
    for before, after in zip(data.split(b"\n"), out.split(b"\n"), strict=True):
        if not before.startswith(b"{"):
            assert after == before
        elif after != before:
            assert after in (b"", b"\r", b" ") or after.startswith(b"BERNSTEIN:")


@settings(max_examples=12)
@given(
    program=st.sampled_from(sorted(NATIVE_CLIS)),
    pieces=st.lists(_PIECES | st.binary(max_size=8), max_size=30),
)
@pytest.mark.timeout(200)
def test_hostile_native_output_through_wrap_and_conform(program: str, pieces: list[bytes]) -> None:
    """Whatever a native CLI prints: wrap relays every line and ends the run; conform writes
    its whole report and one summary line, never a traceback."""
    data = b"".join(pieces)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "out"
        path.write_bytes(data)
        command = ["--native", program, "--", "cat", str(path)]
        wrapped = subprocess.run(
            [*CLI, "wrap", *command],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
            check=False,
        )
        report = subprocess.run(
            [*CLI, "conform", "--format", "json", "--answer", "x", *command],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
            check=False,
        )
    assert wrapped.returncode == 0, wrapped.stderr
    assert wrapped.stderr == b""
    extra = wrapped.stdout.count(b"\n") - data.count(b"\n")
    assert extra in (0, 1, 2)  # wrap's own terminal, after a newline if the output lacked one
    signals = [parse_signal(line) for line in wrapped.stdout.decode(errors="replace").splitlines()]
    assert any(signal is not None and signal.is_terminal for signal in signals)
    assert report.returncode in (0, 1), report.stderr
    document = json.loads(report.stdout)
    unended = bool(data) and not data.endswith(b"\n")
    assert document["files"][0]["lines"] == data.count(b"\n") + unended
    (summary,) = report.stderr.decode().splitlines()
    assert summary.startswith("conform: exit 0, ")


def test_text_lines_take_the_place_in_words_conform_gives() -> None:
    """conform names the place itself; validate's text_lines writes it, nothing is cut back."""
    from bernstein_signals_toolkit.tools.validate import formats
    from bernstein_signals_toolkit.tools.validate.diagnostics import build_diagnostic

    diagnostic = build_diagnostic("BS301", 3, 0, 1, "no terminal signal", replacement="x")
    plain = formats.text_lines("run.log", diagnostic)
    placed = formats.text_lines("run.log", diagnostic, place="stdout line 3, column 1")
    assert plain[0].startswith("run.log:3:1: ")
    assert placed[0] == "stdout line 3, column 1:" + plain[0].removeprefix("run.log:3:1:")
    assert placed[1:] == plain[1:] == ["    suggestion: x"]
