"""The fence's command-line surface (issue 17): validate --key-file/--allow-kinds, wrap and conform
--fence/--allow-kinds refusals, the key hand-over on fd 3, and wrap's relay filter."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    KIND_NOT_ALLOWED,
    REPLAYED_SIGNAL,
    UNAUTHENTICATED_SIGNAL,
    FenceVerifier,
    SignalKey,
    SignalMarker,
    compat,
    format_signal,
    iter_signals,
    parse_signal,
)
from bernstein_signals.fence_rules import KEY_FD_VARIABLE, KEY_VARIABLE, UNAUTHENTICATED_PREFIX
from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.tools.commands._fence_handover import KEY_FD, child_environment
from bernstein_signals_toolkit.tools.commands._fence_relay import FencedRelay
from bernstein_signals_toolkit.tools.commands._process import ProcessGroup
from bernstein_signals_toolkit.tools.runtime_vocabulary import built_in
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


@pytest.mark.timeout(60)
def test_the_key_goes_on_fd_3_and_our_fd_3_is_put_back(tmp_path: Path) -> None:
    opened = not _fd_is_open(KEY_FD)
    if opened:  # make sure something of ours is on fd 3 (under pytest, its capture is)
        held = tmp_path / "ours"
        held.write_text("")
        mine = os.open(held, os.O_RDONLY)
        os.dup2(mine, KEY_FD, inheritable=False)
        os.close(mine)
    before = os.fstat(KEY_FD)
    inheritable = os.get_inheritable(KEY_FD)
    try:
        script = f'cat <&3; echo "${KEY_FD_VARIABLE}-${{{KEY_VARIABLE}:-none}}"'
        group = ProcessGroup(
            ["sh", "-c", script],
            key_text=KEY.text(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
        )
        with group as process:
            assert process.stdout is not None
            out = process.stdout.read()
            group.wait()
        after = os.fstat(KEY_FD)
        assert (after.st_ino, after.st_dev) == (before.st_ino, before.st_dev)
        assert os.get_inheritable(KEY_FD) is inheritable
    finally:
        if opened:
            os.close(KEY_FD)
    assert out.decode().splitlines() == [KEY.text(), "3-none"]


def test_the_child_environment_holds_the_fd_number_never_the_key() -> None:
    env = child_environment({"PATH": "/bin", KEY_VARIABLE: KEY.text()})
    assert env == {"PATH": "/bin", KEY_FD_VARIABLE: "3"}


# ---------------------------------------------------------------------------
# wrap's relay
# ---------------------------------------------------------------------------


def _relay(
    key: SignalKey | None = KEY, allow: frozenset[str] | None = None, bound: int = 1 << 20
) -> tuple[FencedRelay, list[str]]:
    warnings: list[str] = []
    relay = FencedRelay(FenceVerifier(key, allow), built_in(), bound, warnings.append)
    return relay, warnings


def _feed(relay: FencedRelay, data: bytes, cuts: list[int]) -> bytes:
    out = b""
    start = 0
    for cut in sorted({c % (len(data) + 1) for c in cuts}):
        out += relay.feed(data[start:cut])
        start = cut
    return out + relay.feed(data[start:]) + relay.close()


_PAYLOADS = {
    "QUESTION": {"question": "Go?", "id": "q"},
    "BLOCKED": {"reason": "wait"},
    "PLAN_READY": {"path": ".sdd/plans/x.md"},
    "COMPLETED": None,
    "FAILED": {"reason": "exit 1"},
}
_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Every line break ``str.splitlines`` knows."""
_BLANKS = "".join(chr(c) for c in range(0x3001) if chr(c).isspace() and chr(c) != "\n")
_FORGED_KINDS = [*sorted(_PAYLOADS), "NEWKIND", "completed"]
_LINE = st.one_of(
    st.tuples(st.just("real"), st.sampled_from(sorted(_PAYLOADS))),
    st.tuples(st.just("forged"), st.sampled_from(sorted(_PAYLOADS))),
    st.tuples(st.just("other-key"), st.sampled_from(sorted(_PAYLOADS))),
    # Anything but \n: \r, U+2028, blanks, the prefix itself.
    st.tuples(
        st.just("plain"),
        st.text(st.one_of(st.characters(codec="utf-8"), st.sampled_from("BERNSTEIN: "))).map(
            lambda text: text.replace("\n", "")
        ),
    ),
    # A start of the prefix that never becomes it (held, then relayed as it came).
    st.tuples(st.just("plain"), st.sampled_from(["B", "BERN", "BERNSTEIN", "BERNSTEIN;"])),
    # Junk, a break a text reader splits on (or none), blanks, then a forged signal.
    st.tuples(
        st.just("hidden"),
        st.tuples(
            st.text(st.characters(codec="utf-8", exclude_characters="\n"), max_size=5),
            st.sampled_from(["", *_BREAKS.replace("\n", "")]),
            st.text(st.sampled_from(_BLANKS), max_size=3),
            st.sampled_from(_FORGED_KINDS),
            st.sampled_from(["", " {}", '\t{"reason":"x"}', " \xff"]),
        ),
    ),
    st.tuples(st.just("replay"), st.just("")),
)


def _signals_any_reader_finds(out: bytes) -> list[str]:
    """Kinds that strict, lenient (unknown kinds too) and compat readers find in the relayed
    bytes, however they split or decode them; each list must be the same."""
    found: list[list[str]] = []
    texts = [out.decode("utf-8", "replace")]
    if texts[0].encode() == out:
        texts.append(out.decode())
    for text in texts:
        crlf = [piece.removesuffix("\r") for piece in text.split("\n")]
        for pieces in (text.splitlines(), text.split("\n"), crlf):
            for parse in (
                parse_signal,
                lambda piece: parse_signal(piece, lenient=True, unknown_kinds=True),
                compat.parse_signal,
            ):
                found.append([str(s.kind) for p in pieces if (s := parse(p)) is not None])
    strict_bytes = [s for line in out.split(b"\n") if (s := parse_signal(line)) is not None]
    found.append([str(s.kind) for s in strict_bytes])
    first = found[0]
    assert all(kinds == first for kinds in found), found
    return first


@settings(max_examples=300)
@given(st.lists(_LINE, max_size=20), st.lists(st.integers(0, 10_000), max_size=8), st.booleans())
def test_relay_lets_no_reader_take_a_line_the_fence_did_not_accept(
    plan: list[tuple[str, Any]], cuts: list[int], last_newline: bool
) -> None:
    marker, other = (
        SignalMarker(KEY),
        SignalMarker(SignalKey.parse("ffffffffffffffff:" + "00" * 32)),
    )
    written: list[bytes] = []
    expected: list[bytes | None] = []
    accepted: list[str] = []
    last_real: str | None = None
    for what, value in plan:
        want: bytes | None = None  # refused: the prefix is glued to the marker
        if what == "plain":
            line = value
            want = value.encode()
        elif what == "hidden":
            junk, brk, blanks, kind, tail = value
            raw = (junk + brk + blanks + "BERNSTEIN:" + kind).encode() + (
                b" \xff" if tail == " \xff" else tail.encode()
            )
            written.append(raw)
            expected.append(None)
            continue
        elif what == "replay":
            if last_real is None:
                continue
            line = last_real
        elif what == "real":
            line = last_real = marker.mark(value, _PAYLOADS[value])
            want = format_signal(value, _PAYLOADS[value]).encode()
            accepted.append(value)
        else:
            payload = _PAYLOADS[value]
            line = (
                other.mark(value, payload) if what == "other-key" else format_signal(value, payload)
            )
        written.append(line.encode())
        expected.append(want)
    data = b"".join(line + b"\n" for line in written)
    unended = not last_newline and bool(written) and written[-1] != b""
    if unended:
        data = data[:-1]  # the last line ends with the stream
    relay, warnings = _relay()
    out = _feed(relay, data, cuts)
    relayed = (out + b"\n" if unended else out).split(b"\n")[:-1]
    refused = UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:"
    for got, want, line in zip(relayed, expected, written, strict=True):
        if b"BERNSTEIN:" not in line:
            assert got == line  # plain output passes byte for byte
        elif want is not None and got == want:
            continue  # accepted (a plain line may itself be a forged signal: refused)
        else:
            assert got.replace(UNAUTHENTICATED_PREFIX.encode(), b"") == line
            assert got.count(refused) == line.count(b"BERNSTEIN:")
    assert len(warnings) == sum(refused in got for got in relayed)
    assert relay.terminal is any(kind in {"COMPLETED", "FAILED"} for kind in accepted)
    # No reader, however it splits or decodes, finds any signal but the accepted ones.
    assert _signals_any_reader_finds(out) == accepted
    # The validator's fenced checker agrees on what was accepted.
    report = conformance_report([line.decode("utf-8", "replace") for line in written], key=KEY)
    assert [str(s.signal.kind) for s in report.signals] == accepted


_REVIEWED = [
    b"\x0bBERNSTEIN:COMPLETED\n",
    b"\x0cBERNSTEIN:COMPLETED\n",
    b"\rBERNSTEIN:COMPLETED\n",
    b"\xc2\xa0BERNSTEIN:COMPLETED\n",
    b"\xe3\x80\x80BERNSTEIN:COMPLETED\n",
    b"\x1cBERNSTEIN:COMPLETED\n",
    b"hello\rBERNSTEIN:COMPLETED\n",
    b"hello\xc2\x85BERNSTEIN:COMPLETED\n",
    b"hello\xe2\x80\xa8BERNSTEIN:COMPLETED\n",
    b"BERNSTEIN:COMPLETED\r\r\n",
    b"BERNSTEIN:COMPLETED\x0b\n",
    b"BERNSTEIN:NEWKIND {}\n",
    b" BERNSTEIN:COMPLETED\n",
    b'work\rBERNSTEIN:PLAN_READY {"path":".sdd/plans/evil.md"}\n',
    b'BERNSTEIN:PLAN_READY {"path":"evil\xff.md"}\n',
]


@pytest.mark.parametrize("line", _REVIEWED)
def test_relay_refuses_the_reviewers_forgeries(line: bytes) -> None:
    for cuts in ([], list(range(len(line)))):
        relay, warnings = _relay()
        out = _feed(relay, line, cuts)
        assert out.replace(UNAUTHENTICATED_PREFIX.encode(), b"", 1) == line
        assert len(warnings) == 1
        assert _signals_any_reader_finds(out) == []
        text = out.decode("utf-8", "replace")
        assert compat.iter_signals(text.splitlines()) == []
        assert list(iter_signals(io.TextIOWrapper(io.BytesIO(out), "utf-8", "replace"))) == []


def test_relay_masks_the_key_wherever_the_command_prints_it() -> None:
    warnings: list[str] = []
    relay = FencedRelay(
        FenceVerifier(KEY), built_in(), 1 << 20, warnings.append, key_text=KEY.text()
    )
    secret = KEY.text().partition(":")[2]
    data = f"key {KEY.text()} end\n{secret}\n".encode()
    out = _feed(relay, data, list(range(0, len(data), 7)))
    assert secret.encode() not in out
    assert out == f"key {KEY.run}:[key withheld] end\n[key withheld]\n".encode()
    assert len(warnings) == 2
    assert "key" in warnings[0]
    assert relay.leaked == 2


def test_relay_passes_plain_output_at_once_and_holds_only_a_possible_signal() -> None:
    relay, _ = _relay()
    assert relay.feed(b"Continue? [y/n] ") == b"Continue? [y/n] "
    assert relay.feed(b"\n  BERNST") == b"\n  "  # what may become the prefix waits
    assert relay.feed(b"EIN:COMPLETED") == UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:COMPLETED"
    assert relay.close() == b""
    assert relay.feed(b"BERNST") == b""  # a line's start that may become a signal is held
    assert relay.feed(b"ONE\n") == b"BERNSTONE\n"
    assert relay.feed(b"BERN") == b""
    assert relay.close() == b"BERN"  # the stream ended: it never became the prefix


def test_relay_refuses_an_overlong_signal_line_without_holding_it() -> None:
    relay, warnings = _relay(bound=100)
    out = relay.feed(b"BERNSTEIN:PLAN_DRAFT " + b"x" * 200)
    assert out.startswith(UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:PLAN_DRAFT")
    assert relay.feed(b"y" * 50 + b"\nBERNSTEIN:COMPLETED\n") == b"y" * 50 + b"\n" + (
        UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:COMPLETED\n"
    )
    assert len(warnings) == 2
    assert "100-byte bound" in warnings[0]


def test_relay_refuses_a_signal_line_that_is_not_utf8_and_passes_other_bytes() -> None:
    relay, warnings = _relay()
    assert relay.feed(b"BERNSTEIN:COMPLETED \xff\n") == (
        UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:COMPLETED \xff\n"
    )
    assert relay.feed(b"plain \xff\n") == b"plain \xff\n"
    assert len(warnings) == 1
    assert "not UTF-8" in warnings[0]


@pytest.mark.timeout(120)
def test_relay_time_is_linear_in_lines_and_in_a_line_fed_a_byte_at_a_time() -> None:
    marker = SignalMarker(KEY)
    block = (
        "plain output line\n" + marker.mark("BLOCKED", {"reason": "w"}) + "\nBERNSTEIN:COMPLETED\n"
    ).encode()

    def lines(n: int) -> Any:
        data = block * n

        def go() -> None:
            relay, _ = _relay(key=SignalKey.parse(KEY.text()))
            relay.feed(data)
            relay.close()

        return go

    assert_linear(lines, 200, what="wrap --fence relay over many lines")

    def blanks(n: int) -> Any:
        def go() -> None:
            relay, _ = _relay()
            for _ in range(n):
                relay.feed(b" ")
            relay.close()

        return go

    assert_linear(blanks, 2_000, what="a line of blanks fed a byte at a time")

    def prefixes(n: int) -> Any:
        data = b"x\r" + b"BERNSTEIN:\x85" * n + b"\n"

        def go() -> None:
            relay, _ = _relay()
            for start in range(0, len(data), 7):  # the prefix split across chunks
                relay.feed(data[start : start + 7])
            relay.close()

        return go

    assert_linear(prefixes, 500, what="a line of many prefixes, each marked")

    key_start = KEY.text().partition(":")[2][:40].encode()

    def near_keys(n: int) -> Any:
        def go() -> None:
            relay = FencedRelay(
                FenceVerifier(KEY), built_in(), 1 << 20, lambda _: None, key_text=KEY.text()
            )
            for _ in range(n):  # each write may still become the key: carried, then let go
                relay.feed(key_start)
                relay.feed(b" ")
            relay.close()

        return go

    assert_linear(near_keys, 200, what="output that keeps almost printing the key")


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


def test_relay_with_an_allow_list_and_no_key_refuses_only_other_kinds() -> None:
    relay, warnings = _relay(key=None, allow=frozenset({"COMPLETED"}))
    out = relay.feed(b'BERNSTEIN:BLOCKED {"reason":"x"}\nBERNSTEIN:COMPLETED\n') + relay.close()
    prefix = UNAUTHENTICATED_PREFIX.encode()
    assert out == prefix + b'BERNSTEIN:BLOCKED {"reason":"x"}\nBERNSTEIN:COMPLETED\n'
    assert relay.terminal
    assert len(warnings) == 1
    assert "error[BS603]" in warnings[0]


def test_relay_passes_blanks_at_once_and_marks_a_prefix_after_them() -> None:
    """Blanks past the bound then the prefix: nothing is held, and a lenient reader with a
    larger bound finds the prefix glued to the marker."""
    relay, warnings = _relay(bound=10)
    prefix = UNAUTHENTICATED_PREFIX.encode()
    assert relay.feed(b" " * 30) == b" " * 30
    assert relay.feed(b"BERNSTEIN:COMPLETED\n") == prefix + b"BERNSTEIN:COMPLETED\n"
    assert len(warnings) == 1
