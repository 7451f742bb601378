"""``wrap``: run a command that knows nothing of the protocol and end its output with a terminal.

stderr is inherited, so it passes through untouched; stdout is relayed byte for
byte while a :class:`bernstein_signals.SignalScanner` watches it for terminal
signals. When the command emitted none, ``wrap`` appends COMPLETED, or FAILED
with reason ``exit N`` or ``signal NAME`` (after a newline when the output did
not end with one). The exit status is the command's (128+N for signal N); a
command that cannot be started exits 127 (not found) or 126, as in a shell.

The command runs in its own process group. SIGINT, SIGTERM and SIGHUP sent to
``wrap`` go to that whole group (a Ctrl-C at a terminal reaches it exactly
once); a group still running a grace period later is killed. An interrupted
run ends with FAILED ``signal NAME`` (unless the command printed a terminal)
and ``wrap`` exits 128+N for the signal N it received.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from ..errors import UsageError
from ..runtime_vocabulary import RuntimeVocabulary
from ._inputs import add_vocabulary_argument, vocabulary_of
from ._process import (
    ProcessGroup,
    add_command_argument,
    command_of,
    exit_reason,
    signal_name,
    write_all,
)

__all__ = ["configure", "run"]

_CHUNK = 1 << 16


def configure(parser: argparse.ArgumentParser) -> None:
    add_vocabulary_argument(parser)
    add_command_argument(parser)


def _terminal_line(vocabulary: RuntimeVocabulary, reason: str | None) -> str:
    if reason is None:
        return vocabulary.format_signal("COMPLETED")
    return vocabulary.format_signal("FAILED", {"reason": reason})


def _check_terminals(vocabulary: RuntimeVocabulary) -> None:
    """Refuse, before the command runs, a vocabulary in which wrap cannot end a run."""
    try:
        _terminal_line(vocabulary, None)
        _terminal_line(vocabulary, "exit 1")
    except ValueError as exc:
        raise UsageError(
            f"wrap ends runs with COMPLETED and FAILED {{reason}}, which {vocabulary.describe()}"
            f" cannot carry: {exc}"
        ) from None


def _relay(
    group: ProcessGroup, process: subprocess.Popen[bytes], vocabulary: RuntimeVocabulary
) -> tuple[bool, bytes]:
    """Copy the command's stdout to ours; whether it emitted a terminal, and its last byte."""
    assert process.stdout is not None
    source, target = process.stdout.fileno(), sys.stdout.fileno()
    scanner = vocabulary.signal_scanner()
    terminal, last = False, b"\n"
    while group.select([source], []) is not None:
        chunk = os.read(source, _CHUNK)
        if not chunk:
            break
        write_all(target, chunk)
        last = chunk[-1:]
        if not terminal:
            terminal = any(record.signal.is_terminal for record in scanner.feed(chunk))
    if not terminal:
        terminal = any(record.signal.is_terminal for record in scanner.close())
    return terminal, last


def run(args: argparse.Namespace) -> int:
    command = command_of(args)
    vocabulary = vocabulary_of(args)
    _check_terminals(vocabulary)
    sys.stdout.flush()
    group = ProcessGroup(command, stdout=subprocess.PIPE)
    with group as process:
        try:
            terminal, last = _relay(group, process, vocabulary)
        except BrokenPipeError:
            # Our reader went away: close the pipe so that the command gets SIGPIPE too.
            assert process.stdout is not None
            process.stdout.close()
            returncode = group.wait()
            assert returncode is not None
            return group.exit_status(returncode)
        returncode = group.wait()
        assert returncode is not None
    if not terminal:
        if group.interrupted is not None:
            reason: str | None = f"signal {signal_name(group.interrupted)}"
        else:
            reason = None if returncode == 0 else exit_reason(returncode)
        prefix = b"" if last == b"\n" else b"\n"
        write_all(sys.stdout.fileno(), prefix + _terminal_line(vocabulary, reason).encode() + b"\n")
    return group.exit_status(returncode)
