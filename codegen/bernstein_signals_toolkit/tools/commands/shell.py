"""``shell``: print the shell helper library, or the path of the installed copy."""

from __future__ import annotations

import argparse
import sys

from bernstein_signals_toolkit.generator.sources import shell_library

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--path",
        action="store_true",
        help="print the path of the installed library instead of its text",
    )


def run(args: argparse.Namespace) -> int:
    library = shell_library()
    if args.path:
        print(library)
        return 0
    sys.stdout.flush()
    sys.stdout.buffer.write(library.read_bytes())
    sys.stdout.buffer.flush()
    return 0
