"""``conform``: run an adapter as an orchestrator would and report how it used the protocol.

The adapter runs in its own process group with its stdout read by the
validator's :class:`StreamChecker` in live mode. Each QUESTION is answered at
once over stdin: ``--answer-id ID=TEXT`` answers the question with that id,
``--answer`` values the remaining questions in order. Replies are written
without blocking, in the same ``select`` loop that reads the adapter's
output, so an adapter that never reads stdin cannot stop the timeout. When no
scripted answer is left, stdin is closed (at the start when there are none),
so an adapter waiting for more input sees end of file. After ``--timeout``
seconds the whole process group is killed and the report gets a BS401 error.
SIGINT, SIGTERM and SIGHUP go to the adapter's group (SIGKILL a grace period
later); the report is still written, with a BS402 error saying the run was
interrupted, and conform exits 128+N.

Memory is constant however long the run: signals and diagnostics go to the
validator's streaming output (and ``--transcript`` lines to a spool) as they
are found; the report keeps only counts.

The report (``text`` or ``json``, as ``validate`` prints them) goes to stdout;
a one-line summary with the adapter's exit status goes to stderr; the
adapter's own stderr passes through. MissingTerminalSignal is a warning, a
QUESTION id reused while unanswered is an error (BS305). Exit status: 0
unless the report has errors, else 1; a command that cannot be started is
an error (127 not found, 126 not executable).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from typing import IO

from bernstein_signals import QuestionIdInUse, QuestionTracker, SignalKind, StreamSignal
from bernstein_signals.scanning import LineScanner, ScannedLine

from ..errors import UsageError
from ..validate import formats
from ..validate.codes import CODES
from ..validate.diagnostics import Diagnostic
from ..validate.output import SPOOL_BYTES, Output, output_for
from ..validate.report import (
    ConformanceReport,
    ReportSink,
    SeenSignal,
    StreamChecker,
    trigger_bytes,
)
from . import _arguments
from ._inputs import (
    add_unknown_kinds_argument,
    add_vocabulary_argument,
    unknown_kinds_severity,
    vocabulary_of,
)
from ._process import (
    ProcessGroup,
    add_command_argument,
    command_of,
    exit_reason,
    signal_name,
)

__all__ = ["configure", "run"]

DEFAULT_TIMEOUT = 600.0
_CHUNK = 1 << 16


def _answer_id(value: str) -> tuple[str, str]:
    question_id, equals, text = _arguments.text(value).partition("=")
    if not equals or not question_id:
        raise argparse.ArgumentTypeError(f"expected ID=TEXT, got {value!r}")
    return question_id, text


def _timeout(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not 0 < seconds < 1e9:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {value!r}")
    return seconds


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--answer-id",
        type=_answer_id,
        action="append",
        default=[],
        metavar="ID=TEXT",
        help="answer the question with this id (repeatable)",
    )
    parser.add_argument(
        "--answer",
        type=_arguments.text,
        action="append",
        default=[],
        metavar="TEXT",
        help="answer the next question that --answer-id does not cover (repeatable, in order)",
    )
    parser.add_argument(
        "--timeout",
        type=_timeout,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"kill the adapter's process group after this long (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--transcript",
        action="store_true",
        help="text format: list every signal the adapter emitted before the diagnostics",
    )
    add_vocabulary_argument(parser)
    add_unknown_kinds_argument(parser)
    add_command_argument(parser)


class _Answers:
    """The scripted answers, and the adapter's stdin they are written to without blocking.

    Reply lines wait in a buffer until the adapter's stdin can take them, so an
    adapter that never reads cannot stop the run (or its timeout). The buffer
    holds at most the scripted answers, which the command line bounds.
    """

    def __init__(self, stdin: IO[bytes] | None, by_id: dict[str, str], in_order: list[str]) -> None:
        self._stdin = stdin
        if stdin is not None:
            os.set_blocking(stdin.fileno(), False)
        self._by_id = dict(by_id)
        self._in_order = list(in_order)
        self._pending = bytearray()
        self.tracker = QuestionTracker(enforce_options=False)
        self.given = 0
        self._close_when_done()

    @property
    def writers(self) -> list[int]:
        """The adapter's stdin while reply bytes wait for it."""
        return [self._stdin.fileno()] if self._stdin is not None and self._pending else []

    def _close_when_done(self) -> None:
        if not self._pending and not self._by_id and not self._in_order:
            self.close()

    def question(self, checker: StreamChecker, question: StreamSignal) -> None:
        """Answer one QUESTION the adapter just asked, if a scripted answer is left.

        Only a question about to be answered reaches the tracker, so questions
        left unanswered take no memory (the checker bounds its own record).
        """
        question_id = question.payload.get("id")
        key = question_id if isinstance(question_id, str) and question_id else None
        if key is not None and key in self._by_id:
            text = self._by_id.pop(key)
        elif self._in_order:
            text = self._in_order.pop(0)
        else:
            self._close_when_done()
            return
        with contextlib.suppress(QuestionIdInUse):  # the checker reports it: BS305, an error
            self.tracker.feed(question)
        line = self.tracker.answer(text, key)
        checker.answered(key)
        self.given += 1
        if self._stdin is not None:
            self._pending += line.encode() + b"\n"
            self.flush()

    def flush(self) -> None:
        """Write what the adapter's stdin takes now; never block."""
        if self._stdin is not None and self._pending:
            try:
                written = os.write(self._stdin.fileno(), self._pending)
            except BlockingIOError:
                return
            except OSError:  # the adapter closed its stdin or exited: nothing to deliver to
                self._pending.clear()
                self.close()
                return
            del self._pending[:written]
        self._close_when_done()

    def close(self) -> None:
        if self._stdin is not None:
            self._pending.clear()
            with contextlib.suppress(OSError):
                self._stdin.close()
            self._stdin = None


class _Sink:
    """Where the checker hands each finding: the output, the transcript spool, the questions.

    A QUESTION is only noted here and answered once its line is fed, after the
    checker has registered its id (so the answer frees the id for reuse).
    """

    def __init__(self, name: str, output: Output, transcript: IO[bytes] | None) -> None:
        self._name = name
        self._output: ReportSink = output.sink(name)
        self._transcript = transcript
        self.questions: list[StreamSignal] = []

    def signal(self, seen: SeenSignal) -> None:
        self._output.signal(seen)
        if self._transcript is not None:
            line = f"{self._name}:{seen.line}: {seen.signal.raw_line}\n"
            self._transcript.write(formats.encode_line(line))
        if seen.signal.kind == SignalKind.QUESTION:
            self.questions.append(seen.signal)

    def diagnostic(self, diagnostic: Diagnostic) -> None:
        self._output.diagnostic(diagnostic)


class _Run:
    """One adapter run: its output scanned chunk by chunk, questions answered as they come."""

    def __init__(
        self, group: ProcessGroup, args: argparse.Namespace, answers: _Answers, sink: _Sink
    ) -> None:
        self.group = group
        self.sink = sink
        vocabulary = vocabulary_of(args)
        self.checker = StreamChecker(
            run_id=_run_name(command_of(args)),
            live=True,
            sink=sink,
            vocabulary=vocabulary,
            unknown_kinds=unknown_kinds_severity(args),
        )
        self.scanner = LineScanner(trigger_bytes(vocabulary), fold_case=True)
        self.answers = answers
        self.deadline = time.monotonic() + args.timeout
        self.timeout: float = args.timeout
        self.timed_out = False

    def _take(self, found: Iterable[ScannedLine]) -> None:
        checker = self.checker
        for scanned in found:
            if scanned.overlong:
                checker.feed_overlong(scanned.line_no, scanned.overlong)
                continue
            checker.feed_bytes(scanned.line_no, scanned.data)
            questions = self.sink.questions
            while questions:
                self.answers.question(checker, questions.pop(0))

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
                chunk = os.read(stdout, _CHUNK)
                if not chunk:
                    break
                self._take(self.scanner.feed(chunk))
        self._take(self.scanner.close())
        self.answers.close()

    def wait(self) -> int:
        returncode = self.group.wait(self.deadline)
        if returncode is None:
            if not self.group.killed:
                self._kill()
            returncode = self.group.wait()
        assert returncode is not None
        return returncode

    def report(self) -> ConformanceReport:
        lines = self.scanner.lines
        report = self.checker.finish(lines)
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
        severity = CODES[code].severity
        report.diagnostics.append(Diagnostic(code, severity, max(lines, 1), 0, 0, message))
        return report


def _run_name(command: list[str]) -> str:
    """The command line as a run id, valid UTF-8 even when an argument is not."""
    return shlex.join(_arguments.printable(arg) for arg in command)


@contextlib.contextmanager
def _transcript_spool(wanted: bool) -> Iterator[IO[bytes] | None]:
    """A spool for ``--transcript`` lines, in memory up to SPOOL_BYTES, then on disk."""
    if not wanted:
        yield None
        return
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+b") as spool:
        yield spool


def _answers_by_id(pairs: list[tuple[str, str]]) -> dict[str, str]:
    by_id: dict[str, str] = {}
    for question_id, text in pairs:
        if question_id in by_id:
            raise UsageError(f"--answer-id: two answers for question id {question_id!r}")
        by_id[question_id] = text
    return by_id


def run(args: argparse.Namespace) -> int:
    command = command_of(args)
    by_id = _answers_by_id(args.answer_id)
    vocabulary_of(args)  # a bad --vocabulary fails here, before the adapter starts
    name = _run_name(command) or command[0]
    transcript = args.transcript and args.format == "text"
    with output_for(args.format) as output, _transcript_spool(transcript) as spool:
        sink = _Sink(name, output, spool)
        group = ProcessGroup(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        with group as process:
            assert process.stdout is not None
            adapter = _Run(group, args, _Answers(process.stdin, by_id, args.answer), sink)
            adapter.read_all(process.stdout.fileno())
            returncode = adapter.wait()
        report = adapter.report()
        output.done(name, report)
        sys.stdout.flush()
        if spool is not None:
            spool.seek(0)
            shutil.copyfileobj(spool, sys.stdout.buffer)
        output.write(sys.stdout.buffer)
        sys.stdout.buffer.flush()
    if adapter.timed_out:
        outcome = "killed after the timeout"
    elif group.interrupted is not None:
        outcome = f"interrupted by SIG{signal_name(group.interrupted)}, {exit_reason(returncode)}"
    else:
        outcome = exit_reason(returncode)
    print(
        f"conform: {outcome}, {adapter.answers.given} answer(s) given; "
        + formats.summary_line([(name, report)]),
        file=sys.stderr,
    )
    if group.interrupted is not None:
        return group.exit_status(returncode)
    return 0 if report.passed else 1
