"""One conform run: the adapter's output scanned as it comes, questions answered, the report.

Also conform's text output: its diagnostics name the adapter's stdout line and
column in words (``stdout line 3, column 1: error[BS403] ...``), as its
``--transcript`` lines do, since the run is no file whose ``path:line:col``
an editor could open.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Iterable
from typing import IO

from bernstein_signals import SignalKey, SignalKind, StreamSignal
from bernstein_signals.scanning import LineScanner, ScannedLine
from bernstein_signals_toolkit.generator.roles import VERSION_ROLE

from ..validate import formats
from ..validate.diagnostics import Diagnostic, build_diagnostic
from ..validate.output import Output, output_for
from ..validate.report import (
    ConformanceReport,
    ReportSink,
    SeenSignal,
    StreamChecker,
    trigger_bytes,
)
from . import _arguments
from ._conform_answers import Answers
from ._fence_handover import KEY_NOT_TAKEN
from ._inputs import unknown_kinds_severity, vocabulary_of
from ._native_run import NativeStream
from ._process import (
    PIPE_READ_BYTES,
    ProcessGroup,
    command_of,
    exit_reason,
    shell_status,
    signal_name,
)

__all__ = ["AdapterRun", "Sink", "conform_output", "run_name", "stdout_place"]


def stdout_place(line: int, column: int | None = None) -> str:
    """Where on the adapter's stdout, in words (columns 1-based)."""
    return f"stdout line {line}" + ("" if column is None else f", column {column}")


class _Text(Output):
    """validate's text lines, with the place on the adapter's stdout in words."""

    def diagnostic(self, path: str, diagnostic: Diagnostic) -> None:
        place = stdout_place(diagnostic.line, diagnostic.start + 1)
        for line in formats.text_lines("", diagnostic, place=place):
            self._body.write(formats.encode_line(line + "\n"))


def conform_output(name: str) -> Output:
    """The writer of one ``--format``: validate's, text naming stdout lines in words."""
    return _Text() if name == "text" else output_for(name)


def run_name(command: list[str]) -> str:
    """The command line as a run id, valid UTF-8 even when an argument is not."""
    return shlex.join(_arguments.printable(arg) for arg in command)


def _major_minor(version: object) -> tuple[int, int] | None:
    """A semver's major and minor, None for anything else."""
    if not isinstance(version, str):
        return None
    parts = version.split("+", 1)[0].split("-", 1)[0].split(".")
    if len(parts) != 3 or not all(part.isascii() and part.isdigit() for part in parts):
        return None
    return int(parts[0]), int(parts[1])


class Sink:
    """Where the checker hands each finding: the output, the transcript spool, the questions.

    A QUESTION is only noted here and answered once its line is fed, after the
    checker has registered its id (so the answer frees the id for reuse).
    """

    def __init__(self, name: str, output: Output, transcript: IO[bytes] | None) -> None:
        self._output: ReportSink = output.sink(name)
        self._transcript = transcript
        self.questions: list[tuple[int, StreamSignal]] = []

    def signal(self, seen: SeenSignal) -> None:
        self._output.signal(seen)
        if self._transcript is not None:
            line = f"{stdout_place(seen.line)}: {seen.signal.raw_line}\n"
            self._transcript.write(formats.encode_line(line))
        if seen.signal.kind == SignalKind.QUESTION:
            self.questions.append((seen.line, seen.signal))

    def diagnostic(self, diagnostic: Diagnostic) -> None:
        self._output.diagnostic(diagnostic)


class AdapterRun:
    """One adapter run: its output scanned chunk by chunk, questions answered as they come.

    With ``native``, the output is the native CLI's stream mapped line for line
    before it is scanned, and the run's terminal ends the CLI's stdin.
    """

    def __init__(
        self,
        group: ProcessGroup,
        args: argparse.Namespace,
        answers: Answers,
        sink: Sink,
        native: NativeStream | None = None,
        *,
        key: SignalKey | None = None,
        allow_kinds: frozenset[str] | None = None,
    ) -> None:
        """``key``, ``allow_kinds``: the fence (``--fence``, ``--allow-kinds``)."""
        self.group = group
        self.sink = sink
        vocabulary = vocabulary_of(args)
        self.vocabulary = vocabulary
        self.checker = StreamChecker(
            run_id=run_name(command_of(args)),
            live=True,
            sink=sink,
            vocabulary=vocabulary,
            unknown_kinds=unknown_kinds_severity(args),
            key=key,
            allow_kinds=allow_kinds,
        )
        self.scanner = LineScanner(trigger_bytes(vocabulary), fold_case=True)
        self.answers = answers
        self.native = native
        self.deadline = time.monotonic() + args.timeout
        self.timeout: float = args.timeout
        self.timed_out = False
        self.key_not_taken_at: int | None = None
        """The stdout line (1-based) at which the key was found still in its pipe, if it was."""
        self.expect_exit: int | None = args.expect_exit
        self.expect_kind: str | None = args.expect_kind

    def _take(self, found: Iterable[ScannedLine]) -> None:
        checker = self.checker
        for scanned in found:
            if scanned.overlong:
                checker.feed_overlong(scanned.line_no, scanned.overlong)
                continue
            checker.feed_bytes(scanned.line_no, scanned.data)
            questions = self.sink.questions
            while questions:
                self.answers.question(checker, *questions.pop(0))

    def _kill(self) -> None:
        self.timed_out = True
        self.group.kill()

    def read_all(self, stdout: int) -> None:
        """Scan the adapter's output and feed it answers until its stdout ends or time is up."""
        while True:
            ready = self.group.select([stdout], self.answers.writers, self.deadline)
            if ready is None:
                if self.group.killed:
                    break  # a process that left the group still holds the pipe
                self._kill()
                continue
            readable, writable = ready
            if writable:
                self.answers.flush()
            if readable:
                chunk = os.read(stdout, PIPE_READ_BYTES)
                self._check_key_taken()
                if not chunk:
                    break
                self._scan(chunk)
        self._check_key_taken()  # a run that ended (or was killed) without output
        if self.native is not None:
            self._scan(self.native.close(), mapped=True)  # a last line without a newline
        self._take(self.scanner.close())
        self.answers.close()

    def _check_key_taken(self) -> None:
        """At the first output (or the end): a key left in its pipe is drained, with a warning
        now and BS408 in the report."""
        if self.group.key_left_over():
            print(f"conform: warning: {KEY_NOT_TAKEN}", file=sys.stderr, flush=True)
            self.key_not_taken_at = self.scanner.lines + 1

    def _scan(self, chunk: bytes, *, mapped: bool = False) -> None:
        """Scan one chunk of stdout (``mapped``: already through the native stream)."""
        native = self.native
        if native is None:
            self._take(self.scanner.feed(chunk))
            return
        self._take(self.scanner.feed(chunk if mapped else native.feed(chunk)))
        self.answers.retry()
        if self.checker.terminal is not None:
            self.answers.end_of_run()

    def wait(self) -> int:
        returncode = self.group.wait(self.deadline)
        if returncode is None:
            if not self.group.killed:
                self._kill()
            returncode = self.group.wait()
        assert returncode is not None
        return returncode

    def _version_check(self, terminal: SeenSignal) -> list[Diagnostic]:
        """BS406/BS407: the vocabulary version the terminal names against conform's."""
        kind = str(terminal.signal.kind)
        field = self.vocabulary.role_field(kind, VERSION_ROLE)
        stamped = terminal.signal.payload.get(field) if field is not None else None
        theirs, ours = _major_minor(stamped), _major_minor(self.vocabulary.version)
        if theirs is None or ours is None:
            return []
        if theirs[0] != ours[0]:
            code = "BS406"
            message = (
                f"{kind} names vocabulary {stamped}, conform runs with"
                f" {self.vocabulary.version}: the major versions differ"
            )
        elif theirs[1] > ours[1]:
            code = "BS407"
            message = (
                f"{kind} names vocabulary {stamped}, newer than conform's"
                f" {self.vocabulary.version}: additions since are not checked"
            )
        else:
            return []
        width = len(terminal.signal.raw_line)
        return [build_diagnostic(code, terminal.line, 0, width, message)]

    def _expectations(self, returncode: int, end: int) -> list[Diagnostic]:
        """BS404/BS405: the exit status and terminal kind the command line expects."""
        found: list[Diagnostic] = []
        status = shell_status(returncode)
        if self.expect_exit is not None and status != self.expect_exit:
            found.append(
                build_diagnostic(
                    "BS404",
                    end,
                    0,
                    0,
                    f"the adapter exited with status {status} ({exit_reason(returncode)}),"
                    f" --expect-exit {self.expect_exit}",
                )
            )
        terminal = self.checker.terminal
        if self.expect_kind is not None:
            ended = None if terminal is None else str(terminal.signal.kind)
            if ended != self.expect_kind:
                where = terminal.line if terminal is not None else end
                shown = "no terminal signal" if ended is None else ended
                message = f"the run ended with {shown}, --expect-kind {self.expect_kind}"
                found.append(build_diagnostic("BS405", where, 0, 0, message))
        return found

    def report(self, returncode: int, undelivered: str) -> ConformanceReport:
        """The run's report; ``undelivered`` says why a native CLI may not take an answer."""
        lines = self.scanner.lines
        terminal = self.checker.terminal
        report = self.checker.finish(lines)
        report.adapter = {"exit_status": shell_status(returncode), "answers": self.answers.given}
        end = max(lines, 1)
        report.diagnostics += self.answers.undelivered(undelivered)
        if self.key_not_taken_at is not None:
            where = min(self.key_not_taken_at, end)
            report.diagnostics.append(build_diagnostic("BS408", where, 0, 0, KEY_NOT_TAKEN))
        report.diagnostics += self._expectations(returncode, end)
        if terminal is not None:
            report.diagnostics += self._version_check(terminal)
        if self.timed_out:
            code = "BS401"
            message = (
                f"the adapter did not finish within {self.timeout:g} s; its process group"
                " was killed"
            )
        elif self.group.interrupted is not None:
            code = "BS402"
            message = (
                f"conform was interrupted by SIG{signal_name(self.group.interrupted)} before"
                " the adapter finished; the signal went to its process group"
            )
        else:
            return report
        report.diagnostics.append(build_diagnostic(code, end, 0, 0, message))
        return report
