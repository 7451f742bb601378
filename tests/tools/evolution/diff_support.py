"""Helpers for the diff tests: git, JSON edits, and a committed copy of the vocabulary."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
IDENTITY = {
    "GIT_AUTHOR_NAME": "diff test",
    "GIT_AUTHOR_EMAIL": "diff@example.invalid",
    "GIT_COMMITTER_NAME": "diff test",
    "GIT_COMMITTER_EMAIL": "diff@example.invalid",
}


def git(repo: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", *args],
        cwd=repo,
        env={**os.environ, **IDENTITY},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def edit_json(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def set_version(repo: Path, version: str) -> None:
    edit_json(repo / "schema" / "vocabulary.json", lambda meta: meta.update({"version": version}))


def add_optional_field(repo: Path) -> None:
    """BLOCKED gets an optional ``retry_after``: a minor change (a producer-side warning)."""
    field = {"description": "Seconds before a retry may help.", "type": "integer", "minimum": 0}
    edit_json(
        repo / "schema" / "blocked.schema.json",
        lambda schema: schema["properties"].update({"retry_after": field}),
    )


def committed_copy(tmp_path: Path) -> Path:
    """schema/, grammar/ and generated/ of this checkout at 1.0.0, committed in a new repository."""
    root = tmp_path / "vocabulary"
    for folder in ("schema", "grammar", "generated"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    set_version(root, "1.0.0")  # the tests bump from here, whatever this checkout is at
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "vocabulary 1.0.0")
    return root
