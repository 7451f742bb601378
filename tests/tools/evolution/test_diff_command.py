"""``bernstein-signals diff`` end to end: exit statuses, git:REF, formats, generate --baseline."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from bernstein_signals_toolkit.tools.evolution import RULES, rule_table_markdown
from bernstein_signals_toolkit.tools.evolution.report import JSON_SCHEMA
from tools.evolution.diff_support import ROOT, add_optional_field, edit_json, git, set_version

CLI = Path(sys.executable).with_name("bernstein-signals")
SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif-schema-2.1.0.json"


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLI), *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def assert_refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr


@pytest.mark.timeout(120)
def test_a_clean_checkout_is_its_own_baseline(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(ROOT), str(clone))
    result = run(clone, "diff", "git:HEAD", "schema")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("no changes;")


def test_the_version_must_cover_the_changes(repo: Path) -> None:
    add_optional_field(repo)
    needs_minor = run(repo, "diff", "git:HEAD", "schema")
    assert needs_minor.returncode == 1
    assert "[field-added-optional]" in needs_minor.stdout
    assert "producers: warning, consumers: compatible" in needs_minor.stdout
    assert "raise the minor version" in needs_minor.stdout
    set_version(repo, "1.0.1")
    assert run(repo, "diff", "git:HEAD", "schema").returncode == 1
    set_version(repo, "1.1.0")
    assert run(repo, "diff", "git:HEAD", "schema").returncode == 0

    edit_json(repo / "schema" / "blocked.schema.json", lambda s: s.update({"required": []}))
    breaking = run(repo, "diff", "git:HEAD", "schema")
    assert breaking.returncode == 1
    assert "[field-made-optional]" in breaking.stdout
    assert "major" in breaking.stdout
    set_version(repo, "2.0.0")
    assert run(repo, "diff", "git:HEAD", "schema").returncode == 0


def test_wording_needs_no_bump_and_a_lower_version_fails(repo: Path) -> None:
    edit_json(
        repo / "schema" / "blocked.schema.json",
        lambda s: s["properties"]["reason"].update({"description": "Why the run waits."}),
    )
    wording = run(repo, "diff", "git:HEAD", "schema")
    assert wording.returncode == 0, wording.stdout
    assert "[annotation-changed]" in wording.stdout
    set_version(repo, "0.9.0")
    lowered = run(repo, "diff", "git:HEAD", "schema")
    assert lowered.returncode == 1
    assert "must not go down" in lowered.stdout


def test_unreadable_inputs_are_one_line_and_status_2(repo: Path, tmp_path: Path) -> None:
    assert_refused(run(repo, "diff", "git:HEAD", "missing"), "missing")
    assert_refused(run(repo, "diff", "git:no-such-ref", "schema"), "names no commit")
    assert_refused(run(repo, "diff", "git:--output=x", "schema"), "not a usable revision")
    assert not (repo / "x").exists()
    outside = tmp_path / "outside"
    shutil.copytree(repo / "schema", outside / "schema")
    assert_refused(run(outside, "diff", "git:HEAD", "schema"), "not in a git repository")
    assert_refused(run(repo, "diff", "schema"), "OLD and NEW")

    (repo / "schema" / "blocked.schema.json").write_text("{")
    git(repo, "commit", "-q", "-am", "broken")
    broken = run(repo, "diff", "git:HEAD", "git:HEAD~1")
    assert_refused(broken, "git:HEAD:schema/blocked.schema.json", "[json]")
    assert "bernstein-diff-" not in broken.stderr  # not the temporary folder


def test_no_baseline_can_be_allowed(repo: Path, tmp_path: Path) -> None:
    skipped = run(repo, "diff", "--allow-no-baseline", "git:HEAD~1", "schema")
    assert skipped.returncode == 0
    assert skipped.stdout.count("\n") == 1
    assert "skipped, no baseline" in skipped.stdout
    fresh = tmp_path / "fresh"
    shutil.copytree(repo / "schema", fresh / "schema")
    shutil.copytree(repo / "grammar", fresh / "grammar")
    git(fresh, "init", "-q")  # no commit yet
    assert run(fresh, "diff", "--allow-no-baseline", "git:HEAD", "schema").returncode == 0
    assert_refused(run(repo, "diff", "--allow-no-baseline", "git:HEAD", "missing"), "missing")


def _snapshot(repo: Path) -> dict[str, object]:
    files = {
        str(path.relative_to(repo)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(repo.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(repo).parts
    }
    index = repo / ".git" / "index"
    return {
        "files": files,
        "index": (index.read_bytes(), index.stat().st_mtime_ns) if index.exists() else None,
        "status": git(repo, "--no-optional-locks", "status", "--porcelain=v2", "-uall"),
    }


def test_the_git_reader_never_touches_the_work_tree_or_index(repo: Path) -> None:
    add_optional_field(repo)
    git(repo, "add", "schema/blocked.schema.json")  # staged
    set_version(repo, "1.1.0")  # unstaged
    (repo / "schema" / "notes.txt").write_text("untracked\n")
    (repo / "schema" / "notes.txt").unlink()
    before = _snapshot(repo)
    assert run(repo, "diff", "git:HEAD", "schema").returncode == 0
    assert run(repo, "diff", "git:HEAD", "git:HEAD").returncode == 0
    assert _snapshot(repo) == before

    # Neither the index nor the checked-out files are needed for git: sides.
    (repo / ".git" / "index").unlink()
    shutil.rmtree(repo / "schema")
    shutil.rmtree(repo / "grammar")
    result = run(repo, "diff", "git:HEAD", "git:HEAD")
    assert result.returncode == 0, result.stderr
    assert not (repo / ".git" / "index").exists()
    assert not (repo / "schema").exists()


def test_a_project_in_a_subfolder_reads_its_own_schema(repo: Path, tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    shutil.copytree(repo, outer / "sub", ignore=shutil.ignore_patterns(".git"))
    git(outer, "init", "-q")
    git(outer, "add", "-A")
    git(outer, "commit", "-q", "-m", "nested")
    add_optional_field(outer / "sub")
    result = run(outer / "sub", "diff", "git:HEAD", "schema")
    assert result.returncode == 1
    assert "[field-added-optional]" in result.stdout


def _changed(repo: Path) -> None:
    """A rename, an optional field, a tighter reply and a new terminal kind."""

    def rename(schema: dict[str, object]) -> None:
        props = schema["properties"]
        assert isinstance(props, dict)
        props["cause"] = {**props.pop("reason"), "x-bernstein-renamed-from": "reason"}
        schema["required"] = ["cause"]
        schema["examples"] = [{"cause": "x"}]

    edit_json(repo / "schema" / "blocked.schema.json", rename)
    edit_json(
        repo / "schema" / "reply.schema.json",
        lambda s: s["properties"]["answer"].update({"maxLength": 4096}),
    )
    add_field = {"description": "d", "type": "string"}
    edit_json(
        repo / "schema" / "question.schema.json",
        lambda s: s["properties"].update({"hint": add_field}),
    )
    aborted = json.loads((repo / "schema" / "failed.schema.json").read_text())
    aborted.update(
        {"x-bernstein-kind": "ABORTED", "title": "ABORTED", "$id": "https://x.invalid/a"}
    )
    for field in aborted["properties"].values():
        field.pop("x-bernstein-role", None)  # roles belong to FAILED's fields only
    (repo / "schema" / "aborted.schema.json").write_text(json.dumps(aborted))


def test_json_output_follows_its_published_schema(repo: Path) -> None:
    _changed(repo)
    result = run(repo, "diff", "--format", "json", "git:HEAD", "schema")
    assert result.returncode == 1
    document = json.loads(result.stdout)
    schema = json.loads(JSON_SCHEMA.read_text())
    jsonschema.Draft202012Validator(schema).validate(document)
    assert schema["$defs"]["change"]["properties"]["rule"]["enum"] == [r.id for r in RULES]
    rules = {change["rule"] for change in document["changes"]}
    assert {"field-renamed", "field-added-optional", "kind-added-terminal"} <= rules
    reply = [c for c in document["changes"] if c["where"] == "reply"]
    assert reply
    assert reply[0]["swapped"]
    assert reply[0]["consumers"] == "breaking"
    assert document["required_bump"] == "major"
    assert document["version_bump"] == "none"
    assert not document["passed"]


def test_sarif_output_validates_against_the_oasis_schema(repo: Path) -> None:
    _changed(repo)
    result = run(repo, "diff", "--format", "sarif", "git:HEAD", "schema")
    assert result.returncode == 1
    document = json.loads(result.stdout)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(document)
    results = document["runs"][0]["results"]
    assert results
    assert all(r["level"] in {"error", "warning", "note"} for r in results)
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)


def test_github_output_is_one_annotation_per_line(repo: Path) -> None:
    _changed(repo)
    text = run(repo, "diff", "git:HEAD", "schema").stdout.splitlines()
    result = run(repo, "diff", "--format", "github", "git:HEAD", "schema")
    lines = result.stdout.splitlines()
    assert len(lines) == len(text)  # each change, then the verdict
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    assert lines[-1].startswith("::error title=vocabulary version::")


def test_markdown_release_notes(repo: Path) -> None:
    _changed(repo)
    set_version(repo, "2.0.0")
    result = run(repo, "diff", "--format", "markdown", "git:HEAD", "schema")
    assert result.returncode == 0
    assert result.stdout.startswith("## Vocabulary 2.0.0\n")
    assert "### Breaking changes" in result.stdout
    assert "### Additions and other changes" in result.stdout
    assert "- **ABORTED**" in result.stdout


def test_rules_are_printed_and_documented() -> None:
    result = run(ROOT, "diff", "--rules")
    assert result.returncode == 0
    assert result.stdout == rule_table_markdown()
    readme = (ROOT / "README.md").read_text()
    assert rule_table_markdown() in readme, "README: paste `bernstein-signals diff --rules`"


def test_generate_check_runs_the_version_check(repo: Path) -> None:
    assert run(repo, "generate").returncode == 0  # current for this toolkit, whatever was copied
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", "regenerated")
    clean = run(repo, "generate", "--check", "--baseline", "git:HEAD")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    add_optional_field(repo)
    assert run(repo, "generate").returncode == 0
    stale_version = run(repo, "generate", "--check", "--baseline", "git:HEAD")
    assert stale_version.returncode == 1
    assert "files up to date" in stale_version.stdout
    assert "raise the minor version" in stale_version.stdout
    set_version(repo, "1.1.0")
    assert run(repo, "generate").returncode == 0
    current = run(repo, "generate", "--check", "--baseline", "git:HEAD")
    assert current.returncode == 0, current.stdout
    assert_refused(run(repo, "generate", "--baseline", "git:HEAD"), "--baseline needs --check")


def test_generate_baseline_does_not_load_the_binding(repo: Path) -> None:
    """generate must not depend on the binding it checks, with or without --baseline."""
    code = (
        "import sys\n"
        "from bernstein_signals_toolkit.cli import main\n"
        "status = main(['generate', '--check', '--baseline', 'git:HEAD'])\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] == 'bernstein_signals']\n"
        "print('loaded:', loaded)\n"
        "sys.exit(status)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=repo,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert "loaded: []" in result.stdout, result.stdout + result.stderr


def test_line_breaking_text_from_the_sources_stays_on_its_line(repo: Path) -> None:
    """U+2028 in a nested field name and in a value: every format keeps one item per line."""
    nested = {
        "description": "d",
        "type": "object",
        "properties": {"a\u2028b\u0085c": {"type": "string", "enum": ["x\u2029y"]}},
    }
    edit_json(
        repo / "schema" / "question.schema.json",
        lambda s: s["properties"].update({"meta": nested}),
    )
    text = run(repo, "diff", "git:HEAD", "schema").stdout
    github = run(repo, "diff", "--format", "github", "git:HEAD", "schema").stdout
    markdown = run(repo, "diff", "--format", "markdown", "git:HEAD", "schema").stdout
    assert len(text.splitlines()) == len(text.split("\n")) - 1 == 2
    assert len(github.splitlines()) == len(github.split("\n")) - 1 == 2
    assert len(markdown.splitlines()) == len(markdown.split("\n")) - 1
    edit_json(
        repo / "schema" / "question.schema.json",
        lambda s: s["properties"]["meta"]["properties"]["a\u2028b\u0085c"].update({"enum": ["z"]}),
    )
    git(repo, "commit", "-qam", "meta")
    edit_json(
        repo / "schema" / "question.schema.json",
        lambda s: s["properties"]["meta"]["properties"]["a\u2028b\u0085c"].update(
            {"enum": ["z\u2028"]}
        ),
    )
    for output_format in ("text", "github", "markdown"):
        out = run(repo, "diff", "--format", output_format, "git:HEAD", "schema").stdout
        assert len(out.splitlines()) == len(out.split("\n")) - 1, (output_format, out)
