"""``bernstein-signals``: one entry point, one module per command under :mod:`.commands`.

Every failure the user can cause ends as one line on stderr and exit status 2;
nothing reaches the user as a traceback.
"""

from __future__ import annotations

import argparse
import io
import os
import select
import sys
from collections.abc import Sequence

from bernstein_signals_toolkit.tools.commands import COMMANDS, load

from . import __version__
from .toolkit_errors import ToolkitError, one_line

__all__ = ["STDOUT_CUT_STATUS", "main"]

PROG = "bernstein-signals"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser, with the options of the command named in ``argv`` (only that one is loaded)."""
    parser = _Parser(
        prog=PROG,
        description="Toolkit for the adapter stream-signal protocol.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", title="commands", parser_class=_Parser
    )
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    for name, help_text in COMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            command = load(name)
            command.configure(sub)
            sub.set_defaults(run=command.run, _name=name, _runs_a_command=_runs_a_command(sub))
    return parser


def _runs_a_command(parser: argparse.ArgumentParser) -> bool:
    """Whether the command takes a command line to run (``wrap``, ``conform``)."""
    return any(action.nargs == argparse.REMAINDER for action in parser._actions)


def _unrecognized(
    parser: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str]
) -> None:
    """argparse's error for arguments no option takes, with a hint where ``--`` is the cure."""
    message = f"unrecognized arguments: {' '.join(extra)}"
    if getattr(args, "_runs_a_command", False):
        message += (
            f" (options of the command to run go after --: {PROG} {args._name} -- CMD [ARG]...)"
        )
    parser.error(message)


def _bytes_stay_bytes() -> None:
    """Print names from the file system and argv as the bytes they are, in every locale.

    Python turns bytes that are not UTF-8 into lone surrogates; a strict
    stdout would then fail with UnicodeEncodeError in some locales only.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="surrogateescape")


def main(argv: Sequence[str] | None = None) -> int:
    _bytes_stay_bytes()
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(arguments)
    args, extra = parser.parse_known_args(arguments)
    if getattr(args, "run", None) is None:
        # A bare call (or only options): the usage and the command list, not just "required".
        sys.stderr.write(parser.format_help())
        unknown = f"unrecognized arguments: {' '.join(extra)}; " if extra else ""
        print(f"{PROG}: error: {one_line(unknown)}a COMMAND is required", file=sys.stderr)
        return 2
    if extra:
        _unrecognized(parser, args, extra)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if _stdout_cut(exc):
            return _quiet_exit()
        if isinstance(exc, ToolkitError):
            print(f"{PROG}: error: {one_line(str(exc))}", file=sys.stderr)
            return exc.exit_status
        raise
    return status


STDOUT_CUT_STATUS = 141
"""A reader that went away (``| head``) ends a command as SIGPIPE ends a Unix tool: 128 + 13."""


def _stdout_cut(exc: BaseException) -> bool:
    """Whether ``exc`` comes from writing to a stdout whose reader has gone.

    Commands that wrap their reads in ``except OSError`` also catch the
    BrokenPipeError of a write in the same block and re-raise it as a read
    error; the chain still holds it, so every command is judged here, once. A
    broken pipe to a child's stdin (``conform``) is no closed stdout: the
    stdout pipe itself must report its reader gone.
    """
    seen: BaseException | None = exc
    for _ in range(16):  # a chain is short; a cycle must not loop
        if seen is None:
            return False
        if isinstance(seen, BrokenPipeError):
            return _reader_gone(sys.stdout)
        seen = seen.__cause__ or seen.__context__
    return False


def _reader_gone(stream: object) -> bool:
    try:
        fd = stream.fileno()  # type: ignore[attr-defined]
        poller = select.poll()
        poller.register(fd, 0)  # POLLERR is always reported: a pipe with no reader left
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def _quiet_exit() -> int:
    """Say nothing more, and keep Python from complaining while it flushes stdout at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return STDOUT_CUT_STATUS


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
