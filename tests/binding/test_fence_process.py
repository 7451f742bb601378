"""The process that holds a key: what its agent, its children and its files cannot do.

Each scenario runs an adapter in a child interpreter (the package takes the key
at import), as the reviewer's repros did: the agent reading the adapter's
``/proc`` files, a forked worker, a log the agent prints, a key descriptor whose
writer never closes it.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    KEY_FD_VARIABLE,
    KEY_READ_SECONDS,
    KEY_REFUSED_STATUS,
    KEY_VARIABLE,
    FenceVerdict,
    FenceVerifier,
    SignalKey,
    iter_signals,
)
from bernstein_signals._fence_key import _read_key_bytes, protect_process
from bernstein_signals_toolkit.tools.commands._process import ProcessGroup
from fence_support import socket_holding

_ENV = {name: value for name, value in os.environ.items() if not name.startswith("BERNSTEIN_")}
_LINUX = sys.platform.startswith("linux")
_NOBODY = 65534


def _python(
    code: str, env: dict[str, str], *, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**_ENV, **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# The adapter lets its agent (a forked child: no exec, so nothing outside this
# interpreter need be readable) open the adapter's /proc files. As root the test
# first becomes nobody: root's CAP_SYS_PTRACE passes the very check under test,
# and a real agent is the adapter's own, unprivileged user. Changing the uid
# clears the dumpable flag, so the adapter sets it back to 1, as exec leaves it
# for a freshly started adapter, and only then takes the key. The fence is imported
# before the uid changes: nobody may not read the interpreter's own standard library.
_PROC_ADAPTER = """
import ctypes, errno, json, os, sys
import bernstein_signals as b
import bernstein_signals.fence
key_text = os.environ.pop("_TEST_KEY", "")
if os.getuid() == 0:
    os.setgroups([])
    os.setgid(%(nobody)d)
    os.setuid(%(nobody)d)
    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)
if key_text:
    os.environ[b.KEY_VARIABLE] = key_text
    assert b.take_process_key() is not None
reader, writer = os.pipe()
pid = os.fork()
if pid == 0:
    parent = os.getppid()
    seen = {}
    for name, mode in (("mem", os.O_RDONLY), ("environ", os.O_RDONLY), ("fd/0", os.O_WRONLY)):
        try:
            fd = os.open(f"/proc/{parent}/{name}", mode)
            if name == "environ":
                os.read(fd, 1)
            os.close(fd)
            seen[name] = "opened"
        except OSError as exc:
            seen[name] = errno.errorcode.get(exc.errno, str(exc.errno))
    os.write(writer, json.dumps(seen).encode())
    os._exit(0)
os.close(writer)
os.waitpid(pid, 0)
print(os.read(reader, 4096).decode())
"""


@pytest.mark.skipif(not _LINUX, reason="PR_SET_DUMPABLE and /proc are Linux's")
@pytest.mark.timeout(120)
@pytest.mark.parametrize("keyed", [False, True])
def test_the_agent_cannot_open_the_adapters_proc_files_once_it_took_a_key(keyed: bool) -> None:
    """Reading mem (the key), environ, or writing fd/0 (a forged reply) all need ptrace access."""
    key = SignalKey.generate()
    result = _python(
        _PROC_ADAPTER % {"nobody": _NOBODY}, {"_TEST_KEY": key.text() if keyed else ""}
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    if keyed:
        assert seen == {"mem": "EACCES", "environ": "EACCES", "fd/0": "EACCES"}
    else:  # the control: the same agent opens them when the adapter holds no key
        assert seen["environ"] == "opened"
        assert seen["fd/0"] == "opened"
        if not Path("/proc/sys/kernel/yama/ptrace_scope").exists():
            assert seen["mem"] == "opened"  # Yama (scope >= 1) denies it to a child anyway


# The attack of issue 23: a process of the adapter's user opens /proc/PID/fd/N of an
# adapter that has just started (dumpable, the key not yet taken): the key's descriptor
# (to read the key, or write its own first), stdin (forged replies) and stdout. The
# adapter here becomes nobody first, as _PROC_ADAPTER does, loads the binding without
# taking the key, lets a forked agent try every descriptor it holds, and only then takes
# the key and emits. Started by the toolkit (wrap and conform's ProcessGroup), all three
# are sockets, which no open() reaches; the control, started the old way with pipes,
# shows the probe reaching them (and the adapter then refusing its pipe).
_REOPEN_ADAPTER = """
import ctypes, errno, json, os, sys
fd_text = os.environ.pop(%(variable)r)
import bernstein_signals as b
import bernstein_signals.constructors, bernstein_signals.fence, ctypes.util
os.environ[%(variable)r] = fd_text
if os.getuid() == 0:
    os.setgroups([])
    os.setgid(%(nobody)d)
    os.setuid(%(nobody)d)
ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # dumpable, as a freshly started adapter is
reader, writer = os.pipe()
pid = os.fork()
if pid == 0:
    parent, seen = os.getppid(), {}
    for name, number, mode in (("key", int(fd_text), os.O_RDWR), ("stdin", 0, os.O_WRONLY),
                               ("stdout", 1, os.O_WRONLY)):
        try:
            os.close(os.open(f"/proc/{parent}/fd/{number}", mode))
            seen[name] = "opened"
        except OSError as exc:
            seen[name] = errno.errorcode.get(exc.errno, str(exc.errno))
    os.write(writer, json.dumps(seen).encode())
    os._exit(0)
os.close(writer)
os.waitpid(pid, 0)
sys.stderr.write(os.read(reader, 4096).decode() + "\\n")
b.take_process_key()
b.emit("COMPLETED")
"""


def _pipes_of_nobody(count: int) -> list[tuple[int, int]]:
    if os.getuid() != 0:
        return [os.pipe() for _ in range(count)]
    setfsuid = ctypes.CDLL(None).setfsuid
    setfsuid(_NOBODY)
    try:
        return [os.pipe() for _ in range(count)]
    finally:
        setfsuid(0)


@pytest.mark.skipif(not _LINUX, reason="/proc/PID/fd is Linux's")
@pytest.mark.timeout(120)
@pytest.mark.parametrize("started", ["by the toolkit", "with pipes (the control)"])
def test_no_process_of_the_user_reopens_the_adapters_key_stdin_or_stdout(started: str) -> None:
    key = SignalKey.generate()
    code = _REOPEN_ADAPTER % {"variable": KEY_FD_VARIABLE, "nobody": _NOBODY}
    command = [sys.executable, "-c", code]
    if started == "by the toolkit":
        group = ProcessGroup(
            command,
            key=key,
            env=_ENV,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        with group as process:
            out, err = process.communicate(timeout=60)
        seen = json.loads(err.decode().splitlines()[-1])
        assert seen == {"key": "ENXIO", "stdin": "ENXIO", "stdout": "ENXIO"}
        assert FenceVerifier(key).check(out).signal is not None
        return
    # The orchestrator's pipes, made by the adapter's user as a real orchestrator's are
    # (as root: with nobody's fsuid, which a pipe's inode takes as its owner).
    (key_read, key_write), (in_read, in_write), (out_read, out_write) = _pipes_of_nobody(3)
    os.write(key_write, key.text().encode() + b"\n")
    os.close(key_write)
    try:
        control = subprocess.Popen(
            command,
            env={**_ENV, KEY_FD_VARIABLE: str(key_read)},
            pass_fds=(key_read,),
            stdin=in_read,
            stdout=out_write,
            stderr=subprocess.PIPE,
        )
        for fd in (key_read, in_read, out_write):
            os.close(fd)
        _, err = control.communicate(timeout=60)
    finally:
        for fd in (in_write, out_read):
            os.close(fd)
    seen = json.loads(err.decode().splitlines()[0])
    assert seen == {"key": "opened", "stdin": "opened", "stdout": "opened"}
    assert control.returncode == KEY_REFUSED_STATUS  # and the adapter refuses a pipe


def test_protect_process_is_a_no_op_off_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert protect_process() is False


@pytest.mark.skipif(not _LINUX, reason="PR_SET_DUMPABLE is Linux's")
@pytest.mark.timeout(120)
def test_protect_process_sets_the_flag_and_exec_resets_it() -> None:
    code = """
        import ctypes, subprocess, sys
        from bernstein_signals._fence_key import _read_key_bytes, protect_process
        get = lambda: ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
        before = get()
        done = protect_process()
        child = subprocess.run(
            [sys.executable, "-c", "import ctypes; print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))"],
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
        )
        print(before, done, get(), child.stdout.strip())
    """
    result = _python(code, {})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "True", "0", "1"]


def _fenced_run(
    adapter: str, key: SignalKey
) -> tuple[list[tuple[str, dict[str, object]]], list[FenceVerdict]]:
    result = _python(adapter, {KEY_VARIABLE: key.text()})
    assert result.returncode == 0, result.stderr
    rejected: list[FenceVerdict] = []
    accepted = [
        (str(signal.kind), dict(signal.payload))
        for signal in iter_signals(result.stdout.splitlines(), key=key, on_rejected=rejected.append)
    ]
    return accepted, rejected


@pytest.mark.timeout(120)
def test_a_forked_child_writes_unmarked_lines_and_the_parents_terminal_counts() -> None:
    """Before: parent and child counted the same numbers; the parent's COMPLETED was a replay."""
    adapter = """
        import os
        import bernstein_signals as b
        b.emit("BLOCKED", {"reason": "before fork"})
        pid = os.fork()
        if pid == 0:
            b.emit("BLOCKED", {"reason": "from worker"})
            print(b.process_key(), flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
        b.emit("COMPLETED")
    """
    accepted, rejected = _fenced_run(adapter, SignalKey.generate())
    assert accepted == [("BLOCKED", {"reason": "before fork"}), ("COMPLETED", {})]
    assert [(verdict.code, verdict.problem) for verdict in rejected] == [
        ("BS601", "unauthenticated BLOCKED signal: not marked")
    ]


@pytest.mark.timeout(120)
def test_a_signal_emitted_to_a_log_is_unmarked_so_the_agent_cannot_replay_it(
    tmp_path: Path,
) -> None:
    """The reviewer's scenario: a PLAN_READY in a log, printed by the agent, then COMPLETED."""
    log = tmp_path / "adapter.log"
    adapter = f"""
        import subprocess, sys
        import bernstein_signals as b
        with open({str(log)!r}, "w") as log:
            b.emit("PLAN_READY", {{"path": ".sdd/plans/draft.md"}}, file=log)
        subprocess.run(["cat", {str(log)!r}], stdin=subprocess.DEVNULL)
        b.emit("QUESTION", {{"question": "Apply?"}}, file=sys.stdout)
        b.emit("COMPLETED")
    """
    accepted, rejected = _fenced_run(adapter, SignalKey.generate())
    assert log.read_text() == 'BERNSTEIN:PLAN_READY {"path":".sdd/plans/draft.md"}\n'
    assert accepted == [("QUESTION", {"question": "Apply?"}), ("COMPLETED", {})]
    assert [verdict.code for verdict in rejected] == ["BS601"]


_KEY_IMPORT = (
    "import sys, bernstein_signals as b; key = b.process_key();"
    " print('none' if key is None else key.run)"
)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("written", "taken"),
    [
        ("", False),  # nothing, and the writer stays open
        ("0123456789abcdef:" + "ab" * 20, False),  # part of a key
        ("0123456789abcdef:" + "ab" * 32, True),  # the whole key, no newline
        ("0123456789abcdef:" + "ab" * 32 + "\n", True),
        ("0123456789abcdef:" + "ab" * 32 + "\nmore", False),  # more than a key
        ("0123456789abcdef:" + "ab" * 32 + "c", False),
    ],
    ids=["nothing", "part", "key", "key-newline", "key-newline-more", "key-more"],
)
def test_a_key_descriptor_whose_writer_stays_open_never_hangs_the_import(
    written: str, taken: bool
) -> None:
    """The read stops at the key's length (and what is there after it) or KEY_READ_SECONDS."""
    reader, writer = socket_holding(written.encode(), close_writer=False)
    assert writer is not None
    try:
        result = subprocess.run(
            ["sh", "-c", 'exec "$@" 3<&0 </dev/null', "sh", sys.executable, "-c", _KEY_IMPORT],
            env={**_ENV, KEY_FD_VARIABLE: "3"},
            stdin=reader,
            capture_output=True,
            text=True,
            timeout=10 * KEY_READ_SECONDS + 30,
            check=False,
        )
    finally:
        os.close(reader)
        writer.close()
    if taken:
        assert (result.returncode, result.stderr) == (0, "")
        assert result.stdout.strip() == "0123456789abcdef"
        return
    assert result.returncode == KEY_REFUSED_STATUS
    warnings = result.stderr.splitlines()
    assert len(warnings) == 1
    assert warnings[0].startswith("bernstein-signals: no signal key: ")
    assert "ab" * 10 not in result.stderr + result.stdout
    if not written:
        assert f"gave no whole key within {KEY_READ_SECONDS} s" in warnings[0]


_KEY_BYTES = len("0123456789abcdef:" + "ab" * 32)


@settings(max_examples=300)
@given(data=st.binary(max_size=3 * _KEY_BYTES), writer_open=st.booleans())
def test_the_key_read_takes_the_keys_length_and_two_bytes_at_most(
    data: bytes, writer_open: bool
) -> None:
    """Whatever is on the socket, and whether its writer closed it: data[:81 + 2], at once.

    (Cases that would wait out KEY_READ_SECONDS are the subprocess test's.)
    """
    assume(not writer_open or len(data) >= _KEY_BYTES or b"\n" in data)
    reader, writer = socket_holding(data, close_writer=not writer_open)
    try:
        assert _read_key_bytes(reader) == data[: _KEY_BYTES + 2]
    finally:
        os.close(reader)
        if writer is not None:
            writer.close()
