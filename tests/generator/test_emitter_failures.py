"""``generate`` exits only 0, 1 or 2: an emitter that fails is one line naming it, nothing written.

Issue 11 §5 and issue 13: a bug inside an emitter (any exception) becomes one
error line naming the target and the exception, with exit status 2 and the
output folder untouched; every emitter refusal is a SourceError naming the
source file and the target.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals_toolkit.generator.emitters import python
from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.pipeline import render_sources
from bernstein_signals_toolkit.toolkit_errors import SourceError

ROOT = Path(__file__).resolve().parents[2]
ONE_LINE = re.compile(r"bernstein-signals: error: [^\n]+\n")

_DRIVER = """
import sys
from bernstein_signals_toolkit import cli
from bernstein_signals_toolkit.generator import emitters
from bernstein_signals_toolkit.generator.emitters import _python_constructors
from bernstein_signals_toolkit.toolkit_errors import SourceError, ToolkitError

target, raised = sys.argv[1], sys.argv[2]
exceptions = {
    "ZeroDivisionError": lambda: 1 / 0,
    "KeyError": lambda: {}["missing key"],
    "RecursionError": lambda: (_ for _ in ()).throw(RecursionError()),
    "SyntaxError": lambda: compile("def (", "<generated>", "exec"),
    "ToolkitError": lambda: (_ for _ in ()).throw(ToolkitError("a tool it runs failed")),
    "SourceError": lambda: (_ for _ in ()).throw(SourceError("x.schema.json", "rule", "no")),
}

def broken(*args, **kwargs):
    exceptions[raised]()

if target == "python-deep":  # deep inside the emitter, not at its door
    _python_constructors.constructors_module = broken
    import bernstein_signals_toolkit.generator.emitters.python as python
    python.constructors_module = broken
else:
    emitters.EMITTERS[target] = broken
sys.exit(cli.main(["generate", *sys.argv[3:]]))
"""


def _generate(
    tmp_path: Path, target: str, raised: str, *options: str
) -> subprocess.CompletedProcess[str]:
    out = tmp_path / "out"
    return subprocess.run(
        [
            sys.executable,
            "-c",
            _DRIVER,
            target,
            raised,
            *options,
            "--schema",
            str(ROOT / "schema"),
            "--grammar",
            str(ROOT / "grammar" / "signal.lark"),
            "--out",
            str(out),
        ],
        cwd=tmp_path,
        env={**os.environ},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("target", "raised", "shown"),
    [
        ("docs", "ZeroDivisionError", "ZeroDivisionError: division by zero"),
        ("shell", "KeyError", "KeyError: 'missing key'"),
        ("python-deep", "RecursionError", "RecursionError"),
        ("python-deep", "SyntaxError", "SyntaxError: "),
        ("python", "ToolkitError", "a tool it runs failed"),
        ("shell", "SourceError", "x.schema.json: [rule] no (target shell)"),
    ],
)
def test_an_emitter_that_raises_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, target: str, raised: str, shown: str
) -> None:
    # A stale tree: generate would rewrite it, so an early write would show.
    out = tmp_path / "out"
    shutil.copytree(ROOT / "generated", out, ignore=shutil.ignore_patterns("__pycache__"))
    (out / "docs" / "vocabulary.md").write_text("stale\n")
    before = _tree(out)
    name = target.removesuffix("-deep")

    for options in ((), ("--check",)):
        result = _generate(tmp_path, target, raised, *options)
        assert result.returncode == 2, result.stderr
        assert result.stdout == ""
        assert ONE_LINE.fullmatch(result.stderr), result.stderr
        assert "Traceback" not in result.stderr
        assert shown in result.stderr
        if raised != "SourceError":
            assert f"the {name} emitter failed: " in result.stderr
        assert _tree(out) == before


def _sources(tmp_path: Path, file_name: str, edit: Any) -> tuple[Path, Path]:
    """A copy of the sources with ``file_name`` edited: a schema (a dict) or the grammar (text)."""
    schema = tmp_path / "schema"
    shutil.copytree(ROOT / "schema", schema)
    grammar = tmp_path / "signal.lark"
    shutil.copy(ROOT / "grammar" / "signal.lark", grammar)
    if file_name == grammar.name:
        grammar.write_text(edit(grammar.read_text()))
    else:
        document = json.loads((schema / file_name).read_text())
        edit(document)
        (schema / file_name).write_text(json.dumps(document))
    return schema, grammar


def _add_property(schema: dict[str, Any], name: str, part: dict[str, Any]) -> None:
    schema["properties"][name] = {"description": "A field.", **part}


REFUSALS: dict[str, tuple[str, Any, str, str]] = {
    # case: (file, edit, target that refuses, rule)
    "python keyword": (
        "question.schema.json",
        lambda d: _add_property(d, "note", {"type": "string", "unevaluatedItems": False}),
        "python",
        "keyword",
    ),
    "python message": (
        "blocked.schema.json",
        lambda d: _add_property(d, "note", {"type": "string", "x-bernstein-message": 3}),
        "python",
        "keyword",
    ),
    "python name": (
        "failed.schema.json",
        lambda d: _add_property(d, "extras", {"type": "string"}),
        "python",
        "python-name",
    ),
    "shell NUL": (
        "failed.schema.json",
        lambda d: d.update(description="a NUL \0 here"),
        "shell",
        "shell",
    ),
    "shell KIND pattern": (
        "signal.lark",
        lambda text: text.replace("KIND: /[A-Z][A-Z0-9_]*/", "KIND: /[A-Z][A-Z0-9_-]*/"),
        "shell",
        "shell",
    ),
}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_every_emitter_refusal_names_the_source_file_and_the_target(
    tmp_path: Path, case: str
) -> None:
    file_name, edit, target, rule = REFUSALS[case]
    schema, grammar = _sources(tmp_path, file_name, edit)
    load_vocabulary(schema, grammar)  # the source is fine for every target but one
    with pytest.raises(SourceError) as refused:
        render_sources(schema, grammar, [target])
    message = str(refused.value)
    assert refused.value.rule == rule, message
    assert message.startswith(f"{file_name}: [{rule}] "), message
    assert message.endswith(f"(target {target})"), message
    assert "\n" not in message


def test_a_name_bound_twice_in_generated_code_names_the_kinds_schema() -> None:
    """The last guard of the Python emitter: it names the source file, not the generated one."""
    vocabulary = load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")
    twice = "def question() -> None: ...\ndef question() -> None: ...\n"
    with pytest.raises(SourceError) as refused:
        python._parses(vocabulary, {"constructors": twice}, frozenset({"constructors"}))
    message = str(refused.value)
    assert message.startswith("question.schema.json: [python-name] "), message
    assert message.endswith("(target python)"), message
