"""A throw-away copy of the checkout, for tests that run documented commands in it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

__all__ = ["ROOT", "project_copy"]

ROOT = Path(__file__).resolve().parents[1]


def project_copy(folder: Path) -> Path:
    """The tracked files of the checkout, as they are in the working tree.

    Tracked rather than all files: a block must not depend on a build output
    or a file someone left lying around.
    """
    listed = subprocess.run(
        ["git", "ls-files", "-z"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = ROOT / os.fsdecode(name)
        if source.is_file() and not source.is_symlink():
            target = folder / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return folder
