"""The generator: golden output, determinism, --check, new kinds and bad sources."""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.generator.emitters._header import MARKER
from bernstein_signals_toolkit.generator.keywords import keyword_table
from bernstein_signals_toolkit.generator.pipeline import (
    DIFF_LINES,
    README_FILE,
    compare,
    readme_regions,
    render_sources,
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_DIR = ROOT / "schema"
GRAMMAR = ROOT / "grammar" / "signal.lark"
GENERATED = ROOT / "generated"
UPDATE_COMMAND = "make generate"
VERSION = json.loads((SCHEMA_DIR / "vocabulary.json").read_text(encoding="utf-8"))["version"]


def _tree(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def _cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bernstein_signals_toolkit.cli", *args],
        cwd=cwd or ROOT,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="module")
def rendered() -> dict[str, bytes]:
    return render_sources(SCHEMA_DIR, GRAMMAR)


@pytest.fixture
def vocabulary(tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the sources that a test may change."""
    schema = tmp_path / "schema"
    grammar = tmp_path / "grammar" / "signal.lark"
    shutil.copytree(SCHEMA_DIR, schema)
    grammar.parent.mkdir()
    shutil.copy(GRAMMAR, grammar)
    return schema, grammar


# ---------------------------------------------------------------------------
# Golden files and byte stability
# ---------------------------------------------------------------------------


def test_generated_tree_is_current(rendered: dict[str, bytes]) -> None:
    """generated/ is the golden output of schema/ + grammar/."""
    committed = _tree(GENERATED)
    problems = []
    for path in sorted(set(rendered) | set(committed)):
        want, have = rendered.get(path), committed.get(path)
        if want == have:
            continue
        if want is None:
            problems.append(f"orphaned: generated/{path}")
        elif have is None:
            problems.append(f"missing: generated/{path}")
        else:
            diff = difflib.unified_diff(
                have.decode().splitlines(),
                want.decode().splitlines(),
                f"generated/{path} (committed)",
                f"generated/{path} (from sources)",
                lineterm="",
            )
            problems.append("\n".join(diff))
    assert not problems, (
        "\n".join(problems) + f"\n\nTo update the golden files run: {UPDATE_COMMAND}"
    )


def test_every_file_is_marked_and_normalised(rendered: dict[str, bytes]) -> None:
    assert rendered
    for path, content in rendered.items():
        text = content.decode("utf-8")
        head = "\n".join(text.splitlines()[:3])
        assert MARKER in head, path
        assert "bernstein-signals generate" in head, path
        assert "schema/" in head, path
        assert "grammar/signal.lark" in head, path
        assert f" {VERSION})" in head, f"{path}: the vocabulary version is in every header"
        assert "\r" not in text, path
        assert text.endswith("\n"), path
        assert not text.endswith("\n\n"), path
        assert not re.search(r"\b20\d\d-\d\d-\d\d", text), f"{path} carries a date"


def test_output_is_identical_across_runs_and_hash_seeds(tmp_path: Path) -> None:
    trees = []
    for seed in ("0", "1", "4242"):
        out = tmp_path / f"out-{seed}"
        result = _cli(
            "generate",
            "--schema",
            str(SCHEMA_DIR),
            "--grammar",
            str(GRAMMAR),
            "--out",
            str(out),
            env={"PYTHONHASHSEED": seed},
        )
        assert result.returncode == 0, result.stderr
        trees.append(_tree(out))
    assert trees[0] == trees[1] == trees[2]


# ---------------------------------------------------------------------------
# --check
# ---------------------------------------------------------------------------


@pytest.fixture
def current(tmp_path: Path, rendered: dict[str, bytes]) -> Path:
    out = tmp_path / "generated"
    for path, content in rendered.items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_bytes(content)
    return out


def _check(out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(
        [
            "generate",
            "--check",
            "--schema",
            str(SCHEMA_DIR),
            "--grammar",
            str(GRAMMAR),
            "--out",
            str(out),
        ]
    )
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_check_passes_on_a_current_tree(current: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (current / "python" / "bernstein_signals" / "__pycache__").mkdir()
    (
        current / "python" / "bernstein_signals" / "__pycache__" / "kinds.cpython-311.pyc"
    ).write_bytes(b"\0")
    status, output = _check(current, capsys)
    assert status == 0, output
    assert "up to date" in output


def test_check_reports_stale_missing_and_orphaned(
    current: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _tree(current)
    kinds = current / "python/bernstein_signals/kinds.py"
    kinds.write_bytes(kinds.read_bytes() + b"# edited by hand\n")
    (current / "docs/vocabulary.md").unlink()
    (current / "python/bernstein_signals/old.py").write_text(f"# {MARKER} once\n")
    (current / "notes.txt").write_text("mine\n")
    snapshot = _tree(current)

    status, output = _check(current, capsys)

    assert status == 1
    assert "stale: python/bernstein_signals/kinds.py" in output
    assert "missing: docs/vocabulary.md" in output
    assert "orphaned: python/bernstein_signals/old.py" in output
    assert "orphaned: notes.txt" in output
    assert "bernstein-signals generate" in output
    assert _tree(current) == snapshot, "--check writes nothing"

    status = main(
        ["generate", "--schema", str(SCHEMA_DIR), "--grammar", str(GRAMMAR), "--out", str(current)]
    )
    output = capsys.readouterr().out
    assert status == 0
    assert "orphaned: python/bernstein_signals/old.py (deleted)" in output
    assert "notes.txt (kept, not generated by this tool)" in output
    after = _tree(current)
    assert after == {**before, "notes.txt": b"mine\n"}, "generated files restored, foreign kept"


def test_check_prints_a_truncated_diff_of_each_stale_file(
    current: Path, rendered: dict[str, bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    kinds = current / "python/bernstein_signals/kinds.py"
    kinds.write_bytes(kinds.read_bytes() + b"# edited \x1b[31mby hand\n")
    (current / "docs/vocabulary.md").write_text("stale\n")

    status, output = _check(current, capsys)

    assert status == 1
    lines = [line.removeprefix(f"{current}: ") for line in output.splitlines()]
    at = lines.index("stale: python/bernstein_signals/kinds.py")
    assert lines[at + 1 : at + 3] == [
        "    --- python/bernstein_signals/kinds.py (found)",
        "    +++ python/bernstein_signals/kinds.py (generated)",
    ]
    # A control character in a stale file is shown escaped, never sent to the terminal.
    assert "    -# edited \\x1b[31mby hand" in lines
    assert "\x1b" not in output
    docs = rendered["docs/vocabulary.md"].decode().split("\n")
    full = list(difflib.unified_diff(["stale", ""], docs, lineterm=""))
    at = lines.index("stale: docs/vocabulary.md")
    shown = lines[at + 1 : at + 1 + DIFF_LINES]
    assert [line.removeprefix("    ") for line in shown[2:]] == full[2:DIFF_LINES]
    assert lines[at + 1 + DIFF_LINES] == f"    ... {len(full) - DIFF_LINES} more lines"
    assert lines[at + 2 + DIFF_LINES].startswith(("stale: ", "missing: ", "orphaned: "))


def test_check_shows_line_endings_in_the_diff(
    current: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that differs only in line endings shows the \\r, escaped, in its diff."""
    kinds = current / "python/bernstein_signals/kinds.py"
    kinds.write_bytes(kinds.read_bytes().replace(b"\n", b"\r\n", 1))
    status, output = _check(current, capsys)
    assert status == 1
    assert "\\x0d" in output
    assert "\r" not in output


def test_unchanged_files_are_not_rewritten(
    current: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stamps = {path: path.stat().st_mtime_ns for path in current.rglob("*") if path.is_file()}
    os.utime(current / "docs/vocabulary.md", ns=(1, 1))
    stamps[current / "docs/vocabulary.md"] = 1
    assert (
        main(
            [
                "generate",
                "--schema",
                str(SCHEMA_DIR),
                "--grammar",
                str(GRAMMAR),
                "--out",
                str(current),
            ]
        )
        == 0
    )
    assert "0 written" in capsys.readouterr().out
    assert stamps == {
        path: path.stat().st_mtime_ns for path in current.rglob("*") if path.is_file()
    }


def test_defaults_come_from_the_enclosing_project(capsys: pytest.CaptureFixture[str]) -> None:
    result = _cli("generate", "--check", cwd=ROOT / "generated" / "docs")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{GENERATED}: " in result.stdout


def test_outside_a_project_is_a_one_line_error(tmp_path: Path) -> None:
    result = _cli("generate", "--check", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "schema/vocabulary.json" in result.stderr
    assert "--schema" in result.stderr


# ---------------------------------------------------------------------------
# The README's generated regions (the keyword table)
# ---------------------------------------------------------------------------

START, END = "<!-- generated:keyword-table:start -->", "<!-- generated:keyword-table:end -->"


def test_the_readme_keyword_table_is_current(rendered: dict[str, bytes]) -> None:
    """README.md carries keywords.keyword_table() between its markers, as generate writes it."""
    text = (ROOT / README_FILE).read_text(encoding="utf-8")
    region = text.split(START + "\n", 1)[1].split("\n" + END, 1)[0]
    assert region == "\n".join(keyword_table()).rstrip("\n"), UPDATE_COMMAND
    assert f"../{README_FILE}" not in compare(GENERATED, rendered).stale
    docs = rendered["docs/vocabulary.md"].decode()
    assert region in docs, "the reference page and the README show one table"


@pytest.fixture
def project(tmp_path: Path, vocabulary: tuple[Path, Path], current: Path) -> Path:
    """A project folder: schema/, grammar/, a current generated/ and a README with a region."""
    assert current.parent == tmp_path == vocabulary[0].parent
    (tmp_path / README_FILE).write_bytes(
        f"# mine\n\ntext before \u00e9\r\n{START}\nold table\n{END}\n\ntext after\n".encode()
    )
    return tmp_path


def _project_generate(project: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return _cli("generate", *options, cwd=project / "generated")


def test_generate_rewrites_only_the_readme_region(project: Path) -> None:
    readme = project / README_FILE
    before = readme.read_bytes()

    checked = _project_generate(project, "--check")
    assert checked.returncode == 1, checked.stderr
    assert f"{project / 'generated'}: stale: ../README.md" in checked.stdout
    assert "-old table" in checked.stdout
    assert "+## Schema keywords" in checked.stdout
    assert readme.read_bytes() == before, "--check writes nothing"

    written = _project_generate(project)
    assert written.returncode == 0, written.stderr
    assert "updated: ../README.md" in written.stdout
    table = "\n".join(readme_regions().values())
    assert readme.read_bytes() == before.replace(b"old table", table.encode())
    assert _project_generate(project, "--check").returncode == 0
    assert not list(project.glob(".README.md.*")), "no temporary left behind"


@pytest.mark.parametrize(
    "broken",
    [
        f"{START}\nno end\n",
        f"{END}\n{START}\n",
        f"{START}\n{START}\n{END}\n",
        f"{START}\n{END}\n{START}\n{END}\n",
        "<!-- generated:no-such-region:start -->\n<!-- generated:no-such-region:end -->\n",
    ],
)
def test_readme_markers_that_do_not_pair_up_are_one_line_exit_2(project: Path, broken: str) -> None:
    readme = project / README_FILE
    readme.write_text(f"# mine\n{broken}tail\n")
    stale = project / "generated" / "docs" / "vocabulary.md"
    stale.write_text("stale\n")
    for options in (("--check",), ()):
        result = _project_generate(project, *options)
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1, result.stderr
        assert str(readme) in result.stderr
    assert readme.read_text() == f"# mine\n{broken}tail\n"
    assert stale.read_text() == "stale\n", "nothing is written before the refusal"


def test_a_readme_without_markers_or_outside_a_project_is_never_touched(
    project: Path, tmp_path_factory: pytest.TempPathFactory, rendered: dict[str, bytes]
) -> None:
    readme = project / README_FILE
    readme.write_text(f"# mine\n{START.replace('start', 'begin')}\n")
    checked = _project_generate(project, "--check")
    assert checked.returncode in (0, 1), checked.stderr
    assert README_FILE not in checked.stdout
    assert _project_generate(project).returncode == 0
    assert readme.read_text() == f"# mine\n{START.replace('start', 'begin')}\n"
    # --out into a folder beside a README that is not a project's: never read.
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / README_FILE).write_text(f"{START}\nx\n{END}\n")
    assert compare(elsewhere / "generated", rendered).stale == ()
    result = _cli(
        "generate",
        "--schema",
        str(SCHEMA_DIR),
        "--grammar",
        str(GRAMMAR),
        "--out",
        str(elsewhere / "generated"),
    )
    assert result.returncode == 0, result.stderr
    assert (elsewhere / README_FILE).read_text() == f"{START}\nx\n{END}\n"


def test_a_symlinked_readme_is_never_written_through(project: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.md"
    victim.write_text(f"{START}\nx\n{END}\n")
    (project / README_FILE).unlink()
    (project / README_FILE).symlink_to(victim)
    assert _project_generate(project).returncode == 0
    assert victim.read_text() == f"{START}\nx\n{END}\n"
    assert (project / README_FILE).is_symlink()


# ---------------------------------------------------------------------------
# Adding a kind is one schema file and one generate
# ---------------------------------------------------------------------------

HEARTBEAT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.test/heartbeat.schema.json",
    "title": "HEARTBEAT",
    "description": "The adapter is alive and working; it carries progress for dashboards.",
    "type": "object",
    "x-bernstein-kind": "HEARTBEAT",
    "x-bernstein-terminal": False,
    "required": ["percent"],
    "properties": {
        "percent": {"description": "Share of the work done, in percent.", "type": "integer"},
        "note": {"description": "What the adapter is doing now.", "type": ["string", "null"]},
    },
    "examples": [{"percent": 50}, {"percent": 100, "note": "wrapping up"}],
}


def test_adding_a_kind_is_one_schema_file(tmp_path: Path, vocabulary: tuple[Path, Path]) -> None:
    schema, grammar = vocabulary
    (schema / "heartbeat.schema.json").write_text(json.dumps(HEARTBEAT, indent=2))
    out = tmp_path / "out"
    result = _cli("generate", "--schema", str(schema), "--grammar", str(grammar), "--out", str(out))
    assert result.returncode == 0, result.stderr

    probe = (
        "import typing, bernstein_signals as b\n"
        "assert b.SignalKind.HEARTBEAT == 'HEARTBEAT'\n"
        "assert b.SignalKind.HEARTBEAT not in b.TERMINAL_SIGNAL_KINDS\n"
        "hints = typing.get_type_hints(b.HeartbeatPayload)\n"
        "assert set(hints) == {'percent', 'note'}, hints\n"
        "assert 'HeartbeatPayload' in b.__all__\n"
        "print('ok')\n"
    )
    imported = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "PYTHONPATH": str(out / "python")},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert imported.stdout == "ok\n", imported.stderr
    docs = (out / "docs/vocabulary.md").read_text()
    assert '| `HEARTBEAT` | no | `{"percent": int, "note"?: str \\| null, ...}` |' in docs
    assert "The adapter is alive and working" in docs

    shell = subprocess.run(
        [
            "sh",
            "-c",
            '. "$1" && bernstein_heartbeat 40 --note "half way"',
            "sh",
            str(out / "shell" / "bernstein-signals.sh"),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert shell.stdout == 'BERNSTEIN:HEARTBEAT {"note":"half way","percent":40}\n', shell.stderr

    typed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "bernstein_signals"],
        env={**os.environ, "MYPYPATH": str(out / "python")},
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert typed.returncode == 0, typed.stdout


# ---------------------------------------------------------------------------
# Bad sources: one line naming the file and the rule, exit 2, output untouched
# ---------------------------------------------------------------------------

Mutation = Callable[[Path, Path], object]


def _edit_schema(name: str, edit: Callable[[dict[str, Any]], object]) -> Mutation:
    def mutate(schema: Path, grammar: Path) -> None:
        path = schema / name
        document = json.loads(path.read_text())
        edit(document)
        path.write_text(json.dumps(document))

    return mutate


def _new_kind(kind: str, file_name: str | None = None) -> Mutation:
    def mutate(schema: Path, grammar: Path) -> None:
        document = {**HEARTBEAT, "title": kind, "x-bernstein-kind": kind}
        (schema / (file_name or f"{kind.lower()}.schema.json")).write_text(json.dumps(document))

    return mutate


def _write(relative: str, text: str) -> Mutation:
    def mutate(schema: Path, grammar: Path) -> None:
        (schema.parent / relative).write_text(text)

    return mutate


BAD_SOURCES: dict[str, tuple[Mutation, str, str]] = {
    "invalid-schema": (
        _edit_schema("question.schema.json", lambda d: d.update(type=42)),
        "question.schema.json",
        "[metaschema]",
    ),
    "bad-min-length": (
        _edit_schema(
            "blocked.schema.json",
            lambda d: d["properties"]["reason"].update(minLength=-1),
        ),
        "blocked.schema.json",
        "[metaschema]",
    ),
    "example-fails": (
        _edit_schema("question.schema.json", lambda d: d["examples"].append({"id": "x"})),
        "question.schema.json",
        "[examples]",
    ),
    "kind-not-in-grammar": (
        _new_kind("heart-beat", "heart-beat.schema.json"),
        "heart-beat.schema.json",
        "[kind-grammar]",
    ),
    "kind-lowercase": (
        _new_kind("Heartbeat", "heartbeat.schema.json"),
        "heartbeat.schema.json",
        "[kind-grammar]",
    ),
    "kind-run": (_new_kind("RUN"), "run.schema.json", "[kind-reserved]"),
    "kind-ask": (_new_kind("ASK"), "ask.schema.json", "[kind-reserved]"),
    "kind-emit": (_new_kind("EMIT"), "emit.schema.json", "[kind-reserved]"),
    "kind-guard": (_new_kind("GUARD"), "guard.schema.json", "[kind-reserved]"),
    "kind-file-name": (_new_kind("HEARTBEAT", "pulse.schema.json"), "pulse.schema.json", "[kind]"),
    "not-json": (
        _write("schema/failed.schema.json", '{\n  "type": "object",\n}'),
        "failed.schema.json:3:1",
        "[json]",
    ),
    "duplicate-key": (
        _write("schema/failed.schema.json", '{"type": "object", "type": "object"}'),
        "failed.schema.json",
        "[json]",
    ),
    "missing-description": (
        _edit_schema("blocked.schema.json", lambda d: d["properties"]["hint"].pop("description")),
        "blocked.schema.json",
        "[description]",
    ),
    "property-keyword": (
        _edit_schema(
            "failed.schema.json",
            lambda d: d["properties"].update({"class": {"type": "string", "description": "x"}}),
        ),
        "failed.schema.json",
        "[property-name]",
    ),
    "required-undefined": (
        _edit_schema("blocked.schema.json", lambda d: d.update(required=["reason", "nope"])),
        "blocked.schema.json",
        "[required]",
    ),
    "payload-not-object": (
        _edit_schema("completed.schema.json", lambda d: d.update(type="array")),
        "completed.schema.json",
        "[payload-object]",
    ),
    "bad-version": (
        _write("schema/vocabulary.json", '{"name": "x", "version": "1.0", "description": "d"}'),
        "vocabulary.json",
        "[vocabulary]",
    ),
    "stray-file": (_write("schema/notes.json", "{}"), "notes.json", "[layout]"),
    "no-reply": (lambda s, g: (s / "reply.schema.json").unlink(), "reply.schema.json", "[reply]"),
    "grammar-broken": (
        _write("grammar/signal.lark", "start: PREFIX (\n"),
        "signal.lark",
        "[grammar]",
    ),
    "grammar-no-prefix": (
        _write("grammar/signal.lark", 'start: "X:" KIND\nKIND: /[A-Z]+/\n'),
        "signal.lark",
        "[grammar]",
    ),
    "pattern-re-cannot-compile": (
        _edit_schema(
            "blocked.schema.json",
            lambda d: d["properties"]["reason"].update(pattern="a{99999999999}"),
        ),
        "blocked.schema.json",
        "[metaschema]",
    ),
    "ref-to-nowhere": (
        _edit_schema(
            "blocked.schema.json", lambda d: d["properties"]["reason"].update({"$ref": "#/nowhere"})
        ),
        "blocked.schema.json",
        "[examples]",
    ),
    "grammar-huge-repetition": (
        lambda s, g: g.write_text(
            g.read_text().replace("[A-Z0-9_]*/", "[A-Z0-9_]{0,99999999999}/")
        ),
        "signal.lark",
        "[grammar]",
    ),
    "grammar-missing-import": (
        lambda s, g: g.write_text(g.read_text() + "\n%import .nowhere.X\n"),
        "signal.lark",
        "[grammar]",
    ),
    "grammar-narrower-kind": (
        lambda s, g: g.write_text(
            g.read_text().replace("KIND: /[A-Z][A-Z0-9_]*/", "KIND: /[A-Z]+/")
        ),
        "plan_draft.schema.json",
        "[kind-grammar]",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_SOURCES))
def test_bad_source_is_one_line_exit_2_and_output_untouched(
    case: str, vocabulary: tuple[Path, Path], current: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema, grammar = vocabulary
    mutate, file_name, rule = BAD_SOURCES[case]
    mutate(schema, grammar)
    before = _tree(current)

    status = main(
        ["generate", "--schema", str(schema), "--grammar", str(grammar), "--out", str(current)]
    )

    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("bernstein-signals: error: ")
    assert file_name in captured.err, captured.err
    assert rule in captured.err, captured.err
    assert "Traceback" not in captured.err
    assert _tree(current) == before


def test_generate_does_not_need_the_binding_it_rewrites(tmp_path: Path) -> None:
    """A stale or broken generated binding must never stop its own regeneration."""
    broken = tmp_path / "broken" / "bernstein_signals"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('a broken binding')\n")
    result = _cli("generate", "--check", env={"PYTHONPATH": str(broken.parent)})
    assert result.returncode == 0, result.stderr
    assert "up to date" in result.stdout


# ---------------------------------------------------------------------------
# Symlinks in the output folder are never followed (issue 10, item 4)
# ---------------------------------------------------------------------------

VICTIM = b"the victim's own bytes\n"


def _generate(out: Path, *options: str) -> list[str]:
    return [
        "generate",
        *options,
        "--schema",
        str(SCHEMA_DIR),
        "--grammar",
        str(GRAMMAR),
        "--out",
        str(out),
    ]


def _victims(tmp_path: Path) -> tuple[Path, Path]:
    """A victim file and a victim folder outside the output folder, with generated-looking bytes."""
    victim = tmp_path / "victim.txt"
    victim.write_bytes(VICTIM)
    folder = tmp_path / "victim-folder"
    (folder / "bernstein_signals").mkdir(parents=True)
    (folder / "bernstein_signals" / "old.py").write_text(f"# {MARKER}\n")
    (folder / "kept.txt").write_bytes(VICTIM)
    return victim, folder


def _untouched(victim: Path, folder: Path) -> None:
    assert victim.read_bytes() == VICTIM
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")) == [
        "bernstein_signals",
        "bernstein_signals/old.py",
        "kept.txt",
    ]
    assert (folder / "kept.txt").read_bytes() == VICTIM


def _relink(link: Path, target: Path, *, tree: bool = False) -> None:
    if tree:
        shutil.rmtree(link)
    elif link.exists() or link.is_symlink():
        link.unlink()
    link.symlink_to(target)


def _link_target(out: Path, victim: Path, folder: Path) -> None:
    _relink(out / "docs/vocabulary.md", victim)


def _link_dangling_target(out: Path, victim: Path, folder: Path) -> None:
    _relink(out / "docs/vocabulary.md", folder / "new.md")  # would create a file in the victim


def _link_old_temporary(out: Path, victim: Path, folder: Path) -> None:
    (out / "docs/vocabulary.md").write_text("stale\n")
    _relink(out / "docs/.vocabulary.md.partial", victim)


def _link_subfolder(out: Path, victim: Path, folder: Path) -> None:
    _relink(out / "python", folder, tree=True)


def _link_output_folder(out: Path, victim: Path, folder: Path) -> None:
    _relink(out, folder, tree=True)


def _link_orphan_file(out: Path, victim: Path, folder: Path) -> None:
    _relink(out / "python/bernstein_signals/old.py", folder / "bernstein_signals/old.py")


def _link_orphan_folder(out: Path, victim: Path, folder: Path) -> None:
    _relink(out / "extra", folder / "bernstein_signals")


def _link_cache_folder(out: Path, victim: Path, folder: Path) -> None:
    (out / "gone").mkdir()
    (out / "gone/old.py").write_text(f"# {MARKER}\n")
    _relink(out / "gone/__pycache__", folder)


# Each places links where generate writes or deletes; True: generate must refuse (exit 2).
LINKS: dict[str, tuple[Callable[[Path, Path, Path], None], bool]] = {
    "target file": (_link_target, True),
    "dangling target": (_link_dangling_target, True),
    "temporary's old fixed name": (_link_old_temporary, False),
    "subfolder": (_link_subfolder, True),
    "output folder": (_link_output_folder, True),
    "orphan file": (_link_orphan_file, False),
    "orphan folder": (_link_orphan_folder, False),
    "cache folder": (_link_cache_folder, False),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", sorted(LINKS))
def test_generate_never_writes_or_deletes_through_a_symlink(
    case: str, current: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim, folder = _victims(tmp_path)
    place, refused = LINKS[case]
    stale = current / "shell/bernstein-signals.sh"
    if case != "output folder":
        stale.write_bytes(b"# stale\n")
    place(current, victim, folder)

    check = main(_generate(current, "--check"))
    checked = capsys.readouterr()
    status = main(_generate(current))
    captured = capsys.readouterr()

    _untouched(victim, folder)
    assert "Traceback" not in checked.err + captured.err
    if refused:
        assert check in (1, 2)
        assert status == 2, captured.out + captured.err
        assert captured.out == ""
        [line] = captured.err.splitlines()
        assert line.startswith("bernstein-signals: error: ")
        assert "is a symlink" in line
        if case != "output folder":
            assert stale.read_bytes() == b"# stale\n", "nothing is written before the refusal"
    else:
        assert check == 1
        assert status == 0, captured.err
        assert stale.read_bytes() != b"# stale\n"
        assert main(_generate(current, "--check")) in (0, 1)
        # Every generated file is now a regular file, and links are kept as they are.
        for link in [p for p in current.rglob("*") if p.is_symlink()]:
            assert "kept, not generated by this tool" in captured.out, link
    assert not list(tmp_path.glob("victim*.partial")), "no temporary beside the victims"


@pytest.mark.timeout(60)
def test_check_and_generate_do_not_block_on_a_fifo(
    current: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = current / "docs/vocabulary.md"
    target.unlink()
    os.mkfifo(target)
    (current / "orphan.fifo").parent.mkdir(exist_ok=True)
    os.mkfifo(current / "orphan.fifo")
    assert main(_generate(current, "--check")) == 1
    assert "stale: docs/vocabulary.md" in capsys.readouterr().out
    assert main(_generate(current)) == 0
    assert "orphan.fifo (kept, not generated by this tool)" in capsys.readouterr().out
    assert target.is_file()
    assert not target.is_symlink()
    assert main(_generate(current, "--check")) == 1  # only the foreign FIFO is left


@pytest.mark.parametrize("link", ["question.schema.json", "catalog.json", "."])
def test_schema_catalog_never_writes_through_a_symlink(
    link: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`schema --catalog` writes through the same never-follow writer as generate."""
    victim, folder = _victims(tmp_path)
    out = tmp_path / "catalog"
    out.mkdir()
    _relink(out / link if link != "." else out, victim if link != "." else folder, tree=link == ".")
    status = main(["schema", "--catalog", str(out)])
    captured = capsys.readouterr()
    _untouched(victim, folder)
    assert status == 2
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert "is a symlink" in line
    assert sorted(p.name for p in out.iterdir()) == (
        [link] if link != "." else ["bernstein_signals", "kept.txt"]
    )


def test_schema_catalog_writes_every_schema_and_the_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a" / "catalog"
    assert main(["schema", "--catalog", str(out)]) == 0
    assert capsys.readouterr().out == f"{out / 'catalog.json'}\n"
    catalog = json.loads((out / "catalog.json").read_text())
    names = sorted(entry["url"].removeprefix("./") for entry in catalog["schemas"])
    assert names == sorted(p.name for p in out.iterdir() if p.name != "catalog.json")
    for name in names:
        assert (out / name).read_bytes() == (SCHEMA_DIR / name).read_bytes()
