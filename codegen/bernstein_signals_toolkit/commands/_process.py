"""What ``wrap`` and ``conform`` share: starting the command and describing how it ended."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
from collections.abc import Sequence
from typing import Any

from ..errors import ToolkitError, UsageError

__all__ = [
    "CommandNotRunnable",
    "add_command_argument",
    "command_of",
    "exit_reason",
    "shell_status",
    "start",
    "write_all",
]


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


def start(command: Sequence[str], **options: Any) -> subprocess.Popen[bytes]:
    """Popen, with a missing or non-executable command as a one-line error (127 or 126)."""
    try:
        return subprocess.Popen(list(command), **options)
    except FileNotFoundError:
        raise CommandNotRunnable(f"{command[0]}: command not found", 127) from None
    except PermissionError:
        raise CommandNotRunnable(f"{command[0]}: permission denied", 126) from None
    except OSError as exc:
        raise CommandNotRunnable(f"{command[0]}: cannot run: {exc.strerror or exc}", 126) from None


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name.removeprefix("SIG")
    except ValueError:
        return str(number)


def exit_reason(returncode: int) -> str:
    """``exit N`` or ``signal NAME`` (``signal TERM``), as FAILED reasons say it."""
    return f"signal {_signal_name(-returncode)}" if returncode < 0 else f"exit {returncode}"


def shell_status(returncode: int) -> int:
    """The exit status a shell reports: 128+N for a command killed by signal N."""
    return 128 - returncode if returncode < 0 else returncode


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
