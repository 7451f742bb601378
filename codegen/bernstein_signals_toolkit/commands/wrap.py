"""``wrap``: run a command that knows nothing of the protocol and end its output with a terminal.

stderr is inherited, so it passes through untouched; stdout is relayed byte for
byte while a :class:`bernstein_signals.SignalScanner` watches it for terminal
signals. When the command emitted none, ``wrap`` appends COMPLETED, or FAILED
with reason ``exit N`` or ``signal NAME`` (after a newline when the output did
not end with one). The exit status is the command's (128+N for signal N); a
command that cannot be started exits 127 (not found) or 126, as in a shell.

The command runs in its own process group, and ``wrap`` forwards SIGINT and
SIGTERM to it: a Ctrl-C at a terminal reaches the command exactly once.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from types import FrameType

from bernstein_signals import SignalKind, SignalScanner, format_signal

from ._process import add_command_argument, command_of, exit_reason, shell_status, start, write_all

__all__ = ["configure", "run"]

_FORWARDED = (signal.SIGINT, signal.SIGTERM)
_CHUNK = 1 << 16


def configure(parser: argparse.ArgumentParser) -> None:
    add_command_argument(parser)


def _terminal_line(returncode: int) -> str:
    if returncode == 0:
        return format_signal(SignalKind.COMPLETED)
    return format_signal(SignalKind.FAILED, {"reason": exit_reason(returncode)})


def _relay(process: subprocess.Popen[bytes]) -> tuple[bool, bytes]:
    """Copy the command's stdout to ours; whether it emitted a terminal, and its last byte."""
    assert process.stdout is not None
    source, target = process.stdout.fileno(), sys.stdout.fileno()
    scanner = SignalScanner()
    terminal, last = False, b"\n"
    while chunk := os.read(source, _CHUNK):
        write_all(target, chunk)
        last = chunk[-1:]
        if not terminal:
            terminal = any(record.signal.is_terminal for record in scanner.feed(chunk))
    if not terminal:
        terminal = any(record.signal.is_terminal for record in scanner.close())
    return terminal, last


def run(args: argparse.Namespace) -> int:
    command = command_of(args)
    sys.stdout.flush()
    process = start(command, stdout=subprocess.PIPE, process_group=0)

    def forward(signum: int, _frame: FrameType | None) -> None:
        if process.returncode is None:
            process.send_signal(signum)

    previous = {number: signal.signal(number, forward) for number in _FORWARDED}
    try:
        try:
            terminal, last = _relay(process)
        except BrokenPipeError:
            # Our reader went away: close the pipe so that the command gets SIGPIPE too.
            assert process.stdout is not None
            process.stdout.close()
            return shell_status(process.wait())
        returncode = process.wait()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if not terminal:
        prefix = b"" if last == b"\n" else b"\n"
        write_all(sys.stdout.fileno(), prefix + _terminal_line(returncode).encode() + b"\n")
    return shell_status(returncode)
