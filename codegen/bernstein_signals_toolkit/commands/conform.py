"""``conform``: run an adapter as an orchestrator would and report how it used the protocol.

The adapter runs in its own process group with its stdout read by the
validator's :class:`StreamChecker` in live mode. Each QUESTION is answered at
once over stdin: ``--answer-id ID=TEXT`` answers the question with that id,
``--answer`` values the remaining questions in order (an id given several
``--answer-id`` answers gets them in turn, since an answered id may be asked
again). A question no answer is left for is an error (BS403). Replies are written
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
QUESTION id reused while unanswered is an error (BS305); ``--expect-exit N``
and ``--expect-kind KIND`` add the adapter's exit status and the run's
terminal kind to the verdict (BS404, BS405). The JSON report gives the
adapter's exit status and the answers written to it. Exit status: 0
unless the report has errors, else 1; a command that cannot be started is
an error (127 not found, 126 not executable).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from typing import IO

from bernstein_signals import (
    REPLY_ANSWER,
    REPLY_IN_REPLY_TO,
    QuestionIdInUse,
    QuestionTracker,
    SignalKind,
    StreamSignal,
    parse_reply,
)
from bernstein_signals.scanning import LineScanner, ScannedLine

from ..errors import UsageError
from ..roles import VERSION_ROLE, role_field
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


def _exit_status(value: str) -> int:
    try:
        status = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an exit status: {value!r}") from None
    if not 0 <= status <= 255:
        raise argparse.ArgumentTypeError(f"an exit status is 0 to 255, not {status}")
    return status


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
        help="answer the question with this id (repeatable; an id given again answers its"
        " next question)",
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
        "--answers",
        metavar="FILE",
        help="more answers from a file: JSON lines of replies"
        ' ({"in_reply_to": ID or null, "answer": TEXT}, as an orchestrator writes them),'
        " or one JSON object mapping each id to its answer (or to a list of answers);"
        " they come after --answer-id and --answer",
    )
    parser.add_argument(
        "--timeout",
        type=_timeout,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"kill the adapter's process group after this long (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--format",
        choices=formats.FORMATS,
        default="text",
        help="the report on stdout, as validate writes it: text (default), json (plus the"
        " adapter's exit status and the answers given), sarif (2.1.0) or github (workflow"
        " commands); the location is the command line, lines are stdout line numbers",
    )
    parser.add_argument(
        "--expect-exit",
        type=_exit_status,
        metavar="N",
        help="the adapter must exit with status N (128+N for signal N), else error BS404",
    )
    parser.add_argument(
        "--expect-kind",
        metavar="KIND",
        help="the run must end with this terminal kind (COMPLETED, FAILED), else error BS405",
    )
    parser.add_argument(
        "--transcript",
        action="store_true",
        help="text format: list every signal the adapter emitted (by stdout line number)"
        " before the diagnostics",
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

    def __init__(
        self, stdin: IO[bytes] | None, by_id: dict[str, list[str]], in_order: list[str]
    ) -> None:
        self._stdin = stdin
        if stdin is not None:
            os.set_blocking(stdin.fileno(), False)
        self._by_id = {question_id: list(texts) for question_id, texts in by_id.items()}
        self._in_order = list(in_order)
        self._pending = bytearray()
        self.tracker = QuestionTracker(enforce_options=False)
        self.given: list[dict[str, object]] = []
        """The answers written, as the JSON report lists them (the command line bounds them)."""
        self._close_when_done()

    @property
    def writers(self) -> list[int]:
        """The adapter's stdin while reply bytes wait for it."""
        return [self._stdin.fileno()] if self._stdin is not None and self._pending else []

    def _close_when_done(self) -> None:
        if not self._pending and not self._by_id and not self._in_order:
            self.close()

    def question(self, checker: StreamChecker, line: int, question: StreamSignal) -> None:
        """Answer one QUESTION the adapter just asked, if a scripted answer is left, else
        report it (BS403).

        Only a question about to be answered reaches the tracker, so questions
        left unanswered take no memory (the checker bounds its own record).
        """
        question_id = question.payload.get("id")
        key = question_id if isinstance(question_id, str) and question_id else None
        if key is not None and self._by_id.get(key):
            text = self._by_id[key].pop(0)
            if not self._by_id[key]:
                del self._by_id[key]
        elif self._in_order:
            text = self._in_order.pop(0)
        else:
            shown = "without an id" if key is None else f"with id {_quoted(key)}"
            checker.add(
                Diagnostic(
                    "BS403",
                    CODES["BS403"].severity,
                    line,
                    0,
                    len(question.raw_line),
                    f"QUESTION {shown} left unanswered: no --answer-id or --answer was left for it",
                )
            )
            self._close_when_done()
            return
        with contextlib.suppress(QuestionIdInUse):  # the checker reports it: BS305, an error
            self.tracker.feed(question)
        reply = self.tracker.answer(text, key)
        checker.answered(key)
        self.given.append({"line": line, "in_reply_to": key, "answer": text})
        if self._stdin is not None:
            self._pending += reply.encode() + b"\n"
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
        self.questions: list[tuple[int, StreamSignal]] = []

    def signal(self, seen: SeenSignal) -> None:
        self._output.signal(seen)
        if self._transcript is not None:
            line = f"stdout line {seen.line}: {seen.signal.raw_line}\n"  # not a file:line
            self._transcript.write(formats.encode_line(line))
        if seen.signal.kind == SignalKind.QUESTION:
            self.questions.append((seen.line, seen.signal))

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
        self.vocabulary = vocabulary
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

    def _version_check(self, terminal: SeenSignal) -> list[Diagnostic]:
        """BS406/BS407: the vocabulary version the terminal names against conform's."""
        kind = str(terminal.signal.kind)
        field = role_field(self.vocabulary.model(), kind, VERSION_ROLE)
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
        return [Diagnostic(code, CODES[code].severity, terminal.line, 0, width, message)]

    def report(self, returncode: int) -> ConformanceReport:
        lines = self.scanner.lines
        terminal = self.checker.terminal
        report = self.checker.finish(lines)
        status = _shell_status(returncode)
        report.adapter = {"exit_status": status, "answers": self.answers.given}
        end = max(lines, 1)
        if self.expect_exit is not None and status != self.expect_exit:
            report.diagnostics.append(
                Diagnostic(
                    "BS404",
                    CODES["BS404"].severity,
                    end,
                    0,
                    0,
                    f"the adapter exited with status {status} ({exit_reason(returncode)}),"
                    f" --expect-exit {self.expect_exit}",
                )
            )
        if self.expect_kind is not None:
            ended = None if terminal is None else str(terminal.signal.kind)
            if ended != self.expect_kind:
                where = terminal.line if terminal is not None else end
                found = "no terminal signal" if ended is None else ended
                report.diagnostics.append(
                    Diagnostic(
                        "BS405",
                        CODES["BS405"].severity,
                        where,
                        0,
                        0,
                        f"the run ended with {found}, --expect-kind {self.expect_kind}",
                    )
                )
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
        severity = CODES[code].severity
        report.diagnostics.append(Diagnostic(code, severity, max(lines, 1), 0, 0, message))
        return report


def _quoted(text: str, limit: int = 60) -> str:
    """An adapter's id in a message: JSON-quoted (one line), cut to ``limit`` code points."""
    return json.dumps(text[:limit] + ("..." if len(text) > limit else ""), ensure_ascii=False)


def _major_minor(version: object) -> tuple[int, int] | None:
    """A semver's major and minor, None for anything else."""
    if not isinstance(version, str):
        return None
    parts = version.split("+", 1)[0].split("-", 1)[0].split(".")
    if len(parts) != 3 or not all(part.isascii() and part.isdigit() for part in parts):
        return None
    return int(parts[0]), int(parts[1])


def _shell_status(returncode: int) -> int:
    """Popen's returncode as a shell reports it: 128+N for a process ended by signal N."""
    return 128 - returncode if returncode < 0 else returncode


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


def _answers_by_id(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Each id's answers in order: an answered id may be asked again, as the protocol allows."""
    by_id: dict[str, list[str]] = {}
    for question_id, text in pairs:
        by_id.setdefault(question_id, []).append(text)
    return by_id


MAX_ANSWERS_BYTES = 1 << 20
"""The most an ``--answers`` file may hold: answers are read whole, before the adapter starts."""


def _json_object(text: str) -> dict[str, object] | None:
    """``text`` as one JSON object, else None (JSON lines of replies, say)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _answers_file(path: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The (id, answer) pairs and the in-order answers of an ``--answers`` file."""
    name = _arguments.printable(path)
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_ANSWERS_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"--answers {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_ANSWERS_BYTES:
        raise UsageError(f"--answers {name}: larger than {MAX_ANSWERS_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"--answers {name}: not UTF-8 at byte {exc.start}") from None
    whole = _json_object(text)
    if whole is not None and REPLY_ANSWER not in whole:  # a mapping from id to answer(s)
        pairs: list[tuple[str, str]] = []
        for question_id, answers in whole.items():
            texts = answers if isinstance(answers, list) else [answers]
            strings = [t for t in texts if isinstance(t, str)]
            if not question_id or not texts or len(strings) != len(texts):
                raise UsageError(
                    f"--answers {name}: id {_quoted(question_id)} needs an answer string"
                    " or a non-empty list of them"
                )
            pairs += [(question_id, t) for t in strings]
        return pairs, []
    pairs, in_order = [], []  # JSON lines of replies
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        reply = parse_reply(line)
        if reply is None:
            raise UsageError(
                f"--answers {name}:{number}: not a reply line"
                ' ({"in_reply_to": ID or null, "answer": TEXT})'
            )
        reply_to = reply[REPLY_IN_REPLY_TO]
        answer = reply[REPLY_ANSWER]
        if reply_to is None:
            in_order.append(answer)
        else:
            pairs.append((reply_to, answer))
    return pairs, in_order


def run(args: argparse.Namespace) -> int:
    command = command_of(args)
    in_order = list(args.answer)
    pairs = list(args.answer_id)
    if args.answers is not None:
        more_pairs, more_in_order = _answers_file(args.answers)
        pairs += more_pairs
        in_order += more_in_order
    by_id = _answers_by_id(pairs)
    vocabulary = vocabulary_of(args)  # a bad --vocabulary fails here, before the adapter starts
    terminals = sorted(str(kind) for kind in vocabulary.terminal_kinds)
    if args.expect_kind is not None and args.expect_kind not in terminals:
        raise UsageError(
            f"--expect-kind {args.expect_kind!r} is not a terminal kind of the vocabulary"
            f" ({', '.join(terminals)})"
        )
    name = _run_name(command) or command[0]
    transcript = args.transcript and args.format == "text"
    with output_for(args.format) as output, _transcript_spool(transcript) as spool:
        sink = _Sink(name, output, spool)
        group = ProcessGroup(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        with group as process:
            assert process.stdout is not None
            adapter = _Run(group, args, _Answers(process.stdin, by_id, in_order), sink)
            adapter.read_all(process.stdout.fileno())
            returncode = adapter.wait()
        report = adapter.report(returncode)
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
        f"conform: {outcome}, {len(adapter.answers.given)} answer(s) given; "
        + formats.summary_line([(name, report)], inputs=False),
        file=sys.stderr,
    )
    if group.interrupted is not None:
        return group.exit_status(returncode)
    return 0 if report.passed else 1
