"""The standing guard, CLI half: every command of the CLI against generated hostile input.

For each command in the CLI's own registry (``commands.COMMANDS``) a driver
feeds Hypothesis-generated hostile input: random bytes, huge and deeply nested
lines, invalid UTF-8, NUL, odd file names (bytes that are not UTF-8 too),
signals at odd moments (a terminal followed by more output, a QUESTION at end
of input, no final newline), odd option values. Each run must end with a
documented status, no traceback, and stderr one line per problem. A command
added to the registry without a driver fails :func:`test_every_command_has_a_driver`.

Commands that only read and write run in process through ``cli.main`` (an
exception escaping it is the traceback the user would see); ``wrap``,
``conform`` and ``lsp`` run as real processes.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.generator.emitters._header import MARKER
from bernstein_signals_toolkit.generator.pipeline import render_sources
from bernstein_signals_toolkit.tools.commands import COMMANDS
from bernstein_signals_toolkit.tools.commands import generate as generate_command
from bernstein_signals_toolkit.tools.lsp.server import MAX_HEADER_BYTES, MAX_MESSAGE_BYTES

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]
KINDS = ["COMPLETED", "FAILED", "QUESTION", "PLAN_DRAFT", "PLAN_READY", "BLOCKED"]

# A few dozen examples per command: subprocesses are slow, the CI profile is derandomized.
_EXAMPLES = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
_PROCESS_EXAMPLES = settings(_EXAMPLES, max_examples=30)


# ---------------------------------------------------------------------------
# What every run must satisfy
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    status: int
    stdout: bytes
    stderr: bytes


def _check(outcome: Outcome, allowed: Sequence[int] = (0, 1, 2)) -> None:
    """No traceback, a documented status, stderr one line per problem."""
    err = outcome.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert outcome.status in allowed, (outcome.status, err)
    lines = err.splitlines()
    for line in lines:
        assert line.strip(), f"an empty line on stderr: {err!r}"
        assert not line[0].isspace(), f"a continuation line on stderr: {err!r}"
    if outcome.status == 2:
        assert len(lines) == 1, f"a usage error is one line: {err!r}"
        assert lines[0].startswith("bernstein-signals"), lines[0]
        assert outcome.stdout == b"", "no partial output after a usage error"


def _in_process(args: Sequence[str | bytes], stdin: bytes = b"") -> Outcome:
    """``bernstein-signals ARGS`` through ``main``, with bytes for stdin, stdout and stderr."""
    argv = [os.fsdecode(arg) for arg in args]
    out, err = io.BytesIO(), io.BytesIO()
    fake_in = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    fake_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    fake_err = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace")
    fake_err.reconfigure(write_through=True)
    with (
        mock.patch.object(sys, "stdin", fake_in),
        mock.patch.object(sys, "stdout", fake_out),
        mock.patch.object(sys, "stderr", fake_err),
    ):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse: usage errors and --help
            status = exc.code if isinstance(exc.code, int) else 2
        fake_out.flush()
        fake_err.flush()
    return Outcome(status, out.getvalue(), err.getvalue())


def _process(
    args: Sequence[str | bytes], stdin: bytes = b"", cwd: Path | None = None, timeout: float = 60
) -> Outcome:
    result = subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, cwd=cwd, check=False, timeout=timeout
    )
    return Outcome(result.returncode, result.stdout, result.stderr)


@contextmanager
def _scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="bsig-hostile-") as folder:
        yield Path(folder)


# ---------------------------------------------------------------------------
# Hostile inputs
# ---------------------------------------------------------------------------

_SHAPES = sorted(HOSTILE_LINES)
_PIECES: list[bytes] = [
    b"BERNSTEIN:COMPLETED",
    b'BERNSTEIN:FAILED {"reason":"x"}',
    b'BERNSTEIN:QUESTION {"id":"q-1","question":"Go?","options":["yes","no"]}',
    b'BERNSTEIN:QUESTION {"question":"again?"}',
    b'BERNSTEIN:QUESTION {"id":5,"question":"a"}',
    b'BERNSTEIN:QUESTION {"id":"","question":"a","options":"x"}',
    b"BERNSTEIN:QUESTION {}",
    b'BERNSTEIN:PLAN_READY {"path":"../../etc/passwd"}',
    b'BERNSTEIN:PLAN_DRAFT {"markdown":"# p","path":".sdd/p.md"}',
    b"BERNSTEIN:BLOCKED",
    b"bernstein:completed",
    b"BERNSTEIN:COMPLETED {",
    b'BERNSTEIN:COMPLETED {"a":1e400,"b":NaN,"c":"\\ud800"}',
    b"BERNSTEIN:COMPLETED " + b"[" * 200,
    b'BERNSTEIN:COMPLETED {"a":' + b"[" * 70 + b"]" * 70 + b"}",
    b"noise BERNSTEIN:COMPLETED",
    b"BERNSTEIN:\xff\xfe",
    b"\x00\x00BERNSTEIN:COMPLETED\x00",
    b"\xef\xbb\xbfBERNSTEIN:COMPLETED",
    b"BERNSTEIN:COMPLETED \xe2\x80\xa8",
    b"\xc0\xaf\xed\xa0\x80",
]
_PIECE = st.one_of(
    st.sampled_from(_PIECES),
    st.binary(max_size=40),
    st.tuples(st.sampled_from(_SHAPES), st.integers(64, 20_000)).map(
        lambda shape: HOSTILE_LINES[shape[0]](shape[1]).encode("utf-8", "surrogatepass")
    ),
)
STREAMS = st.lists(
    st.tuples(_PIECE, st.sampled_from([b"\n", b"\r\n", b"\r", b""])), max_size=10
).map(lambda parts: b"".join(piece + end for piece, end in parts))
"""Adapter output: signals at odd moments, known-bad shapes, binary, no final newline."""

_HUGE_LINE = b"BERNSTEIN:PLAN_DRAFT " + b"x" * ((1 << 20) + 10) + b"\nBERNSTEIN:COMPLETED"
_TERMINAL_THEN_MORE = b"BERNSTEIN:COMPLETED\nmore\nBERNSTEIN:FAILED\nBERNSTEIN:QUESTION {}"
_QUESTION_AT_EOF = b'out\nBERNSTEIN:QUESTION {"id":"q-1","question":"Go?"}'

NAMES = st.binary(min_size=1, max_size=24).filter(
    lambda name: b"/" not in name and b"\0" not in name and name not in (b".", b"..")
)
"""File names, bytes that are not UTF-8 included."""

TEXTS = st.one_of(
    st.text(max_size=40),
    st.binary(max_size=20).map(os.fsdecode),  # lone surrogates, as Python sees bad argv bytes
    st.sampled_from(["", "-", "--", "=", ":=", "a:=[", "x" * 5000, "\n"]),
).filter(lambda text: "\0" not in text)
"""Option and argument values (argv cannot hold NUL)."""


def _file(folder: Path, name: bytes, content: bytes) -> bytes:
    path = os.path.join(os.fsencode(folder), name)
    with open(path, "wb") as handle:
        handle.write(content)
    return path


# ---------------------------------------------------------------------------
# Drivers, one per command
# ---------------------------------------------------------------------------


@_EXAMPLES
@given(
    stream=STREAMS,
    name=NAMES,
    format=st.sampled_from(["text", "json", "sarif", "github"]),
    options=st.lists(
        st.one_of(
            st.sampled_from([["--lenient"], ["--strict"], ["-"]]),
            st.tuples(
                st.sampled_from(
                    ["--select", "--ignore", "--max-line-bytes", "--vocabulary", "--unknown-kinds"]
                ),
                TEXTS,
            ).map(list),
        ),
        max_size=3,
    ),
)
@example(stream=_HUGE_LINE, name=b"big.log", format="text", options=[])
@example(stream=_TERMINAL_THEN_MORE, name=b"\xff\xfe.log", format="text", options=[])
@example(stream=_QUESTION_AT_EOF, name=b"q.log", format="github", options=[["-"]])
@example(  # issue 23 item 10: a folder name over NAME_MAX was a traceback (ENAMETOOLONG)
    stream=b"", name=b"a.log", format="text", options=[["--vocabulary", "x" * 5000]]
)
def _drive_validate(stream: bytes, name: bytes, format: str, options: list[list[str]]) -> None:
    with _scratch() as folder:
        path = _file(folder, name, stream)
        args: list[str | bytes] = ["validate", "--format", format, path]
        for option in options:
            args += option
        outcome = _in_process(args, stdin=stream)
    _check(outcome)
    if format in ("json", "sarif") and outcome.status in (0, 1):
        json.loads(outcome.stdout.decode("utf-8"))


@_EXAMPLES
@given(kind=st.one_of(st.sampled_from(KINDS), TEXTS), payload=st.one_of(STREAMS, st.just(b"")))
@example(kind="COMPLETED", payload=b"[" * 100_000 + b"]" * 100_000)
@example(kind="QUESTION", payload=b'{"question":"' + b"\\ud800" + b'"}')
@example(kind="FAILED", payload=b'{"reason":' + b"9" * 5000 + b"}")
def _drive_validate_payload(kind: str, payload: bytes) -> None:
    _check(_in_process(["validate", "--payload", kind, "-"], stdin=payload))


def _drive_validate_all() -> None:
    _drive_validate()
    _drive_validate_payload()
    for code in ("BS101", "nope", "\udcff", ""):
        _check(_in_process(["validate", "--explain", code]))


@_EXAMPLES
@given(
    stream=STREAMS,
    name=NAMES,
    format=st.sampled_from(["jsonl", "cloudevents"]),
    source=st.one_of(st.none(), TEXTS),
    timestamps=st.booleans(),
)
@example(
    stream=_QUESTION_AT_EOF, name=b"q\xff.log", format="cloudevents", source=None, timestamps=False
)
@example(stream=_TERMINAL_THEN_MORE, name=b"t.log", format="jsonl", source=None, timestamps=True)
def _drive_parse(
    stream: bytes, name: bytes, format: str, source: str | None, timestamps: bool
) -> None:
    with _scratch() as folder:
        path = _file(folder, name, stream)
        args: list[str | bytes] = ["parse", "--format", format, path, "-"]
        if source is not None:
            args += ["--source", source]
        if timestamps:
            args.append("--timestamps")
        outcome = _in_process(args, stdin=stream)
    _check(outcome)
    if outcome.status == 0:
        for line in outcome.stdout.decode("utf-8").split("\n")[:-1]:  # U+2028 is no end
            json.loads(line)


_MEMBERS = st.one_of(
    TEXTS,
    st.tuples(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), TEXTS).map("=".join),
    st.tuples(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), TEXTS).map(":=".join),
    st.integers(1, 3000).map(lambda depth: "deep:=" + "[" * depth + "]" * depth),
)


@_EXAMPLES
@given(kind=st.one_of(st.sampled_from(KINDS), TEXTS), members=st.lists(_MEMBERS, max_size=4))
@example(kind="COMPLETED", members=["x:=" + "[" * 50_000])
@example(kind="FAILED", members=["reason=\udcff"])
@example(kind="QUESTION", members=["question=a", "options:=[1e400]"])
def _drive_emit(kind: str, members: list[str]) -> None:
    outcome = _in_process(["emit", kind, *members])
    _check(outcome)
    if outcome.status == 0:
        assert outcome.stdout.count(b"\n") == 1
        assert outcome.stdout.startswith(b"BERNSTEIN:")
        outcome.stdout.decode("utf-8")


@_EXAMPLES
@given(kind=st.one_of(st.none(), st.sampled_from([*KINDS, "reply", "question"]), TEXTS))
def _drive_schema_kind(kind: str | None) -> None:
    outcome = _in_process(["schema"] if kind is None else ["schema", kind])
    _check(outcome)
    if kind is not None and kind.upper() in {*KINDS, "REPLY"}:
        assert outcome.status == 0
        json.loads(outcome.stdout)


@settings(_EXAMPLES, max_examples=10)
@given(name=NAMES, occupied=st.sampled_from(["free", "file", "link", "fifo"]))
def _drive_schema_catalog(name: bytes, occupied: str) -> None:
    with _scratch() as folder:
        target = os.path.join(os.fsencode(folder), name)
        if occupied == "file":
            _file(folder, name, b"in the way")
        elif occupied == "link":
            os.symlink(b"/nonexistent/elsewhere", target)
        elif occupied == "fifo":
            os.mkfifo(target)
        _check(_in_process(["schema", "--catalog", target]))


def _drive_schema() -> None:
    _drive_schema_kind()
    _drive_schema_catalog()
    _check(_in_process(["schema", "QUESTION", "--catalog", "x"]))


@settings(_EXAMPLES, max_examples=10)
@given(args=st.lists(st.one_of(st.just("--path"), TEXTS), max_size=3))
def _drive_shell(args: list[str]) -> None:
    outcome = _in_process(["shell", *args])
    _check(outcome)
    if outcome.status == 0:
        assert outcome.stdout


# generate --check against hostile output folders: entries where generated files
# belong, and odd entries of every file type around them.
_RENDERED: dict[str, bytes] = {}


def _rendered() -> dict[str, bytes]:
    if not _RENDERED:
        _RENDERED.update(render_sources(ROOT / "schema", ROOT / "grammar" / "signal.lark"))
    return _RENDERED


_ENTRY_TYPES = ["generated", "stale", "empty", "link-out", "link-loop", "fifo", "folder", "marked"]


def _place(out: Path, relative: bytes, entry: str, victim: Path) -> None:
    path = os.path.join(os.fsencode(out), relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        return
    content = _rendered().get(os.fsdecode(relative), b"")
    if entry == "generated":
        Path(os.fsdecode(path)).write_bytes(content)
    elif entry == "stale":
        Path(os.fsdecode(path)).write_bytes(content[:-7] + b"edited\n")
    elif entry == "empty":
        Path(os.fsdecode(path)).write_bytes(b"")
    elif entry == "link-out":
        os.symlink(victim, path)
    elif entry == "link-loop":
        os.symlink(os.path.basename(path), path)
    elif entry == "fifo":
        os.mkfifo(path)
    elif entry == "folder":
        os.makedirs(path)
    elif entry == "marked":
        Path(os.fsdecode(path)).write_bytes(f"# {MARKER}\n".encode())


@settings(_EXAMPLES, max_examples=25)
@given(
    entries=st.lists(
        st.tuples(
            st.one_of(st.sampled_from(sorted(_rendered())).map(os.fsencode), NAMES),
            st.sampled_from(_ENTRY_TYPES),
        ),
        max_size=8,
    ),
    write=st.booleans(),
)
def _drive_generate(entries: list[tuple[bytes, str]], write: bool) -> None:
    with _scratch() as folder:
        out, victim = folder / "out", folder / "victim"
        victim.write_bytes(b"victim\n")
        out.mkdir()
        for relative, entry in entries:
            _place(out, relative, entry, victim)
        args = ["generate", "--schema", "s", "--grammar", "g", "--out", str(out)]
        with mock.patch.object(generate_command, "render_sources", return_value=_rendered()):
            _check(_in_process([*args, "--check"]))
            if write:
                _check(_in_process(args))
        assert victim.read_bytes() == b"victim\n"


# wrap and conform: real processes around an adapter that prints a hostile stream.
_ADAPTER = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"


@_PROCESS_EXAMPLES
@given(stream=STREAMS, end=st.sampled_from(["exit", "exit 3", "kill", "missing", "folder"]))
@example(stream=_HUGE_LINE, end="exit")
@example(stream=_TERMINAL_THEN_MORE, end="kill")
def _drive_wrap(stream: bytes, end: str) -> None:
    with _scratch() as folder:
        log = _file(folder, b"out.log", stream)
        command: list[str | bytes]
        if end == "missing":
            command = [b"no-such-command-\xff"]
        elif end == "folder":
            command = [str(folder)]
        else:
            tail = {"exit": "", "exit 3": "; sys.exit(3)", "kill": "; import os; os.abort()"}[end]
            command = [sys.executable, "-c", _ADAPTER + tail, log]
        outcome = _process(["wrap", "--", *command], cwd=folder)
    _check(outcome, allowed=(0, 3, 126, 127, 128 + signal.SIGABRT))
    if end not in ("missing", "folder"):
        assert outcome.stdout.startswith(stream)
        assert outcome.stdout[len(stream) :].count(b"BERNSTEIN:") <= 1


def _reply_line(answer: str, question_id: str | None) -> str:
    """A reply line as an orchestrator writes it (lone surrogates escaped, as json.dumps does)."""
    return json.dumps({"in_reply_to": question_id, "answer": answer})


@_PROCESS_EXAMPLES
@given(
    stream=STREAMS,
    answers=st.lists(st.tuples(st.sampled_from(["--answer", "--answer-id"]), TEXTS), max_size=3),
    timeout=st.sampled_from(["5", "0", "-1", "nan", "inf", "1e999", "x"]),
    format=st.sampled_from(["text", "json", "sarif", "github"]),
    answers_file=st.one_of(
        st.none(),
        st.binary(max_size=200),
        st.lists(
            st.one_of(TEXTS, st.builds(_reply_line, TEXTS, st.one_of(st.none(), TEXTS))), max_size=4
        ).map(lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass")),
        st.dictionaries(
            TEXTS, st.one_of(TEXTS, st.lists(TEXTS, max_size=2), st.integers()), max_size=3
        ).map(lambda mapping: json.dumps(mapping).encode()),
    ),
    expect=st.lists(
        st.tuples(
            st.sampled_from(["--expect-exit", "--expect-kind"]),
            st.sampled_from(["0", "1", "256", "COMPLETED", "FAILED", "QUESTION"]),
        ),
        max_size=2,
    ),
)
@example(
    stream=_QUESTION_AT_EOF,
    answers=[("--answer", "\udcff")],
    timeout="5",
    format="text",
    answers_file=None,
    expect=[],
)
@example(
    stream=_QUESTION_AT_EOF,
    answers=[("--answer", "x" * 100_000)],
    timeout="5",
    format="json",
    answers_file=None,
    expect=[],
)
def _drive_conform(
    *,
    stream: bytes,
    answers: list[tuple[str, str]],
    timeout: str,
    format: str,
    answers_file: bytes | None,
    expect: list[tuple[str, str]],
) -> None:
    with _scratch() as folder:
        log = _file(folder, b"out.log", stream)
        options: list[str | bytes] = ["--timeout", timeout, "--format", format]
        for option, value in [*answers, *expect]:
            options += [option, value]
        if answers_file is not None:
            options += ["--answers", _file(folder, b"answers", answers_file)]
        command: list[str | bytes] = [sys.executable, "-c", _ADAPTER, log]
        outcome = _process(["conform", *options, "--", *command], cwd=folder)
    _check(outcome)
    if outcome.status in (0, 1):
        if format in ("json", "sarif"):
            json.loads(outcome.stdout.decode("utf-8"))
        elif format == "github":
            assert all(line.startswith(b"::") for line in outcome.stdout.splitlines())
        [summary] = outcome.stderr.decode().splitlines()
        assert summary.startswith("conform: ")


# lsp: the server fed garbage on stdin must end at end of input, without a traceback.
def _check_lsp(outcome: Outcome) -> None:
    """No traceback, a documented status, and every stderr line one problem of the server's."""
    err = outcome.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert outcome.status in (0, 1, 2), (outcome.status, err)
    for line in err.splitlines():
        assert line.startswith("bernstein-signals"), f"not one line per problem: {err!r}"


def _frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


_INITIALIZE = _frame(
    json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    ).encode()
)
_LSP_GARBAGE = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [
            b"Content-Length: 12345678\r\n\r\n{}",
            b"Content-Length: 1000000000000000\r\n\r\n",
            b"Content-Length: 5\r\n" + b"h" * 10_000 + b"\r\n\r\n",
            b"Content-Length: -5\r\n\r\n",
            b"Content-Length: abc\r\n\r\n",
            _frame(b"{not json"),
            _frame(b"[" * 10_000),
            _frame(b'{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{}}'),
            _frame(
                b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":'
                b'{"uri":"file:///x.log","languageId":"bernstein-log","version":1,"text":'
                b'"BERNSTEIN:COMPLETED {\\"a\\":[[[["}}}'
            ),
            _frame(
                b'{"jsonrpc":"2.0","id":3,"method":"textDocument/completion","params":'
                b'{"textDocument":{"uri":"file:///x.log"},"position":{"line":99,"character":-1}}}'
            ),
        ]
    ),
)


@settings(_PROCESS_EXAMPLES, max_examples=20)
@given(pieces=st.lists(_LSP_GARBAGE, max_size=4), initialize=st.booleans())
@example(  # pygls formats the traceback of a message it cannot structure into the log line
    pieces=[b'Content-Length: 31\r\n\n{"jsonrpc":"","":2,"":"","":{}}'], initialize=False
)
def _drive_lsp(pieces: list[bytes], initialize: bool) -> None:
    stdin = (_INITIALIZE if initialize else b"") + b"".join(pieces)
    outcome = _process(["lsp"], stdin=stdin, timeout=120)
    _check_lsp(outcome)


_SCHEMA_FILES = sorted(path.name for path in (ROOT / "schema").glob("*.json"))


def _hostile_folder(folder: Path, replaced: str | None, content: bytes) -> bytes:
    """A copy of schema/ with one file (if any) replaced by ``content``."""
    target = os.path.join(os.fsencode(folder), b"schema")
    os.mkdir(target)
    for name in _SCHEMA_FILES:
        data = content if name == replaced else (ROOT / "schema" / name).read_bytes()
        with open(os.path.join(target, os.fsencode(name)), "wb") as handle:
            handle.write(data)
    return target


_SIDES = st.one_of(
    st.just("schema"),
    st.just("hostile"),
    TEXTS,
    TEXTS.map(lambda ref: "git:" + ref),
    st.sampled_from(["git:HEAD", "git:HEAD~1", "git:", "git:-x", "git:HEAD:schema"]),
)


@_EXAMPLES
@given(
    old=_SIDES,
    new=_SIDES,
    replaced=st.sampled_from([None, *_SCHEMA_FILES]),
    content=STREAMS,
    format=st.sampled_from(["text", "json", "sarif", "github", "markdown"]),
    flags=st.lists(st.sampled_from(["--allow-no-baseline", "--rules"]), max_size=2),
)
@example(
    old="schema", new="hostile", replaced="vocabulary.json", content=b"{", format="json", flags=[]
)
def _drive_diff(
    *, old: str, new: str, replaced: str | None, content: bytes, format: str, flags: list[str]
) -> None:
    with _scratch() as folder:
        hostile = _hostile_folder(folder, replaced, content)
        sides = [
            hostile if side == "hostile" else str(ROOT / "schema") if side == "schema" else side
            for side in (old, new)
        ]
        outcome = _in_process(["diff", "--format", format, *flags, *sides])
    _check(outcome)


@settings(_EXAMPLES, max_examples=10)
@given(
    name=NAMES,
    occupied=st.sampled_from(["free", "file", "link", "fifo", "package-file", "package-link"]),
    check=st.booleans(),
)
def _drive_vendor(name: bytes, occupied: str, check: bool) -> None:
    with _scratch() as folder:
        target = os.path.join(os.fsencode(folder), name)
        package = os.path.join(target, b"bernstein_signals")
        if occupied == "file":
            _file(folder, name, b"in the way")
        elif occupied == "link":
            os.symlink(b"/nonexistent/elsewhere", target)
        elif occupied == "fifo":
            os.mkfifo(target)
        elif occupied == "package-file":
            os.mkdir(target)
            with open(package, "wb") as handle:
                handle.write(b"in the way")
        elif occupied == "package-link":
            os.mkdir(target)
            os.symlink(b"/nonexistent/elsewhere", package)
        _check(_in_process(["vendor", *(["--check"] if check else []), target]))


_VECTOR_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=30), st.lists(st.text(max_size=5))
)
_HOSTILE_VECTOR = st.fixed_dictionaries(
    {
        "id": st.text(max_size=8),
        "type": st.sampled_from(
            ["line", "format", "payload", "parse-reply", "format-reply", "stream", "x"]
        ),
    },
    optional={
        "line": st.one_of(st.text(max_size=40), st.sampled_from(_SHAPES).map(str)),
        "kind": st.sampled_from([*KINDS, "NOPE", ""]),
        "payload": st.one_of(st.none(), st.text(max_size=40), st.just("[" * 5000)),
        "stream_base64": st.text(max_size=20),
        "expected": st.dictionaries(
            st.sampled_from(["kind", "payload", "reason", "line", "error", "errors", "reply"]),
            _VECTOR_VALUES,
        ),
    },
)
_VECTOR_FILES = st.one_of(
    st.binary(max_size=300),
    st.lists(_HOSTILE_VECTOR, max_size=4).map(
        lambda vectors: json.dumps(
            {"format": "bernstein-signals-conformance/1", "vectors": vectors}
        ).encode()
    ),
)
_HARNESS_ECHO = (
    "import sys\nfor _ in sys.stdin: sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"
)


@_PROCESS_EXAMPLES
@given(
    document=_VECTOR_FILES,
    harness=st.sampled_from(["python", "echo", "exit", "missing"]),
    answer=st.one_of(st.binary(max_size=200), st.sampled_from([b"{}\n", b"[]\n", b"\xff\n"])),
    known=st.one_of(st.none(), st.binary(max_size=60)),
)
def _drive_conformance(document: bytes, harness: str, answer: bytes, known: bytes | None) -> None:
    with _scratch() as folder:
        os.mkdir(folder / "v")
        _file(folder / "v", b"v.json", document)
        commands: dict[str, list[str | bytes]] = {
            "python": [sys.executable, str(ROOT / "conformance" / "harness" / "python.py")],
            "echo": [sys.executable, "-c", _HARNESS_ECHO, _file(folder, b"answer", answer)],
            "exit": [sys.executable, "-c", "import sys; sys.exit(4)"],
            "missing": [b"no-such-harness-\xff"],
        }
        command = commands[harness]
        options: list[str | bytes] = ["--timeout", "5", "--vectors", str(folder / "v")]
        if known is not None:
            options += ["--known-failures", _file(folder, b"known.toml", known)]
        outcome = _process(["conformance", *options, "--", *command], cwd=folder)
    _check(outcome)


DRIVERS: dict[str, Callable[[], Any]] = {
    "conform": _drive_conform,
    "conformance": _drive_conformance,
    "diff": _drive_diff,
    "emit": _drive_emit,
    "generate": _drive_generate,
    "lsp": _drive_lsp,
    "parse": _drive_parse,
    "schema": _drive_schema,
    "shell": _drive_shell,
    "validate": _drive_validate_all,
    "vendor": _drive_vendor,
    "wrap": _drive_wrap,
}


def test_every_command_has_a_driver() -> None:
    """A command added to the CLI without a hostile-input driver fails here."""
    assert sorted(DRIVERS) == sorted(COMMANDS)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_command_survives_hostile_input(command: str) -> None:
    driver = DRIVERS.get(command)
    assert driver is not None, f"{command}: no hostile-input driver in {__name__}"
    driver()


# ---------------------------------------------------------------------------
# Known bugs in files this suite's owner does not own: fixed there, these XPASS and fail
# ---------------------------------------------------------------------------


def _names_a_file_that_is_not_utf8(command: str, format: str) -> None:
    with _scratch() as folder:
        path = _file(folder, b"run \xff.log", b"out\nBERNSTEIN:COMPLETED\n")
        outcome = _in_process([command, "--format", format, path])
    _check(outcome, allowed=(0,))
    text = outcome.stdout.decode("utf-8")  # valid UTF-8, the name escaped as the format says
    documents = text.split("\n")[:-1] if format in ("jsonl", "cloudevents") else [text]
    for document in documents:
        json.loads(document)


def test_parse_names_a_file_whose_name_is_not_utf8() -> None:
    for format in ("jsonl", "cloudevents"):
        _names_a_file_that_is_not_utf8("parse", format)


def test_validate_names_a_file_whose_name_is_not_utf8() -> None:
    for format in ("json", "sarif"):
        _names_a_file_that_is_not_utf8("validate", format)


def test_parse_refuses_a_source_that_is_not_utf8() -> None:
    outcome = _in_process(
        ["parse", "--format", "cloudevents", "--source", "urn:\udcff", "-"],
        stdin=b"BERNSTEIN:COMPLETED\n",
    )
    _check(outcome, allowed=(2,))


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("stdin", "problem"),
    [
        (b"Content-Length: 1000000000000000\r\n\r\n", b"Content-Length 1000000000000000"),
        (b"Content-Length: %d\r\n\r\n" % (MAX_MESSAGE_BYTES + 1), b"message bound"),
        (b"Content-Length: 5\r\n" + b"x" * (MAX_HEADER_BYTES + 1), b"header line"),
    ],
)
def test_lsp_refuses_a_message_over_its_bounds(stdin: bytes, problem: bytes) -> None:
    """Nothing is allocated for an absurd size: one line naming the bound, exit 2."""
    outcome = _process(["lsp"], stdin=stdin, timeout=100)
    _check_lsp(outcome)
    assert outcome.status == 2
    [line] = outcome.stderr.splitlines()
    assert problem in line, line


@pytest.mark.timeout(120)
def test_lsp_reads_a_message_at_its_bound() -> None:
    """The bound is inclusive: a body of exactly MAX_MESSAGE_BYTES is read (and is not JSON)."""
    body = b" " * MAX_MESSAGE_BYTES
    outcome = _process(["lsp"], stdin=_frame(body), timeout=100)
    _check_lsp(outcome)
    assert outcome.status == 0
    assert b"Unable to handle message" in outcome.stderr


@pytest.mark.timeout(120)
def test_lsp_logs_a_malformed_message_in_one_line() -> None:
    outcome = _process(["lsp"], stdin=_frame(b"{not json") + _frame(b"[1"), timeout=100)
    _check_lsp(outcome)
    assert outcome.status == 0
    first, second = outcome.stderr.decode().splitlines()
    assert "Unable to handle message: JSONDecodeError" in first, first
    assert "Unable to handle message: JSONDecodeError" in second, second
