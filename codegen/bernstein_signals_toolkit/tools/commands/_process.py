"""What ``wrap`` and ``conform`` share: running the command in its own process group,
forwarding signals to that group, and describing how the command ended."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from types import FrameType, TracebackType
from typing import Any

from bernstein_signals import SignalKey, key_handover
from bernstein_signals_toolkit.toolkit_errors import ToolkitError, UsageError

__all__ = [
    "DRAIN_SECONDS",
    "FORWARDED_SIGNALS",
    "GRACE_SECONDS",
    "PIPE_READ_BYTES",
    "CommandNotRunnable",
    "ProcessGroup",
    "add_command_argument",
    "command_of",
    "exit_reason",
    "shell_status",
    "signal_name",
    "write_all",
]

FORWARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""Signals to ``wrap``/``conform`` that go on to the command's whole process group."""
GRACE_SECONDS = 3.0
"""After a forwarded signal, how long the group has to exit before it gets SIGKILL."""
DRAIN_SECONDS = 5.0
"""After a kill, how long to wait for output from processes that left the group."""
_POLL_SECONDS = 0.1
PIPE_READ_BYTES = 1 << 16
"""One read of a child's stdout: a Linux pipe's buffer, all one read can return."""


class CommandNotRunnable(ToolkitError):
    """The command could not be started; exit statuses as a shell's: 127 not found, 126 not
    executable."""

    def __init__(self, message: str, exit_status: int) -> None:
        super().__init__(message)
        self.exit_status = exit_status


def add_command_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="[--] CMD [ARG]...",
        help="the command to run (put -- before it when it starts with -)",
    )


def command_of(args: argparse.Namespace) -> list[str]:
    command: list[str] = list(args.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        raise UsageError("no command given (usage: ... [--] CMD [ARG]...)")
    return command


def _start(command: Sequence[str], **options: Any) -> subprocess.Popen[bytes]:
    """Popen, with a missing or non-executable command as a one-line error (127 or 126).

    Where ``stdin`` or ``stdout`` is ``PIPE``, the command gets a socket instead: a
    pipe can be opened again through ``/proc/PID/fd/N`` by any process of the same
    user (the agent it runs among them), to write forged replies or lines into it,
    while the command is dumpable (a shell or Node adapter always is); a socket
    cannot be. Ours is a file object as Popen's would be.
    """
    ours: dict[str, socket.socket] = {}
    theirs: list[socket.socket] = []
    for name in _SOCKET_STREAMS:
        if options.get(name) == subprocess.PIPE:
            ours[name], child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            theirs.append(child)
            options[name] = child.fileno()
    try:
        process = subprocess.Popen(list(command), **options)
    except FileNotFoundError:
        raise CommandNotRunnable(f"{command[0]}: command not found", 127) from None
    except PermissionError:
        raise CommandNotRunnable(f"{command[0]}: permission denied", 126) from None
    except OSError as exc:
        raise CommandNotRunnable(f"{command[0]}: cannot run: {exc.strerror or exc}", 126) from None
    finally:
        for child in theirs:
            child.close()
        if sys.exc_info()[0] is not None:
            for end in ours.values():
                end.close()
    buffering = options.get("bufsize", -1)
    for name, end in ours.items():
        # A descriptor, never a path: os.fdopen takes no file name.
        setattr(process, name, os.fdopen(end.detach(), _SOCKET_STREAMS[name], buffering))
    return process


_SOCKET_STREAMS = {"stdin": "wb", "stdout": "rb"}
"""The command's streams that :func:`_start` makes sockets when ``PIPE`` is asked, and our
end's mode."""


def signal_name(number: int) -> str:
    """``TERM`` for 15: the name without ``SIG``, or the number when it has none."""
    try:
        return signal.Signals(number).name.removeprefix("SIG")
    except ValueError:
        return str(number)


def exit_reason(returncode: int) -> str:
    """``exit N`` or ``signal NAME`` (``signal TERM``), as FAILED reasons say it."""
    return f"signal {signal_name(-returncode)}" if returncode < 0 else f"exit {returncode}"


def shell_status(returncode: int) -> int:
    """The exit status a shell reports: 128+N for a command killed by signal N."""
    return 128 - returncode if returncode < 0 else returncode


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class ProcessGroup:
    """A command in its own process group, and the signals that reach us forwarded to it.

    Entered, it installs handlers for :data:`FORWARDED_SIGNALS` and then starts
    the command, so no signal can fall between the two. Each such signal goes
    to the whole group; :data:`GRACE_SECONDS` after the first, the group gets
    SIGKILL, from a SIGALRM timer, so even a write blocked on our own stdout
    cannot hold the kill back. A self-pipe (``signal.set_wakeup_fd``) wakes
    :meth:`select`, so a loop waiting on the command's pipes notices at once.
    """

    def __init__(
        self, command: Sequence[str], *, key: SignalKey | None = None, **options: Any
    ) -> None:
        """``key``: a fenced run's key, handed to the command on a socket
        (:func:`bernstein_signals.key_handover`); ``options`` go to ``Popen``."""
        self._command = list(command)
        self._key = key
        self._options = options
        self.process: subprocess.Popen[bytes] | None = None
        self.interrupted: signal.Signals | None = None
        """The first forwarded signal that reached us, if any."""
        self.killed = False
        self._kill_at = math.inf
        self._drain_until = math.inf
        self._wakeup = (-1, -1)
        self._previous_wakeup = -1
        self._previous: dict[int, Any] = {}
        self._key_copy = -1
        """Our copy of the command's end of the key socket, until :meth:`key_left_over`
        empties it."""

    def __enter__(self) -> subprocess.Popen[bytes]:
        with contextlib.ExitStack() as handover:
            options = dict(self._options)
            if self._key is not None:
                given = handover.enter_context(key_handover(self._key))
                options.update(given.options)
                self._key_copy = os.dup(given.fd)  # not inheritable: ours only
            read_end, write_end = os.pipe()
            for fd in (read_end, write_end):
                os.set_blocking(fd, False)
            self._wakeup = (read_end, write_end)
            self._previous_wakeup = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
            for number in FORWARDED_SIGNALS:
                self._previous[number] = signal.signal(number, self._forward)
            self._previous[signal.SIGALRM] = signal.signal(signal.SIGALRM, self._grace_over)
            try:
                self.process = _start(self._command, process_group=0, **options)
            except BaseException:
                self._restore()
                raise
        if self.interrupted is not None:  # it came before the command existed
            self._signal_group(self.interrupted)
        return self.process

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.process is not None:
            if exc is not None and self.process.returncode is None:
                self.kill()  # an error of ours must not leave the command running
            for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
        self._restore()

    def key_left_over(self) -> bool:
        """Whether the command left (part of) the key in its socket; emptied, so that nothing
        the command starts later can read it. Once: later calls say False.

        Call it at the command's first output: a compliant adapter takes the key at
        start-up, before it prints anything. The socket's other end is closed and
        the reads do not wait (``MSG_DONTWAIT``: the command's descriptor stays blocking).
        """
        copy, self._key_copy = self._key_copy, -1
        if copy < 0:
            return False
        left = False
        with socket.socket(fileno=copy) as end:
            try:
                while end.recv(PIPE_READ_BYTES, socket.MSG_DONTWAIT):
                    left = True
            except OSError:  # BlockingIOError: nothing (more) there
                pass
        return left

    def _restore(self) -> None:
        if self._key_copy >= 0:
            os.close(self._key_copy)
            self._key_copy = -1
        signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous.clear()
        signal.set_wakeup_fd(self._previous_wakeup)
        for fd in self._wakeup:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wakeup = (-1, -1)

    def _forward(self, signum: int, _frame: FrameType | None) -> None:
        if self.interrupted is None:
            self.interrupted = signal.Signals(signum)
            self._kill_at = time.monotonic() + GRACE_SECONDS
            signal.setitimer(signal.ITIMER_REAL, GRACE_SECONDS)
        self._signal_group(signum)

    def _grace_over(self, _signum: int, _frame: FrameType | None) -> None:
        if self.interrupted is not None and not self.killed:
            self.kill()

    def _signal_group(self, signum: int) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signum)

    def kill(self) -> None:
        """SIGKILL the whole group, then give its stray output :data:`DRAIN_SECONDS`."""
        self.killed = True
        self._kill_at = math.inf
        self._drain_until = time.monotonic() + DRAIN_SECONDS
        self._signal_group(signal.SIGKILL)

    def _tick(self) -> None:
        """Empty the self-pipe; kill the group once its grace period is over."""
        with contextlib.suppress(OSError):
            while os.read(self._wakeup[0], 512):
                pass
        if time.monotonic() >= self._kill_at:
            self.kill()

    def select(
        self, readers: list[int], writers: list[int], deadline: float = math.inf
    ) -> tuple[list[int], list[int]] | None:
        """The ready descriptors, or None once ``deadline`` or the drain after a kill is over.

        Signals and the end of the grace period are handled while waiting.
        """
        while True:
            self._tick()
            limit = min(self._kill_at, self._drain_until, deadline)
            now = time.monotonic()
            if now >= min(self._drain_until, deadline):
                return None
            timeout = None if limit == math.inf else limit - now
            ready, writable, _ = select.select([*readers, self._wakeup[0]], writers, [], timeout)
            ready = [fd for fd in ready if fd != self._wakeup[0]]
            if ready or writable:
                return ready, writable

    def wait(self, deadline: float = math.inf) -> int | None:
        """The command's return code, or None once ``deadline`` is over (the group runs on)."""
        assert self.process is not None
        while True:
            self._tick()
            now = time.monotonic()
            if now >= deadline:
                return None
            step = min(self._kill_at, deadline) - now
            with contextlib.suppress(subprocess.TimeoutExpired):
                return self.process.wait(timeout=min(max(step, 0.01), _POLL_SECONDS))

    def exit_status(self, returncode: int) -> int:
        """128+N when a signal N interrupted us, else the command's status as a shell says it."""
        if self.interrupted is not None:
            return 128 + self.interrupted
        return shell_status(returncode)
