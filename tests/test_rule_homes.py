"""One home for each rule (issue 13): guards that fail if a second copy of a rule comes back.

Where behaviour can tell (severities), the rule is driven; where it cannot (a
constant spelled out again), the toolkit's source is scanned.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bernstein_signals_toolkit.validate import CODES, Severity, conformance_report

ROOT = Path(__file__).resolve().parents[1]
TOOLKIT = ROOT / "codegen" / "bernstein_signals_toolkit"
LOGS = ROOT / "tests" / "corpus" / "logs"
_CODE = re.compile(r"BS\d{3}")


def _toolkit_modules() -> list[Path]:
    """The toolkit's hand-written modules (templates are the binding's: scanned apart)."""
    return sorted(
        p for p in TOOLKIT.rglob("*.py") if "templates" not in p.relative_to(TOOLKIT).parts
    )


def _calls(path: Path) -> list[tuple[str, ast.Call]]:
    """Every call in a module with the name of the function (or method) it is in."""
    found: list[tuple[str, ast.Call]] = []

    def walk(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = f"{where}.{child.name}" if where else child.name
            if isinstance(child, ast.Call):
                found.append((where, child))
            walk(child, inner)

    walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


# ---------------------------------------------------------------------------
# Severity comes from the code table (issue 13 item 3)
# ---------------------------------------------------------------------------

SEVERITY_OVERRIDES = {
    ("validate/lines.py", "LineChecker._unknown_kind"),  # BS216: the --unknown-kinds setting
    ("validate/lines.py", "_downgrade"),  # lenient mode: lenient-only deviations are information
    ("validate/report.py", "StreamChecker._live_question"),  # live BS305 is an error
    ("validate/payload_file.py", "_Lines.diagnostic"),  # a payload file: every problem an error
}
"""The places a code's severity is meant to differ from its row, each commented in place."""


def test_diagnostics_are_built_only_by_the_builder() -> None:
    """Only validate/diagnostics.py calls the Diagnostic constructor; severities are
    overridden (a ``severity=`` argument) only at the listed places.
    """
    builders: list[str] = []
    overrides: set[tuple[str, str]] = set()
    for path in _toolkit_modules():
        module = path.relative_to(TOOLKIT).as_posix()
        for where, call in _calls(path):
            constructor = isinstance(call.func, ast.Name) and call.func.id == "Diagnostic"
            if constructor and module != "validate/diagnostics.py":
                builders.append(f"{module}:{call.lineno} ({where})")
            if any(keyword.arg == "severity" for keyword in call.keywords):
                overrides.add((module, where))
    assert builders == [], "build diagnostics with validate.diagnostics.build_diagnostic"
    assert overrides <= SEVERITY_OVERRIDES, overrides - SEVERITY_OVERRIDES
    assert overrides == SEVERITY_OVERRIDES, "a listed override is gone: update the list"


def test_no_severity_literal_disagrees_with_the_table() -> None:
    """A call that names a code and a severity literal (a Finding, say) agrees with the row."""
    wrong: list[str] = []
    for path in _toolkit_modules():
        module = path.relative_to(TOOLKIT).as_posix()
        if module == "validate/codes.py":
            continue
        for _, call in _calls(path):
            arguments = [*call.args, *(keyword.value for keyword in call.keywords)]
            codes = [
                a.value
                for a in arguments
                if isinstance(a, ast.Constant)
                and isinstance(a.value, str)
                and _CODE.fullmatch(a.value)
            ]
            literals = [
                a.attr
                for a in arguments
                if isinstance(a, ast.Attribute)
                and isinstance(a.value, ast.Name)
                and a.value.id == "Severity"
            ]
            for code in codes:
                for literal in literals:
                    if CODES[code].severity is not Severity[literal]:
                        wrong.append(f"{module}:{call.lineno}: {code} as {literal}")
    assert wrong == []


@pytest.mark.parametrize("log", sorted(p.name for p in LOGS.glob("*.log")))
def test_strict_recorded_runs_report_the_tables_severities(log: str) -> None:
    """In strict mode, on a recording, with default settings, no code is meant to differ."""
    report = conformance_report((LOGS / log).read_bytes().splitlines())
    for diagnostic in report.diagnostics:
        assert diagnostic.severity is CODES[diagnostic.code].severity, diagnostic
