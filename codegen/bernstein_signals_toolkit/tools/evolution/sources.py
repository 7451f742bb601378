"""Where OLD and NEW come from: a schema folder, a project folder, or ``git:REF``.

``git:REF`` reads ``schema/`` and ``grammar/signal.lark`` of the project in
the working directory as they are at commit REF, with ``git ls-tree`` and
``git cat-file`` only: the work tree and the index are never read or written.
The blobs are copied into a private temporary folder and loaded from there by
the ordinary loader, so both sides pass the same checks.
"""

from __future__ import annotations

import os
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bernstein_signals_toolkit.generator.load import VOCABULARY_FILE, load_vocabulary
from bernstein_signals_toolkit.generator.model import Vocabulary
from bernstein_signals_toolkit.generator.output_folder import create, write_files
from bernstein_signals_toolkit.generator.sources import (
    GRAMMAR_FILE,
    SCHEMA_DIR,
    find_project,
    packaged_sources,
)
from bernstein_signals_toolkit.toolkit_errors import (
    SourceError,
    ToolkitError,
    UsageError,
    path_error,
)

__all__ = [
    "GIT_PREFIX",
    "MAX_GIT_ENTRIES",
    "MAX_GIT_FILE_BYTES",
    "NoBaseline",
    "Side",
    "opened",
]

GIT_PREFIX: Final = "git:"
MAX_GIT_FILE_BYTES: Final = 16 * 1024 * 1024
"""A blob larger than this under schema/ is refused before it is read: no vocabulary is that big."""
MAX_GIT_ENTRIES: Final = 4096
"""Entries of schema/ at REF past which it is refused, so a hostile tree costs bounded work."""

GIT_TIMEOUT: Final = 120
"""Seconds one git command may take (a partial clone may try to fetch a missing blob)."""

_REGULAR_MODES: Final = frozenset({"100644", "100755"})


class NoBaseline(UsageError):
    """``git:REF`` names no commit (first commit, shallow clone) or there is no repository."""


@dataclass(frozen=True)
class Side:
    """One side of a comparison, loaded."""

    label: str
    """How reports name it: the argument as given."""
    files: str
    """The prefix reports put before a schema file name (``schema/``)."""
    grammar_file: str
    """How reports name the grammar file."""
    vocabulary: Vocabulary


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}
    try:
        return subprocess.run(
            ["git", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=env,
            check=False,
            timeout=GIT_TIMEOUT,
        )
    except OSError as exc:
        raise NoBaseline(f"git cannot run: {exc.strerror or exc}") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"git {args[0]} took longer than {GIT_TIMEOUT} s") from None


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    return text.splitlines()[0] if text else "no message"


def _check_ref(ref: str) -> None:
    if not ref or ref.startswith("-") or any(ord(c) < 0x20 or c == "\x7f" for c in ref):
        raise UsageError(f"{GIT_PREFIX}{ref!r} is not a usable revision")


def _relabel(error: ToolkitError, folder: Path, label: str) -> ToolkitError:
    """The same error, naming ``git:REF:path`` instead of the temporary folder."""
    text = str(error).replace(f"{folder}{os.sep}", label).replace(str(folder), label)
    return UsageError(text)


def _project_prefix(cwd: Path) -> tuple[Path, str]:
    """The repository's top level, and the project's folder inside it (``""`` or ``sub/``)."""
    top = _git(["rev-parse", "--show-toplevel"], cwd)
    if top.returncode != 0:
        raise NoBaseline(f"{cwd} is not in a git repository: {_first_line(top.stderr)}")
    toplevel = Path(os.fsdecode(top.stdout.rstrip(b"\n"))).resolve()
    try:
        project = find_project(cwd.resolve())
        relative = project.relative_to(toplevel)
    except (UsageError, ValueError):
        return toplevel, ""
    prefix = relative.as_posix()
    return toplevel, "" if prefix == "." else prefix + "/"


def _entries(listing: bytes, ref: str) -> Iterator[tuple[str, str, str, int, str]]:
    """(mode, type, object, size, path) of each ``ls-tree -z -l`` record."""
    records = [record for record in listing.split(b"\0") if record]
    if len(records) > MAX_GIT_ENTRIES:
        raise UsageError(f"{GIT_PREFIX}{ref}: more than {MAX_GIT_ENTRIES} entries under schema/")
    for record in records:
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, obj, size = meta.decode("ascii", "replace").split()
        yield mode, kind, obj, int(size) if size.isdigit() else 0, os.fsdecode(raw_path)


def _materialise(ref: str, cwd: Path, folder: Path) -> str:
    """Copy REF's schema/ and grammar into ``folder``; return the label for file names."""
    _check_ref(ref)
    toplevel, prefix = _project_prefix(cwd)
    commit = _git(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], toplevel
    )
    if commit.returncode != 0:
        raise NoBaseline(f"{GIT_PREFIX}{ref} names no commit in {toplevel}")
    oid = commit.stdout.decode("ascii").strip()
    wanted = [f"{prefix}{SCHEMA_DIR}/", f"{prefix}{GRAMMAR_FILE}"]
    listing = _git(["ls-tree", "-z", "-l", "--full-tree", oid, "--", *wanted], toplevel)
    if listing.returncode != 0:
        raise UsageError(f"{GIT_PREFIX}{ref}: git ls-tree failed: {_first_line(listing.stderr)}")
    label = f"{GIT_PREFIX}{ref}:{prefix}"
    blobs: list[tuple[str, str]] = []
    for mode, kind, obj, size, path in _entries(listing.stdout, ref):
        relative = path[len(prefix) :]
        if kind == "tree":
            create(folder / relative)  # the loader then names it as misplaced
            continue
        if kind != "blob" or mode not in _REGULAR_MODES:
            raise UsageError(f"{label}{relative}: not a regular file at {ref} (mode {mode})")
        if size > MAX_GIT_FILE_BYTES:
            raise UsageError(f"{label}{relative}: {size} bytes, over {MAX_GIT_FILE_BYTES}")
        blobs.append((obj, relative))
    contents: dict[str, bytes] = {}
    for obj, relative in blobs:
        shown = _git(["cat-file", "blob", obj], toplevel)
        if shown.returncode != 0:
            raise UsageError(f"{label}: git cat-file failed: {_first_line(shown.stderr)}")
        contents[relative] = shown.stdout
    write_files(folder, contents)
    if not (folder / SCHEMA_DIR / VOCABULARY_FILE).is_file():
        raise UsageError(f"{label}{SCHEMA_DIR}/{VOCABULARY_FILE}: missing at {ref}")
    return label


def _is_file(spec: str, path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:  # too long a name, a loop, no permission: one line naming the side
        raise path_error(None, spec, exc) from None


def _folder_side(spec: str, given: Path) -> Side:
    if _is_file(spec, given / VOCABULARY_FILE):
        schema_dir = given
        grammar = given.parent / GRAMMAR_FILE
        if not _is_file(spec, grammar):
            grammar = packaged_sources().grammar
    elif _is_file(spec, given / SCHEMA_DIR / VOCABULARY_FILE):
        schema_dir, grammar = given / SCHEMA_DIR, given / GRAMMAR_FILE
    else:
        raise UsageError(
            f"{spec}: neither a schema folder (with {VOCABULARY_FILE}) nor a project"
            f" folder (with {SCHEMA_DIR}/{VOCABULARY_FILE}); for a commit write {GIT_PREFIX}REF"
        )
    shown = spec.rstrip("/") or spec
    files = f"{shown}/" if schema_dir == given else f"{shown}/{SCHEMA_DIR}/"
    return Side(spec, files, str(grammar), load_vocabulary(schema_dir, grammar))


@contextmanager
def opened(spec: str, *, cwd: Path | None = None) -> Iterator[Side]:
    """Load one side; a ``git:`` side lives in a temporary folder for the ``with`` block."""
    if not spec.startswith(GIT_PREFIX):
        yield _folder_side(spec, Path(spec) if cwd is None else cwd / spec)
        return
    here = Path.cwd() if cwd is None else cwd
    ref = spec[len(GIT_PREFIX) :]
    with tempfile.TemporaryDirectory(prefix="bernstein-diff-") as temporary:
        folder = Path(temporary)
        label = _materialise(ref, here, folder)
        try:
            vocabulary = load_vocabulary(folder / SCHEMA_DIR, folder / GRAMMAR_FILE)
        except SourceError as exc:
            raise _relabel(exc, folder, label) from None
        yield Side(spec, f"{SCHEMA_DIR}/", GRAMMAR_FILE, vocabulary)
