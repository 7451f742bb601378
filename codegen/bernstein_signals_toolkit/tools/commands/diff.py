"""``diff OLD NEW``: every change between two vocabularies, judged per side, and the version check.

Exit status 0 when NEW's version is raised as much as the changes need, 1 when
it is not, 2 when a side cannot be read (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys

from ..evolution import GIT_PREFIX, NoBaseline, diff_sources, rule_table_markdown
from ..evolution.report import FORMATS, render
from ._arguments import text

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Exit status: 0 when NEW's version is raised as much as the changes need (a change"
        " breaking either side: major; any other a validator sees: minor; wording: none),"
        " 1 when it is not, 2 when a side cannot be read. `--rules` lists every rule."
    )
    parser.add_argument(
        "old",
        nargs="?",
        type=text,
        metavar="OLD",
        help=f"the vocabulary before: a schema folder, a project folder or {GIT_PREFIX}REF"
        " (schema/ and grammar/ of the enclosing project at commit REF, read with git)",
    )
    parser.add_argument("new", nargs="?", type=text, metavar="NEW", help="the vocabulary after")
    parser.add_argument(
        "--format",
        choices=sorted(FORMATS),
        default="text",
        help="text (default), json (evolution/diff.schema.json), sarif, github annotations,"
        " or markdown release notes",
    )
    parser.add_argument(
        "--allow-no-baseline",
        action="store_true",
        help=f"when OLD is {GIT_PREFIX}REF and REF names no commit (a first commit, a shallow"
        " clone) or there is no repository, print a note and exit 0",
    )
    parser.add_argument(
        "--rules",
        action="store_true",
        help="print the table of change rules (Markdown) and exit",
    )


def run(args: argparse.Namespace) -> int:
    if args.rules:
        sys.stdout.write(rule_table_markdown())
        return 0
    if args.old is None or args.new is None:
        print("bernstein-signals diff: error: OLD and NEW are required", file=sys.stderr)
        return 2
    try:
        diff = diff_sources(args.old, args.new)
    except NoBaseline as exc:
        if not (args.allow_no_baseline and args.old.startswith(GIT_PREFIX)):
            raise
        print(f"bernstein-signals diff: skipped, no baseline: {exc}")
        return 0
    from ..validate.formats import encode_line  # loads the binding: not before it is needed

    out = sys.stdout.buffer
    for line in render(diff, args.format):
        out.write(encode_line(line) + b"\n")
    out.flush()
    return 0 if diff.passed else 1
