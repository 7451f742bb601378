"""The hooks in .pre-commit-hooks.yaml, run for real by pre-commit against this working tree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IDENTITY = {
    "GIT_AUTHOR_NAME": "hook test",
    "GIT_AUTHOR_EMAIL": "hooks@example.invalid",
    "GIT_COMMITTER_NAME": "hook test",
    "GIT_COMMITTER_EMAIL": "hooks@example.invalid",
}


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the module, so the hook environment is built once."""
    return tmp_path_factory.mktemp("pre-commit-home")


def _run(args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **IDENTITY, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        args,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )


def _repo(path: Path, home: Path) -> Path:
    path.mkdir()
    assert _run(["git", "init", "-q"], path, home).returncode == 0
    return path


def _commit_all(repo: Path, home: Path) -> None:
    assert _run(["git", "add", "-A"], repo, home).returncode == 0
    result = _run(["git", "commit", "-q", "-m", "fixture"], repo, home)
    assert result.returncode == 0, result.stderr


def _try(repo: Path, hook: str, home: Path) -> subprocess.CompletedProcess[str]:
    return _run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(ROOT),
            hook,
            "--all-files",
            "--verbose",
        ],
        repo,
        home,
    )


@pytest.mark.timeout(900)
def test_validate_hook(tmp_path: Path, pre_commit_home: Path) -> None:
    repo = _repo(tmp_path / "logs", pre_commit_home)
    (repo / "run.log").write_text("working\nBERNSTEIN:COMPLETE\n")
    (repo / "notes.txt").write_text("BERNSTEIN:COMPLETE is ignored: not a log\n")
    _commit_all(repo, pre_commit_home)

    failing = _try(repo, "bernstein-signals-validate", pre_commit_home)
    assert failing.returncode == 0, failing.stdout + failing.stderr  # a warning does not fail
    assert "BS216" in failing.stdout
    assert "notes.txt" not in failing.stdout

    (repo / "run.log").write_text('BERNSTEIN:QUESTION {"question":""}\nBERNSTEIN:COMPLETED\n')
    _commit_all(repo, pre_commit_home)
    failing = _try(repo, "bernstein-signals-validate", pre_commit_home)
    assert failing.returncode == 1
    assert "error[BS101]" in failing.stdout

    (repo / "run.log").write_text('BERNSTEIN:QUESTION {"question":"Go?"}\nBERNSTEIN:COMPLETED\n')
    _commit_all(repo, pre_commit_home)
    passing = _try(repo, "bernstein-signals-validate", pre_commit_home)
    assert passing.returncode == 0, passing.stdout
    assert "Passed" in passing.stdout


@pytest.mark.timeout(900)
def test_generate_check_hook(tmp_path: Path, pre_commit_home: Path) -> None:
    repo = _repo(tmp_path / "vocabulary", pre_commit_home)
    for folder in ("schema", "grammar", "generated"):
        shutil.copytree(ROOT / folder, repo / folder, ignore=shutil.ignore_patterns("__pycache__"))
    _commit_all(repo, pre_commit_home)
    current = _try(repo, "bernstein-signals-generate-check", pre_commit_home)
    assert current.returncode == 0, current.stdout + current.stderr
    assert "up to date" in current.stdout

    kinds = repo / "generated" / "python" / "bernstein_signals" / "kinds.py"
    kinds.write_text(kinds.read_text() + "# edited by hand\n")
    _commit_all(repo, pre_commit_home)
    stale = _try(repo, "bernstein-signals-generate-check", pre_commit_home)
    assert stale.returncode == 1
    assert "stale: python/bernstein_signals/kinds.py" in stale.stdout


def _add_optional_field(repo: Path) -> None:
    path = repo / "schema" / "blocked.schema.json"
    schema = json.loads(path.read_text())
    schema["properties"]["retry_after"] = {"description": "Seconds.", "type": "integer"}
    path.write_text(json.dumps(schema, indent=2))


def _bump_minor(repo: Path) -> None:
    path = repo / "schema" / "vocabulary.json"
    meta = json.loads(path.read_text())
    major, minor, _ = meta["version"].split("-")[0].split(".")
    meta["version"] = f"{major}.{int(minor) + 1}.0"
    path.write_text(json.dumps(meta, indent=2))


@pytest.mark.timeout(900)
def test_version_check_hook(tmp_path: Path, pre_commit_home: Path) -> None:
    repo = _repo(tmp_path / "vocabulary", pre_commit_home)
    for folder in ("schema", "grammar"):
        shutil.copytree(ROOT / folder, repo / folder)
    assert _run(["git", "add", "-A"], repo, pre_commit_home).returncode == 0
    first = _try(repo, "bernstein-signals-version-check", pre_commit_home)
    assert first.returncode == 0, first.stdout + first.stderr  # no HEAD yet: a note
    assert "skipped, no baseline" in first.stdout
    _commit_all(repo, pre_commit_home)

    _add_optional_field(repo)
    assert _run(["git", "add", "-A"], repo, pre_commit_home).returncode == 0  # staged only
    unbumped = _try(repo, "bernstein-signals-version-check", pre_commit_home)
    assert unbumped.returncode == 1, unbumped.stdout + unbumped.stderr
    assert "[field-added-optional]" in unbumped.stdout
    assert "raise the minor version" in unbumped.stdout

    _bump_minor(repo)
    assert _run(["git", "add", "-A"], repo, pre_commit_home).returncode == 0
    bumped = _try(repo, "bernstein-signals-version-check", pre_commit_home)
    assert bumped.returncode == 0, bumped.stdout + bumped.stderr
    assert "Passed" in bumped.stdout
