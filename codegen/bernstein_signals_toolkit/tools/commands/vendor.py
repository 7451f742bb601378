"""``vendor``: copy the Python binding this toolkit ships into a project, headers and all.

The binding is standard library only, so a project can carry it as a folder
instead of installing the toolkit and its dependencies. The copy goes through
the generator's writer: unchanged files stay untouched, old generated modules
are removed, hand-written files are kept, and nothing goes through a symlink.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bernstein_signals_toolkit.generator.pipeline import compare, write
from bernstein_signals_toolkit.generator.sources import TOOLKIT_PACKAGE
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ._arguments import output_folder, path_errors

__all__ = ["IMPORT_PACKAGE", "binding_package", "configure", "run"]

IMPORT_PACKAGE = "bernstein_signals"
_CHECKOUT_COPY = Path("generated") / "python" / IMPORT_PACKAGE
_SKIPPED = ("__pycache__",)


def binding_package() -> Path:
    """The binding beside the installed toolkit, or the checkout's generated copy."""
    toolkit = TOOLKIT_PACKAGE
    for candidate in (toolkit.parent / IMPORT_PACKAGE, toolkit.parents[1] / _CHECKOUT_COPY):
        if (candidate / "__init__.py").is_file():
            return candidate
    raise UsageError(
        f"the binding is missing beside {toolkit}; run `bernstein-signals generate` in the checkout"
    )


def _files(package: Path) -> dict[str, bytes]:
    files = {}
    for folder, dirs, names in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED)
        for name in names:
            if not name.endswith(".pyc"):
                path = Path(folder) / name
                files[path.relative_to(package).as_posix()] = path.read_bytes()
    return dict(sorted(files.items()))


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folder",
        type=Path,
        metavar="DIR",
        help=f"where the package goes: DIR/{IMPORT_PACKAGE}/ (put DIR on the import path)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list what differs from the shipped binding, exit 1 if anything does",
    )


def run(args: argparse.Namespace) -> int:
    files = _files(binding_package())
    output_folder(None, args.folder)
    out = args.folder / IMPORT_PACKAGE
    if args.check:
        with path_errors(None, args.folder):
            drift = compare(out, files, readme=False)
        for line in drift.lines():
            print(f"{out}: {line}")
        if drift:
            print(f"{out} differs: run `bernstein-signals vendor DIR` again", file=sys.stderr)
            return 1
        print(f"{out}: {len(files)} files up to date")
        return 0
    with path_errors(None, args.folder):
        written = write(out, files, readme=False)
    for line in written.written_lines(len(files)):
        print(f"{out}: {line}")
    return 0
