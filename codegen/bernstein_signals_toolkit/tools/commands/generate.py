"""``generate``: write generated/ from schema/ and grammar/, or check that it is current."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bernstein_signals_toolkit.generator.pipeline import compare, render_sources, write
from bernstein_signals_toolkit.generator.sources import (
    GRAMMAR_FILE,
    OUTPUT_DIR,
    SCHEMA_DIR,
    find_project,
)
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ._arguments import input_file, input_folder, output_folder, path_errors, text

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list stale, missing and orphaned files and exit 1 if there are any",
    )
    parser.add_argument(
        "--baseline",
        type=text,
        metavar="REF",
        help="with --check: also check that schema/vocabulary.json's version is raised as much"
        " as the changes since REF need (git:REF, or a schema folder; see `diff`)",
    )
    parser.add_argument(
        "--schema",
        type=Path,
        metavar="DIR",
        help=f"the schema folder (default: {SCHEMA_DIR}/ of the enclosing project)",
    )
    parser.add_argument(
        "--grammar",
        type=Path,
        metavar="FILE",
        help=f"the grammar file (default: {GRAMMAR_FILE} of the enclosing project)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help=f"the output folder (default: {OUTPUT_DIR}/ of the enclosing project)",
    )


def _locations(args: argparse.Namespace) -> tuple[Path, Path, Path]:
    given: tuple[Path | None, Path | None, Path | None] = (args.schema, args.grammar, args.out)
    if given[0] and given[1] and given[2]:
        return given[0], given[1], given[2]
    root = find_project(Path.cwd())
    return (
        given[0] or root / SCHEMA_DIR,
        given[1] or root / GRAMMAR_FILE,
        given[2] or root / OUTPUT_DIR,
    )


def _version_check(baseline: str, schema_dir: Path, grammar: Path) -> bool:
    """``diff``'s version check against the baseline; True when the version is raised enough."""
    # Imported here: only --baseline needs the evolution package (and git).
    from ..evolution import diff_against
    from ..evolution.report import render

    result = diff_against(baseline, schema_dir, grammar)
    for line in render(result, "text"):
        print(f"{baseline}: {line}")
    return result.passed


def run(args: argparse.Namespace) -> int:
    if args.baseline is not None and not args.check:
        raise UsageError("--baseline needs --check")
    schema_dir, grammar, out_dir = _locations(args)
    input_folder("--schema", schema_dir)
    input_file("--grammar", grammar)
    output_folder("--out", out_dir)
    if args.baseline is not None:
        from ..evolution import GIT_PREFIX  # only --baseline loads the evolution package

        if not args.baseline.startswith(GIT_PREFIX):
            input_folder("--baseline", args.baseline)

    files = render_sources(schema_dir, grammar)
    if args.check:
        with path_errors("--out", out_dir):
            drift = compare(out_dir, files)
        for line in drift.lines():
            print(f"{out_dir}: {line}")
        versioned = args.baseline is None or _version_check(args.baseline, schema_dir, grammar)
        if drift:
            print(
                f"{out_dir} is out of date: run `bernstein-signals generate` and commit the result",
                file=sys.stderr,
            )
        else:
            print(f"{out_dir}: {len(files)} files up to date")
        return 0 if versioned and not drift else 1

    with path_errors("--out", out_dir):
        written = write(out_dir, files)
    for line in written.written_lines(len(files)):
        print(f"{out_dir}: {line}")
    return 0
