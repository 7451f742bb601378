"""The layout's dependency rule: the generator imports neither the tools nor the binding it writes.

Every import is read from the source, lazy ones inside functions included, and resolved to an
absolute module name, so a relative import cannot hide a forbidden edge.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CODEGEN = ROOT / "codegen"
TOOLKIT = "bernstein_signals_toolkit"
BINDING = "bernstein_signals"

# Importer package -> module prefixes it must never import.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    f"{TOOLKIT}.generator": (BINDING, f"{TOOLKIT}.tools", f"{TOOLKIT}.cli"),
    f"{TOOLKIT}.tools": (f"{TOOLKIT}.cli",),
    f"{TOOLKIT}.toolkit_errors": (TOOLKIT + ".", BINDING),
}
"""The rule, once: the generator never needs the binding it writes nor the tools that use it."""

RUNTIME = CODEGEN / TOOLKIT / "generator" / "binding_runtime"
RUNTIME_FOLDERS = ("python",)
"""Folders of ``generator/binding_runtime`` copied verbatim into a Python binding."""


def _module_name(path: Path, top: Path) -> str:
    parts = list(path.relative_to(top).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(source: str, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """Each import in ``source`` as (line, absolute module name), relative ones resolved."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                stem = ".".join([*base, *([node.module] if node.module else [])])
            else:
                stem = node.module or ""
            for alias in node.names:
                # `from pkg import mod` may import a module: judge both names.
                yield node.lineno, f"{stem}.{alias.name}" if alias.name != "*" else stem


def violations(source: str, module: str, is_package: bool = False) -> list[str]:
    """The forbidden imports of ``module`` (with its source), as ``line: name`` texts."""
    rules = [
        banned
        for importer, banned in FORBIDDEN.items()
        if module == importer or module.startswith(importer + ".")
    ]
    found = []
    for line, name in imports(source, module, is_package):
        for banned in rules:
            if any(name == b.rstrip(".") or name.startswith(b.rstrip(".") + ".") for b in banned):
                found.append(f"{line}: {name}")
    return found


def _toolkit_modules() -> Iterator[tuple[Path, str]]:
    for path in sorted((CODEGEN / TOOLKIT).rglob("*.py")):
        if "binding_runtime" in path.parts:
            continue
        yield path, _module_name(path, CODEGEN)


@pytest.mark.parametrize(
    ("path", "module"),
    list(_toolkit_modules()),
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_no_forbidden_import(path: Path, module: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert violations(source, module, path.name == "__init__.py") == [], path


def _runtime_files() -> Iterator[Path]:
    for folder in RUNTIME_FOLDERS:
        yield from sorted((RUNTIME / folder).glob("*.py"))
    yield from sorted((ROOT / "generated" / "python" / BINDING).rglob("*.py"))


@pytest.mark.parametrize("path", list(_runtime_files()), ids=lambda path: str(path.name))
def test_the_binding_needs_only_the_standard_library(path: Path) -> None:
    """A user installs the binding alone: any import outside the stdlib breaks them."""
    source = path.read_text(encoding="utf-8")
    module = f"{BINDING}.{path.stem}"
    allowed = {*sys.stdlib_module_names, BINDING, "__future__"}
    outside = [
        f"{line}: {name}"
        for line, name in imports(source, module, path.name == "__init__.py")
        if name.split(".")[0] not in allowed
    ]
    assert outside == [], path


def test_the_layout_has_both_packages() -> None:
    """The scans above pass vacuously on an empty tree; the packages they guard exist."""
    names = {module for _, module in _toolkit_modules()}
    assert f"{TOOLKIT}.generator.pipeline" in names
    assert f"{TOOLKIT}.tools.validate" in names
    assert any(True for _ in _runtime_files())


@pytest.mark.parametrize(
    ("source", "module"),
    [
        # A lazy import inside a function is still an edge.
        ("def f():\n    from ..tools.validate import codes\n", f"{TOOLKIT}.generator.load"),
        ("import bernstein_signals.parsing\n", f"{TOOLKIT}.generator.emitters.python"),
        ("from bernstein_signals import parse_signal\n", f"{TOOLKIT}.generator.keywords"),
        ("from ... import cli\n", f"{TOOLKIT}.tools.validate.lines"),
        ("from .generator import model\n", f"{TOOLKIT}.toolkit_errors"),
    ],
)
def test_the_scan_sees_forbidden_edges(source: str, module: str) -> None:
    assert violations(source, module) != []


def test_the_scan_allows_the_permitted_direction() -> None:
    source = "from ...generator.model import Vocabulary\nimport bernstein_signals\n"
    assert violations(source, f"{TOOLKIT}.tools.validate.lines") == []
