"""Where the sources of truth are: a project checkout, or the copy shipped as package data."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bernstein_signals_toolkit.toolkit_errors import UsageError

__all__ = [
    "GRAMMAR_FILE",
    "OUTPUT_DIR",
    "PACKAGED_SOURCES_DIR",
    "SCHEMA_DIR",
    "TOOLKIT_PACKAGE",
    "Sources",
    "find_project",
    "packaged_sources",
    "shell_library",
]

SCHEMA_DIR = "schema"
GRAMMAR_FILE = "grammar/signal.lark"
OUTPUT_DIR = "generated"
PACKAGED_SOURCES_DIR = "_sources"
"""Where an installed toolkit keeps its copy of schema/, grammar/ and the shell library,
beside its modules (pyproject.toml's force-include writes it; a test holds them equal)."""
SHELL_LIBRARY = "shell/bernstein-signals.sh"
"""The shell library's path under the output folder (and under ``_sources`` when installed)."""
_MARKER = "vocabulary.json"

TOOLKIT_PACKAGE = Path(__file__).resolve().parents[1]
"""The installed ``bernstein_signals_toolkit`` folder (this module is in its ``generator/``)."""


@dataclass(frozen=True)
class Sources:
    schema_dir: Path
    grammar: Path


def _is_project(root: Path) -> bool:
    return (root / SCHEMA_DIR / _MARKER).is_file() and (root / GRAMMAR_FILE).is_file()


def find_project(start: Path) -> Path:
    """The nearest folder at or above ``start`` that holds schema/ and grammar/, like git."""
    for folder in (start, *start.parents):
        if _is_project(folder):
            return folder
    raise UsageError(
        f"no {SCHEMA_DIR}/{_MARKER} and {GRAMMAR_FILE} in {start} or above;"
        " run inside a vocabulary checkout or pass --schema and --grammar"
    )


def packaged_sources() -> Sources:
    """The vocabulary this toolkit was built with: package data, or the checkout it runs from."""
    package = TOOLKIT_PACKAGE
    for root in (package / PACKAGED_SOURCES_DIR, package.parents[1]):
        if _is_project(root):
            return Sources(root / SCHEMA_DIR, root / GRAMMAR_FILE)
    raise UsageError(f"the toolkit's own schemas are missing from {package / PACKAGED_SOURCES_DIR}")


def shell_library() -> Path:
    """The generated shell library this toolkit ships: package data, or the checkout's copy."""
    package = TOOLKIT_PACKAGE
    for candidate in (
        package / PACKAGED_SOURCES_DIR / SHELL_LIBRARY,
        package.parents[1] / OUTPUT_DIR / SHELL_LIBRARY,
    ):
        if candidate.is_file():
            return candidate
    raise UsageError(
        f"the shell library is missing from {package / PACKAGED_SOURCES_DIR};"
        " run `bernstein-signals generate` in the checkout"
    )
