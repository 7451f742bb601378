"""The fence key: its text, its start-up handover, and that the secret never shows.

The start-up step runs in child interpreters (the package takes the key when it is
imported), with the key on a socket (fd 3) or in the environment.
"""

from __future__ import annotations

import copy
import os
import pickle
import re
import subprocess
import sys
import tempfile
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    KEY_EXPOSED,
    KEY_FD_VARIABLE,
    KEY_REFUSED_STATUS,
    KEY_VARIABLE,
    FenceVerifier,
    SignalKey,
    SignalMarker,
    fence,
    process_key,
    take_process_key,
)
from fence_support import socket_holding

_ENV = {name: value for name, value in os.environ.items() if not name.startswith("BERNSTEIN_")}

_CHILD = textwrap.dedent(
    """
    import json, os, subprocess, sys
    import bernstein_signals as b
    b.emit("QUESTION", {"question": "Apply?"})
    b.emit("COMPLETED")
    probe = (
        "import os, json; fd3 = 'closed'\\n"
        "try:\\n    fd3 = os.fstat(3) and 'open'\\nexcept OSError:\\n    pass\\n"
        "print(json.dumps([sorted(k for k in os.environ if 'SIGNAL_KEY' in k), fd3]))"
    )
    grandchild = subprocess.run(
        [sys.executable, "-c", probe],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, close_fds=False,
    )
    try:
        os.fstat(3)
        fd3 = "open"
    except OSError:
        fd3 = "closed"
    key = b.process_key()
    sys.stderr.write(json.dumps({
        "key": None if key is None else key.run,
        "environ": sorted(k for k in os.environ if "SIGNAL_KEY" in k),
        "fd3": fd3,
        "grandchild": json.loads(grandchild.stdout),
    }) + "\\n")
    """
)


def _run(
    env: dict[str, str], key_on_fd3: str | None = None, *, channel: str = "socket"
) -> subprocess.CompletedProcess[str]:
    """The child, with ``key_on_fd3`` on its fd 3 (the shell redirects it): a socket
    holding the text, or (``channel``) a pipe or a file, which the child must refuse."""
    command = [sys.executable, "-c", _CHILD]
    if key_on_fd3 is None:
        return subprocess.run(
            command,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env={**_ENV, **env},
            timeout=60,
            check=False,
        )
    command = ["sh", "-c", 'exec "$@" 3<&0 </dev/null', "sh", *command]
    data = key_on_fd3.encode()
    if channel == "socket":
        fd, _ = socket_holding(data)
    elif channel == "pipe":
        fd, writer = os.pipe()
        os.write(writer, data)
        os.close(writer)
    else:
        with tempfile.TemporaryFile() as held:
            held.write(data)
            held.flush()
            fd = os.dup(held.fileno())
        os.lseek(fd, 0, os.SEEK_SET)
    try:
        return subprocess.run(
            command,
            stdin=fd,
            capture_output=True,
            text=True,
            env={**_ENV, **env},
            timeout=60,
            check=False,
        )
    finally:
        os.close(fd)


def _report(result: subprocess.CompletedProcess[str]) -> dict[str, object]:
    import json

    assert result.returncode == 0, result.stderr
    report: dict[str, object] = json.loads(result.stderr.splitlines()[-1])
    return report


@pytest.mark.timeout(120)
@pytest.mark.parametrize("handover", ["fd", "environment", "both"])
def test_the_package_takes_the_key_at_import_and_hides_it_from_children(handover: str) -> None:
    key, decoy = SignalKey.generate(), SignalKey.generate()
    if handover == "fd":
        result = _run({KEY_FD_VARIABLE: "3"}, key.text() + "\n")
    elif handover == "environment":
        result = _run({KEY_VARIABLE: key.text()})
    else:  # the descriptor wins, and both variables go
        result = _run({KEY_FD_VARIABLE: "3", KEY_VARIABLE: decoy.text()}, key.text())
    report = _report(result)
    assert report["key"] == key.run
    assert report["environ"] == []
    assert report["fd3"] == "closed"
    assert report["grandchild"] == [[], "closed"]
    assert key.text() not in result.stdout + result.stderr
    verifier = FenceVerifier(key)
    verdicts = [verifier.check(line) for line in result.stdout.splitlines()]
    assert [(v.signal.kind, v.seq) for v in verdicts if v.signal] == [
        ("QUESTION", 1),
        ("COMPLETED", 2),
    ]
    assert all(v.signal for v in verdicts)


_SECRETISH = "0123456789abcdef:" + "f" * 63 + "g"


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("env", "fd_text", "channel", "problem"),
    [
        (
            {KEY_VARIABLE: _SECRETISH},
            None,
            "socket",
            "BERNSTEIN_SIGNAL_KEY is not a signal key: expected 16 hex digits, ':', 64 hex digits",
        ),
        (
            {KEY_FD_VARIABLE: "3"},
            _SECRETISH,
            "socket",
            "the text on fd 3 (BERNSTEIN_SIGNAL_KEY_FD) is not a signal key: expected 16 hex"
            " digits, ':', 64 hex digits",
        ),
        (
            {KEY_FD_VARIABLE: "3"},
            _SECRETISH.replace("g", "f") + "\nmore",
            "socket",
            "the text on fd 3 (BERNSTEIN_SIGNAL_KEY_FD) is not a signal key: expected 16 hex"
            " digits, ':', 64 hex digits",
        ),
        (
            {KEY_FD_VARIABLE: _SECRETISH},
            None,
            "socket",
            "BERNSTEIN_SIGNAL_KEY_FD is not a descriptor number 3..9",
        ),
        (
            {KEY_FD_VARIABLE: "7"},
            None,
            "socket",
            "BERNSTEIN_SIGNAL_KEY_FD names fd 7, which cannot be read (Bad file descriptor)",
        ),
        (
            {KEY_FD_VARIABLE: "3"},
            _SECRETISH.replace("g", "f") + "\n",
            "pipe",
            f"BERNSTEIN_SIGNAL_KEY_FD names fd 3, a pipe, {KEY_EXPOSED}",
        ),
        (
            {KEY_FD_VARIABLE: "3"},
            _SECRETISH.replace("g", "f") + "\n",
            "file",
            f"BERNSTEIN_SIGNAL_KEY_FD names fd 3, a file, {KEY_EXPOSED}",
        ),
    ],
)
def test_a_key_expected_but_not_taken_stops_the_process_with_one_failed(
    env: dict[str, str], fd_text: str | None, channel: str, problem: str
) -> None:
    """Unkeyed, every line the adapter wrote would be refused, and its orchestrator would
    wait for a terminal that never counts: it says why, once per stream, and stops."""
    result = _run(env, fd_text, channel=channel)
    assert result.returncode == KEY_REFUSED_STATUS
    reason = f"no signal key: {problem}"
    assert result.stderr == f"bernstein-signals: {reason}\n"
    failed = FenceVerifier(None).check(result.stdout)
    assert result.stdout.count("\n") == 1
    assert failed.signal is not None
    assert failed.signal.kind == "FAILED"
    assert failed.signal.payload["reason"] == reason
    assert "f" * 20 not in result.stdout + result.stderr


def test_take_process_key_from_a_mapping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fence._Process, "key", None)
    monkeypatch.setattr(fence._Process, "marker", None)
    key = SignalKey.generate()
    environ = {KEY_VARIABLE: key.text() + "\n", "OTHER": "kept"}
    assert take_process_key(environ) == key
    assert environ == {"OTHER": "kept"}
    assert process_key() == key
    assert take_process_key(environ) == key  # nothing to take: unchanged


def test_take_process_key_stops_a_process_told_to_expect_a_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        take_process_key({KEY_VARIABLE: ""})
    assert stopped.value.code == KEY_REFUSED_STATUS
    out, err = capsys.readouterr()
    reason = "no signal key: BERNSTEIN_SIGNAL_KEY is not a signal key"
    assert out.startswith(f'BERNSTEIN:FAILED {{"reason":"{reason}')
    assert err.startswith(f"bernstein-signals: {reason}")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0123456789abcdef",
        "0123456789abcdef:" + "a" * 63,
        "0123456789abcdef:" + "a" * 65,
        "0123456789ABCDEF:" + "a" * 64,
        " 0123456789abcdef:" + "a" * 64,
        "0123456789abcdef:" + "a" * 64 + "\n\n",
        "0123456789abcdef:" + "a" * 64 + "\r\n",
        "0123456789abcdef;" + "a" * 64,
        "0123456789abcdef:" + "a" * 63 + "\u0661",
    ],
)
def test_parse_refuses_anything_but_the_key_shape(text: str) -> None:
    expected = "not a signal key: expected 16 hex digits, ':', 64 hex digits"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        SignalKey.parse(text)


def test_key_text_round_trip_and_value_semantics() -> None:
    key = SignalKey.generate()
    assert SignalKey.parse(key.text()) == key
    assert SignalKey.parse(key.text() + "\n") == key
    assert key != SignalKey.generate()
    assert len({key, SignalKey.parse(key.text())}) == 1
    assert copy.copy(key) is key
    assert copy.deepcopy(key) is key
    with pytest.raises(AttributeError):
        key.run = "0" * 16
    with pytest.raises(TypeError, match="not pickled"):
        pickle.dumps(key)
    with pytest.raises(TypeError, match="is a str"):
        SignalKey.parse(key.text().encode())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="secret is 32 bytes"):
        SignalKey(key.run, b"short")


@settings(max_examples=200)
@given(
    secret=st.binary(min_size=32, max_size=32),
    run=st.text("0123456789abcdef", min_size=16, max_size=16),
)
def test_the_secret_never_shows_in_text_meant_to_be_read(secret: bytes, run: str) -> None:
    key = SignalKey(run, secret)
    marker = SignalMarker(key)
    verifier = FenceVerifier(key, allow_kinds=["COMPLETED"])
    shown = [repr(key), str(key), f"{key}", repr(marker), repr(verifier)]
    line = marker.mark("FAILED", {"reason": "r"})
    shown += [str(verifier.check(line)), str(verifier.check(line.replace('r"', 's"')))]
    shown += [str(verifier.check(marker.mark("COMPLETED")))]
    for bad in (key.text() + "x", "X" + key.text(), key.text()[:-1]):
        with pytest.raises(ValueError, match="not a signal key") as caught:
            SignalKey.parse(bad)
        shown.append(str(caught.value))
    with pytest.raises(TypeError) as pickled:
        pickle.dumps(key)
    shown.append(str(pickled.value))
    hex_secret = secret.hex()
    for text in shown:
        assert hex_secret not in text
        assert hex_secret[:32] not in text
        assert hex_secret[32:] not in text
