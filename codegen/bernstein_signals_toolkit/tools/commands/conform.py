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

The report (``text``, ``json``, ``sarif`` or ``github``, as ``validate`` prints
them; text names each place ``stdout line N, column C``) goes to stdout;
a one-line summary with the adapter's exit status goes to stderr; the
adapter's own stderr passes through. MissingTerminalSignal is a warning, a
QUESTION id reused while unanswered is an error (BS305); ``--expect-exit N``
and ``--expect-kind KIND`` add the adapter's exit status and the run's
terminal kind to the verdict (BS404, BS405). The JSON report gives the
adapter's exit status and the answers written to it. Exit status: 0
unless the report has errors, else 1; a command that cannot be started is
an error (127 not found, 126 not executable).

With ``--native claude|codex`` the adapter is such a CLI printing its native
JSON event stream: it is mapped line for line (:mod:`._native_run`) before it
is checked, so the report, the transcript and the verdict are the mapped
signals'. Answers reach a native CLI as the reply its mapper builds, once the
CLI has asked for it on stdin (Claude, with ``--prompt``: its stdin stays
open until the run's terminal); one it never takes is a BS403 error.

With ``--fence`` a fresh key is handed to the adapter on a socket
(:func:`bernstein_signals.key_handover`) and only lines marked with it are signals: any other
signal line is a BS601 error (a replayed mark BS602) and acts in no way, so a
forged QUESTION is not answered and a forged terminal does not end the run.
``--allow-kinds`` refuses other kinds (BS603), with or without ``--fence``.
``--native`` with ``--fence`` is refused: a native CLI marks nothing. conform
holding a key is not dumpable, and a key the adapter left in its pipe by its
first output is drained with a warning on stderr (its agent must not inherit it).
A signal line holding the key is BS601 and checked no further, and the key is
masked in all conform writes (:mod:`..key_mask`): an adapter may print it.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, NamedTuple

from bernstein_signals import SignalKey
from bernstein_signals._native_claude import ClaudeStreamJsonParser
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..key_mask import KeyMask, masked
from ..validate import formats
from ..validate.output import SPOOL_BYTES
from . import _arguments
from ._conform_answers import Answers, answers_by_id, answers_file
from ._conform_run import AdapterRun, Sink, conform_output, run_name
from ._fence_options import (
    add_allow_kinds_argument,
    add_fence_argument,
    allow_kinds_of,
    refuse_native_fence,
)
from ._inputs import add_unknown_kinds_argument, add_vocabulary_argument, vocabulary_of
from ._native_run import (
    CLAUDE_REPLY_OPTIONS,
    NativeCli,
    NativeStream,
    add_native_argument,
    check_command,
    has_option,
    native_of,
    option_text,
)
from ._process import ProcessGroup, add_command_argument, command_of, exit_reason, signal_name

__all__ = ["configure", "run"]

DEFAULT_TIMEOUT = 600.0


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
        help="the report on stdout, as validate writes it: text (default; each finding at"
        " 'stdout line N, column C'), json (plus the adapter's exit status and the answers"
        " given), sarif (2.1.0) or github (workflow commands), whose location is the command"
        " line with stdout line numbers",
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
    add_native_argument(
        parser,
        what="it is mapped line for line before it is checked, and answers reach it as the"
        " replies its mapper builds (claude: with --prompt)",
    )
    parser.add_argument(
        "--prompt",
        type=_arguments.text,
        metavar="TEXT",
        help="--native claude: send the prompt on stdin as the user message (claude"
        " --input-format stream-json reads it there) and keep stdin open for answers"
        " until the run's terminal",
    )
    add_fence_argument(
        parser,
        what="any other signal line is error BS601 (BS602 replayed) and does not act; only"
        " marked QUESTIONs are answered",
    )
    add_allow_kinds_argument(parser)
    add_vocabulary_argument(parser)
    add_unknown_kinds_argument(parser)
    add_command_argument(parser)


@contextlib.contextmanager
def _transcript_spool(wanted: bool) -> Iterator[IO[bytes] | None]:
    """A spool for ``--transcript`` lines, in memory up to SPOOL_BYTES, then on disk."""
    if not wanted:
        yield None
        return
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+b") as spool:
        yield spool


class _NativeStdin(NamedTuple):
    """How a native CLI's stdin is used: whether replies go there, what comes first, and
    what a BS403 says about an answer that never reached it."""

    replies: bool
    first: bytes
    why: str


def _native_stdin(
    cli: NativeCli, command: list[str], prompt: str | None, answered: bool
) -> _NativeStdin:
    """Check the CLI's command line against what conform will write to its stdin."""
    itself = check_command(cli, command)
    if not cli.replies:
        if prompt is not None:
            raise UsageError(f"--prompt is for --native claude; {cli.name} reads no stdin here")
        return _NativeStdin(False, b"", f"{cli.name} reads no answer on stdin")
    stream_input, asking = CLAUDE_REPLY_OPTIONS
    needed = option_text(stream_input, asking)
    if prompt is None:
        if itself and has_option(command, stream_input):
            raise UsageError(
                f"claude {option_text(stream_input)} reads its prompt on stdin: give it with"
                " --prompt"
            )
        if itself and answered:
            raise UsageError(
                f"answers reach claude only when it runs with {needed}, its prompt given with"
                " --prompt: add them"
            )
        return _NativeStdin(False, b"", f"claude reads answers only with --prompt and {needed}")
    wanted = [stream_input, asking] if answered else [stream_input]
    missing = [option_text(option) for option in wanted if not has_option(command, option)]
    if itself and missing:
        raise UsageError(
            f"--prompt goes to claude on stdin, which it reads only with {', '.join(missing)}:"
            " add it to the command"
        )
    first = ClaudeStreamJsonParser.prompt_line(prompt).encode() + b"\n"
    return _NativeStdin(True, first, "claude never asked for it on stdin")


def _answers(
    pipe: IO[bytes],
    by_id: dict[str, list[str]],
    in_order: list[str],
    native: NativeStream | None,
    plan: _NativeStdin | None,
) -> Answers:
    """The answers, written to the adapter's stdin (through the native CLI's mapper)."""
    if native is None or plan is None:
        return Answers(pipe, by_id, in_order)
    if not plan.replies:
        pipe.close()  # the CLI reads no replies: end of file at once
    return Answers(
        pipe if plan.replies else None,
        by_id,
        in_order,
        mapper=native.mapper,
        first=plan.first,
        hold_open=plan.replies,
    )


def run(args: argparse.Namespace) -> int:
    command = command_of(args)
    in_order = list(args.answer)
    pairs = list(args.answer_id)
    if args.answers is not None:
        more_pairs, more_in_order = answers_file(args.answers)
        pairs += more_pairs
        in_order += more_in_order
    by_id = answers_by_id(pairs)
    vocabulary = vocabulary_of(args)  # a bad --vocabulary fails here, before the adapter starts
    terminals = sorted(str(kind) for kind in vocabulary.terminal_kinds)
    if args.expect_kind is not None and args.expect_kind not in terminals:
        raise UsageError(
            f"--expect-kind {args.expect_kind!r} is not a terminal kind of the vocabulary"
            f" ({', '.join(terminals)})"
        )
    refuse_native_fence(args)
    allow_kinds = allow_kinds_of(args, vocabulary)
    key = SignalKey.generate() if args.fence else None
    if key is not None:
        from bernstein_signals import protect_process  # the fence: loaded for a fenced run only

        protect_process()  # no process of the user reads the key from our memory
    cli = native_of(args)
    if cli is None and args.prompt is not None:
        raise UsageError("--prompt needs --native claude")
    plan = (
        None if cli is None else _native_stdin(cli, command, args.prompt, bool(pairs or in_order))
    )
    native = None if cli is None else NativeStream(cli, vocabulary, keep=False)
    name = run_name(command) or command[0]
    transcript = args.transcript and args.format == "text"
    with conform_output(args.format) as output, _transcript_spool(transcript) as spool:
        sink = Sink(name, output, spool)
        group = ProcessGroup(
            command,
            key=key,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        with group as process:
            stdout, pipe = process.stdout, process.stdin
            assert stdout is not None
            assert pipe is not None
            answers = _answers(pipe, by_id, in_order, native, plan)
            adapter = AdapterRun(
                group, args, answers, sink, native, key=key, allow_kinds=allow_kinds
            )
            adapter.read_all(stdout.fileno())
            returncode = adapter.wait()
        report = adapter.report(returncode, "" if plan is None else plan.why)
        output.done(name, report)
        sys.stdout.flush()
        # An adapter may print its key, and the report quotes what it printed.
        with masked(sys.stdout.buffer, KeyMask.of(key)) as out:
            if spool is not None:
                spool.seek(0)
                shutil.copyfileobj(spool, out)
            output.write(out)
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
