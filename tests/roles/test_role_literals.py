"""Guard: the runtime templates never spell a role-bearing field's name; they read the constants.

A literal ``"question"`` in a template is the defect issue 12 §2 names: rename
the field in the schema and that runtime silently stops working. The scan reads
every string constant of every Python template except docstrings.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from roles.roles_support import ROOT, role_fields

TEMPLATES = ROOT / "codegen" / "bernstein_signals_toolkit" / "templates" / "python"
ROLE_FIELD_NAMES = frozenset(field for _, _, field in role_fields())

NATIVE_NAMES: dict[str, frozenset[str]] = {
    # The native CLIs' own event members (Claude's AskUserQuestion input and
    # tool_use blocks, Codex's request_user_input): their protocol, not ours.
    "_native_claude.py": frozenset({"question", "options", "id", "path"}),
    "_native_codex.py": frozenset({"question", "options", "id"}),
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


@pytest.mark.parametrize("template", sorted(TEMPLATES.glob("*.py")), ids=lambda path: path.name)
def test_no_template_spells_a_role_field(template: Path) -> None:
    found = role_literals(
        template.read_text(encoding="utf-8"), NATIVE_NAMES.get(template.name, frozenset())
    )
    assert found == [], f"{template.name}: read these through bernstein_signals.fields"
