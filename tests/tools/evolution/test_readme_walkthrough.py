"""The README's "What a change breaks" walkthrough runs, in a committed copy of the project."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools.evolution.diff_support import IDENTITY, ROOT, git

MARKER = "tests/tools/evolution/test_readme_walkthrough.py runs this block"


def _walkthrough() -> str:
    readme = (ROOT / "README.md").read_text()
    after = readme[readme.index(MARKER) :]  # the readme-test skip marker naming this test
    match = re.search(r"```sh\n(.*?)\n```", after, re.DOTALL)
    assert match is not None, "the walkthrough's sh block follows its marker"
    return match.group(1)


@pytest.mark.timeout(300)
def test_the_walkthrough_runs(repo: Path) -> None:
    before = json.loads((repo / "schema" / "vocabulary.json").read_text())["version"]
    env = {
        **os.environ,
        **IDENTITY,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", _walkthrough()],
        cwd=repo,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "[field-added-optional]" in result.stdout
    assert "producers: warning, consumers: compatible; minor" in result.stdout
    assert "diff: exit 1, the version is too low" in result.stdout
    major, minor, _ = before.split(".")
    after = json.loads(git(repo, "show", "HEAD:schema/vocabulary.json"))["version"]
    assert after == f"{major}.{int(minor) + 1}.0"
    assert git(repo, "status", "--porcelain") == ""
    assert "retry_after" in git(repo, "show", "HEAD", "--stat", "--format=") or "retry_after" in (
        git(repo, "show", "HEAD:generated/shell/bernstein-signals.sh")
    )
