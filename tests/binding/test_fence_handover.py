"""The key's handover, the class of issue 23: every binding takes its key from a socket only.

A pipe or a file on the key's descriptor can be opened again through
``/proc/PID/fd/N`` by any process of the adapter's user, before the adapter reads
it. So every adapter (Python, the six shells, Node) refuses those, and stops with
one FAILED; and both orchestrator calls (Python's ``popen_with_key``, Node's
``spawnWithKey``) hand the key over on a socket, which every adapter takes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator

import pytest

from bernstein_signals import (
    KEY_EXPOSED,
    KEY_FD_VARIABLE,
    KEY_READ_SECONDS,
    KEY_REFUSED_STATUS,
    FenceVerifier,
    SignalKey,
    failed,
    popen_with_key,
)
from fence_support import socket_holding
from shell_support import LIBRARY, SHELLS, shell_command
from typescript.node_support import BINDING, HERE, environment, node

_ENV = {name: value for name, value in os.environ.items() if not name.startswith("BERNSTEIN_")}
_ADAPTERS = ["python", "node", *SHELLS]


def _adapter(name: str) -> list[str]:
    """An adapter that takes its key (if told of one) and emits one COMPLETED."""
    if name == "python":
        return [sys.executable, "-c", "import bernstein_signals as b; b.emit(b.completed())"]
    if name == "node":
        code = (
            f"const n = await import({json.dumps(str(BINDING / 'node.js'))});"
            f" const b = await import({json.dumps(str(BINDING / 'index.js'))});"
            " const key = n.takeNodeProcessKey();"
            " console.log(key ? new b.SignalMarker(key).mark('COMPLETED', { vocabulary:"
            " b.VOCABULARY_VERSION }) : b.completed());"
        )
        return [node(), "--input-type=module", "-e", code]
    return [*shell_command(name), "-c", '. "$1"; bernstein_completed', "adapter", str(LIBRARY)]


def _env(name: str) -> dict[str, str]:
    return {**environment(), **_ENV} if name == "node" else dict(_ENV)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", _ADAPTERS)
def test_popen_with_key_hands_every_adapter_its_key(name: str) -> None:
    key = SignalKey.generate()
    with popen_with_key(
        _adapter(name),
        key,
        env=_env(name),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        out, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (0, b"")
    verdict = FenceVerifier(key).check(out)
    assert verdict.signal is not None, (out, verdict.problem)
    assert (verdict.signal.kind, verdict.seq) == ("COMPLETED", 1)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", ["python", "node", "bash", "dash"])
def test_spawn_with_key_hands_every_adapter_its_key(name: str) -> None:
    result = subprocess.run(
        [node(), str(HERE / "fence_node_orchestrator.mjs"), str(BINDING), *_adapter(name)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=_env("node"),
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer == {"status": 0, "verdicts": [{"kind": "COMPLETED", "code": None}], "stderr": ""}


def _channel(kind: str, data: bytes) -> int:
    """A descriptor of ``kind`` holding ``data`` (its writer closed)."""
    if kind == "pipe":
        reader, writer = os.pipe()
        os.write(writer, data)
        os.close(writer)
        return reader
    with tempfile.TemporaryFile() as held:
        held.write(data)
        held.flush()
        number = os.dup(held.fileno())
    os.lseek(number, 0, os.SEEK_SET)
    return number


def _on_fd_3(name: str, fd: int) -> subprocess.CompletedProcess[bytes]:
    """The adapter with ``fd`` as its descriptor 3 (the shell redirects it) and told so."""
    return subprocess.run(
        ["sh", "-c", 'exec "$@" 3<&0 </dev/null', "sh", *_adapter(name)],
        stdin=fd,
        capture_output=True,
        env={**_env(name), KEY_FD_VARIABLE: "3"},
        timeout=60,
        check=False,
    )


@pytest.mark.timeout(120)
@pytest.mark.parametrize("channel", ["pipe", "file"])
@pytest.mark.parametrize("name", _ADAPTERS)
def test_every_adapter_refuses_a_key_on_a_pipe_or_a_file(name: str, channel: str) -> None:
    key = SignalKey.generate()
    fd = _channel(channel, key.text().encode() + b"\n")
    try:
        result = _on_fd_3(name, fd)
    finally:
        os.close(fd)
    reason = f"no signal key: {KEY_FD_VARIABLE} names fd 3, a {channel}, {KEY_EXPOSED}"
    assert result.returncode == KEY_REFUSED_STATUS, result.stderr
    assert result.stderr.decode() == f"bernstein-signals: {reason}\n"
    assert result.stdout.decode() == failed(reason=reason) + "\n"


@pytest.fixture
def trickling() -> Iterator[int]:
    """A socket whose writer sends a key's worth of hex digits, one byte every 0.3 s."""
    reader, writer = socket_holding(b"", close_writer=False)
    assert writer is not None
    stop = threading.Event()

    def trickle() -> None:
        for byte in b"0123456789abcdef:" + b"ab" * 32:
            if stop.wait(0.3):
                return
            try:
                writer.send(bytes([byte]))
            except OSError:
                return

    sender = threading.Thread(target=trickle, daemon=True)
    sender.start()
    try:
        yield reader
    finally:
        stop.set()
        sender.join()
        writer.close()
        os.close(reader)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", [name for name in _ADAPTERS if name != "dash"])
def test_a_writer_that_trickles_the_key_cannot_hold_start_up(name: str, trickling: int) -> None:
    """The wait is bounded in all, not per byte (zsh read one byte at a time for up to
    KEY_READ_SECONDS each: 24 s for this writer). dash has no read -t: its orchestrator
    must close the socket."""
    started = time.monotonic()
    result = _on_fd_3(name, trickling)
    took = time.monotonic() - started
    assert result.returncode == KEY_REFUSED_STATUS, result.stderr
    # Where read -t cannot tell a timeout from an end (busybox, ksh93), the part read is no key.
    assert result.stderr.startswith(b"bernstein-signals: no signal key: ")
    assert result.stderr.count(b"\n") == 1
    assert took < 4 * KEY_READ_SECONDS, took  # the writer needs 24 s; 2 s and a start-up
