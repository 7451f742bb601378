"""CONTRIBUTING.md cannot rot: everything it names exists (issue 13, "Write the recipes down").

Checked in the guide's code spans and code blocks: every repository path (a
span with a ``/`` or a file suffix; ``<placeholder>`` and ``*`` parts must match
at least one file), every test it cites down to ``file.py::test_name``, every
``bernstein-signals COMMAND`` (a registered command), every ``make TARGET``
(a Makefile target). Anywhere in the text: every diagnostic code (``BS101``)
is in the code table and every code family (``BS5xx``) holds a code. The map
must name every hand-written module of the toolkit, so a module added, moved
or renamed fails here until the guide follows. Every ``sh`` block runs, as
README.md's do, in a copy of the tracked files (committed there, so that
``git:HEAD`` names them) with the toolkit first on ``PATH``: it must exit 0.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bernstein_signals_toolkit.tools.commands import COMMANDS
from bernstein_signals_toolkit.tools.validate import CODES
from project_support import project_copy
from test_readme import SHELL_LANGUAGES, fenced_blocks

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "CONTRIBUTING.md"
PACKAGE = ROOT / "codegen/bernstein_signals_toolkit"

_SPAN = re.compile(r"`([^`\n]+)`")
_SUFFIX = re.compile(r"\.(py|sh|json|md|toml|lark|yaml|txt|log|expected|line|cfg|js)$")
_PLACEHOLDER = re.compile(r"<[^<>/]+>")
_COMMAND = re.compile(r"(?<![\w-])bernstein-signals\s+([a-z][\w-]*)")
_MAKE = re.compile(r"(?<![\w/-])make\s+([a-z][\w-]*)")
_CODE = re.compile(r"\bBS(\d{3})\b")
_FAMILY = re.compile(r"\bBS(\d)xx\b")
_MAKE_TARGET = re.compile(r"^([a-z][\w-]*):", re.MULTILINE)
_TEST_DEF = re.compile(r"^(?:async )?def (test_\w+)\(", re.MULTILINE)
_TEMPLATES = PACKAGE / "generator" / "binding_runtime"


def _spans_and_blocks(text: str) -> tuple[list[str], list[str]]:
    """The code spans outside fenced blocks, and the bodies of the blocks."""
    blocks = fenced_blocks(text)
    inside: set[int] = set()
    for block in blocks:
        inside.update(range(block.line, block.line + block.code.count("\n") + 3))
    lines = text.splitlines()
    outside = "\n".join(line for number, line in enumerate(lines, 1) if number not in inside)
    return _SPAN.findall(outside), [block.code for block in blocks]


def _wrapped_spans(text: str) -> list[str]:
    """A span broken over two lines escapes every check: each line must close its spans."""
    starts = {block.line for block in fenced_blocks(text)}
    skipped: set[int] = set()
    for block in fenced_blocks(text):
        skipped.update(range(block.line, block.line + block.code.count("\n") + 3))
    return [
        f"a code span wraps at line {number}"
        for number, line in enumerate(text.splitlines(), 1)
        if number not in skipped | starts and line.count("`") % 2
    ]


def _is_path(span: str) -> bool:
    if any(c.isspace() for c in span) or span.startswith(("-", "http", "$", ".venv")):
        return False
    head = span.split("::", 1)[0]
    if ":" in head:
        return False
    return "/" in head or bool(_SUFFIX.search(head)) or (ROOT / head).exists()


def _path_problem(span: str, root: Path) -> str | None:
    path, _, test = span.partition("::")
    pattern = _PLACEHOLDER.sub("*", path.rstrip("/"))
    if pattern != path.rstrip("/") or "*" in pattern:
        return None if any(root.glob(pattern)) else f"no file matches {span}"
    target = root / path
    if not target.exists():
        return f"{path} does not exist"
    if test:
        defined = _TEST_DEF.findall(target.read_text(encoding="utf-8"))
        if test not in defined:
            return f"{path} has no test {test}"
    return None


def problems(text: str, root: Path = ROOT) -> list[str]:
    """Everything the guide names that does not exist, one line each."""
    found: list[str] = []
    makefile = (root / "Makefile").read_text(encoding="utf-8")
    targets = set(_MAKE_TARGET.findall(makefile))
    found += _wrapped_spans(text)
    spans, blocks = _spans_and_blocks(text)
    for span in filter(_is_path, spans):
        problem = _path_problem(span, root)
        if problem:
            found.append(problem)
    for piece in [*spans, *blocks]:
        found += [f"no command {c!r}" for c in _COMMAND.findall(piece) if c not in COMMANDS]
        found += [f"no make target {t!r}" for t in _MAKE.findall(piece) if t not in targets]
    found += [f"no code BS{n}" for n in _CODE.findall(text) if f"BS{n}" not in CODES]
    families = {code[2] for code in CODES}
    found += [f"no code in BS{n}xx" for n in _FAMILY.findall(text) if n not in families]
    for block in fenced_blocks(text):
        if block.language in SHELL_LANGUAGES:
            checked = subprocess.run(
                [SHELL_LANGUAGES[block.language], "-n", "-c", block.code],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                check=False,
                timeout=60,
            )
            if checked.returncode != 0:
                found.append(f"the block at line {block.line} is not shell: {checked.stderr}")
    return found


def _modules() -> list[str]:
    """Every hand-written module of the toolkit; the templates are named as folders."""
    return sorted(
        path.relative_to(ROOT).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py" and _TEMPLATES not in path.parents
    )


def unmapped(text: str, modules: list[str]) -> list[str]:
    """The modules the guide does not name in a code span."""
    spans = set(_spans_and_blocks(text)[0])
    return [name for name in modules if name not in spans]


def test_everything_the_guide_names_exists() -> None:
    assert problems(GUIDE.read_text(encoding="utf-8")) == []


def test_the_map_names_every_module() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert len(_modules()) > 40
    assert unmapped(text, _modules()) == [], "CONTRIBUTING.md's map misses these modules"
    spans = set(_spans_and_blocks(text)[0])
    for folder in (
        "generator/binding_runtime/python/",
        "generator/binding_runtime/shell/library/",
    ):
        assert f"codegen/bernstein_signals_toolkit/{folder}" in spans


def test_a_module_the_map_misses_is_caught() -> None:
    named = "The map: `codegen/bernstein_signals_toolkit/generator/load.py`."
    modules = [
        "codegen/bernstein_signals_toolkit/generator/load.py",
        "codegen/bernstein_signals_toolkit/moved_away.py",
    ]
    assert unmapped(named, modules) == ["codegen/bernstein_signals_toolkit/moved_away.py"]


def test_the_guide_has_every_recipe() -> None:
    headings = re.findall(r"^### (.+)$", GUIDE.read_text(encoding="utf-8"), re.MULTILINE)
    recipes = [
        "Add a kind",
        "Add a schema keyword to the compilers",
        "Add a diagnostic code",
        "Change the shell calling convention",
        "Add a binding target",
        "Add a CLI command",
        "Guard a check against superlinear time",
        "Replay a seed of the random pass",
        "Cut a release",
    ]
    assert [heading for heading in headings if heading in recipes] == recipes


@pytest.mark.parametrize(
    ("sample", "problem"),
    [
        (
            "Edit `codegen/bernstein_signals_toolkit/gone.py`.",
            "codegen/bernstein_signals_toolkit/gone.py does not exist",
        ),
        ("See `schema/<kind>.schema.yaml`.", "no file matches schema/<kind>.schema.yaml"),
        ("Run `tests/test_nothing_here.py`.", "tests/test_nothing_here.py does not exist"),
        (
            "Proof: `tests/tools/validate/test_validate.py::test_that_was_renamed`.",
            "tests/tools/validate/test_validate.py has no test test_that_was_renamed",
        ),
        ("Run `bernstein-signals frobnicate --all`.", "no command 'frobnicate'"),
        ("```sh\nbernstein-signals generat\n```\n", "no command 'generat'"),
        ("Run `.venv/bin/bernstein-signals lint`.", "no command 'lint'"),
        ("Run `make deploy`.", "no make target 'deploy'"),
        ("It reports BS999.", "no code BS999"),
        ("Text\nSee `codegen/bernstein_signals_toolkit/", "a code span wraps at line 2"),
        ("Codes BS9xx concern the weather.", "no code in BS9xx"),
        ("```sh\nif then\n```\n", "the block at line 1 is not shell"),
        ("A folder: `benchmarks/missing/`.", "benchmarks/missing/ does not exist"),
    ],
)
def test_a_broken_guide_is_caught(sample: str, problem: str) -> None:
    found = problems(sample)
    assert len(found) == 1, found
    assert found[0].startswith(problem), found


def test_a_sound_sample_passes() -> None:
    sample = (
        "Edit `codegen/bernstein_signals_toolkit/generator/keywords.py`"
        " and `schema/<kind>.schema.json`,"
        " run `bernstein-signals generate --check` and `make test`; proof:"
        " `tests/tools/validate/test_validate.py::test_log_corpus`, codes BS101 and BS5xx.\n"
        "```sh\nbernstein-signals diff git:HEAD schema\n```\n"
    )
    assert problems(sample) == []


def _guide_shell_blocks() -> list[tuple[int, str, str]]:
    blocks = fenced_blocks(GUIDE.read_text(encoding="utf-8"))
    return [(b.line, b.language, b.code) for b in blocks if b.language in SHELL_LANGUAGES]


def _git(project: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=guide", "-c", "user.email=guide@example.invalid", *args],
        cwd=project,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
        timeout=120,
    )


def test_the_guide_has_shell_blocks() -> None:
    assert len(_guide_shell_blocks()) >= 3


def _run_block(language: str, code: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """Run a block as a contributor would: in the project, under set -e, the toolkit on PATH."""
    return subprocess.run(
        [SHELL_LANGUAGES[language], "-c", f"set -e\n{code}\n"],
        cwd=folder,
        env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )


@pytest.mark.timeout(300)
@pytest.mark.parametrize("block", _guide_shell_blocks(), ids=lambda block: f"line{block[0]}")
def test_every_shell_block_runs(block: tuple[int, str, str], tmp_path: Path) -> None:
    line, language, code = block
    project = project_copy(tmp_path / "project")
    _git(project, "init", "--quiet")
    _git(project, "add", "--all")
    _git(project, "commit", "--quiet", "--message", "the guide's baseline")
    result = _run_block(language, code, project)
    assert result.returncode == 0, (
        f"CONTRIBUTING.md:{line} exits {result.returncode}\n{result.stdout}\n{result.stderr}"
    )


@pytest.mark.timeout(120)
@pytest.mark.parametrize("code", ["bernstein-signals generat", "true\nfalse\ntrue"])
def test_a_failing_block_fails(code: str, tmp_path: Path) -> None:
    assert _run_block("sh", code, tmp_path).returncode != 0
