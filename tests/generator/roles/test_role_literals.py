"""Guard: the runtime templates never spell a role-bearing field's name; they read the constants.

A literal ``"question"`` in a template is the defect issue 12 §2 names: rename
the field in the schema and that runtime silently stops working. The scan reads
every string constant of every Python template except docstrings.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from generator.roles.roles_support import ROOT, role_fields

BINDING_RUNTIME = ROOT / "codegen/bernstein_signals_toolkit/generator/binding_runtime/python"
SHELL_TEMPLATES = sorted((BINDING_RUNTIME.parent / "shell" / "library").glob("*.sh"))
ROLE_FIELD_NAMES = frozenset(field for _, _, field in role_fields())

NATIVE_NAMES: dict[str, frozenset[str]] = {
    # The native CLIs' own event members (Claude's AskUserQuestion input and
    # tool_use blocks, Codex's request_user_input): their protocol, not ours.
    "_native_claude.py": frozenset({"question", "options", "id", "path"}),
    "_native_codex.py": frozenset({"question", "options", "id"}),
    # _first_question reads both CLIs' lists of questions
    "_native_support.py": frozenset({"question", "options"}),
}
"""Per template, names it may spell because they belong to another protocol."""


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def role_literals(source: str, allowed: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """(line, name) of each string constant naming a role-bearing field, docstrings aside."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and node.value in ROLE_FIELD_NAMES - allowed
    )


def test_the_scan_finds_the_defect_and_ignores_docstrings() -> None:
    assert role_literals('"""Reads "question"."""\nx = {"question": 1}\ny = p["in_reply_to"]') == [
        (2, "question"),
        (3, "in_reply_to"),
    ]
    assert role_literals('def f():\n    """question"""\n    return "reason"\n') == [(3, "reason")]


@pytest.mark.parametrize(
    "template", sorted(BINDING_RUNTIME.glob("*.py")), ids=lambda path: path.name
)
def test_no_template_spells_a_role_field(template: Path) -> None:
    found = role_literals(
        template.read_text(encoding="utf-8"), NATIVE_NAMES.get(template.name, frozenset())
    )
    assert found == [], f"{template.name}: read these through bernstein_signals.fields"


def shell_role_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of each role field the shell code spells as a key, an option or a case.

    Comment lines are skipped; prose in help and messages ("a reply to question")
    is not a key. A key is ``"name"`` (escaped or not), an option ``--name``, a
    case branch ``name)`` and a word of a quoted list ``' name '``.
    """
    names = "|".join(sorted(map(re.escape, ROLE_FIELD_NAMES)))
    spelled = re.compile(
        rf'\\?"(?:{names})\\?"|--(?:{names})\b|^\s*(?:{names})\)|[\' ](?:{names}) [\' ]'
    )
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        found += [(number, match.group()) for match in spelled.finditer(line)]
    return found


def test_the_shell_scan_finds_keys_options_and_cases() -> None:
    source = (
        "# reads in_reply_to\n"
        "      in_reply_to)\n"
        '  [ "$1" != --id ] || x\n'
        "  bernstein_failed --reason x\n"
        '  _bsig_p=$_bsig_p,\\"answer\\":1\n'
        "  case $s in ' in_reply_to answer ') ;; esac\n"
        "  _bsig_err 'skipping a reply to question'\n"
    )
    assert [line for line, _ in shell_role_literals(source)] == [2, 3, 4, 5, 6]


def test_the_shell_template_spells_no_role_field() -> None:
    found = shell_role_literals(
        "".join(part.read_text(encoding="utf-8") for part in SHELL_TEMPLATES)
    )
    assert found == [], "use the role markers (@QUESTION_ID@ ...) the shell emitter fills"
