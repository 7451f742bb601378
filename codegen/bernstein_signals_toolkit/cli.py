"""``bernstein-signals``: one entry point, one module per command under :mod:`.commands`.

Every failure the user can cause ends as one line on stderr and exit status 2;
nothing reaches the user as a traceback.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

from . import __version__
from .commands import COMMANDS, load
from .errors import ToolkitError, one_line

__all__ = ["main"]

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
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    for name, help_text in COMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            command = load(name)
            command.configure(sub)
            sub.set_defaults(run=command.run)
    return parser


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
    args = build_parser(arguments).parse_args(arguments)
    try:
        status: int = args.run(args)
    except ToolkitError as exc:
        print(f"{PROG}: error: {one_line(str(exc))}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`); say nothing more and do not let
        # Python complain again while flushing stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
