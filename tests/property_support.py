"""Which tests run a Hypothesis property, read from the source: the random pass selects them.

``scripts/random-pass`` runs ``pytest -m hypothesis``. Hypothesis marks a test that
is itself ``@given``; ``tests/conftest.py`` marks the rest with :func:`runners`: a
test that defines a ``@given`` inside it (a ``check`` per shell), or names a
driver (:func:`drivers`: a module-level function that is or holds a ``@given``
test, or a function or table that names one, here or imported from a tests
module). ``tests/test_random_pass.py`` checks that this reaches every ``@given``.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

__all__ = ["TESTS", "drivers", "is_given", "reached", "runners", "unreached"]

TESTS = Path(__file__).resolve().parent
_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.Assign | ast.AnnAssign


def is_given(decorator: ast.expr) -> bool:
    """``@given(...)`` or ``@hypothesis.given(...)``."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Name) and target.id == "given") or (
        isinstance(target, ast.Attribute) and target.attr == "given"
    )


def _functions(node: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for inner in ast.walk(node):
        if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield inner


def _holds_given(node: ast.AST) -> bool:
    """Whether ``node`` is, or defines inside it, a @given function."""
    return any(is_given(d) for f in _functions(node) for d in f.decorator_list)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


@functools.cache
def _tree(path: str) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"))


def _module_file(module: str) -> str | None:
    """The tests module ``module`` names (tests/ is on sys.path), or None."""
    path = TESTS.joinpath(*module.split(".")).with_suffix(".py")
    return str(path) if path.is_file() else None


def _imports(path: str) -> dict[str, tuple[str, str]]:
    """Names imported from tests modules: local name -> (their file, their name)."""
    found: dict[str, tuple[str, str]] = {}
    for node in _tree(path).body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            source = _module_file(node.module)
            if source is not None and source != path:
                found |= {(a.asname or a.name): (source, a.name) for a in node.names}
    return found


def _definitions(path: str) -> dict[str, _Definition]:
    found: dict[str, _Definition] = {}
    for node in _tree(path).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[node.name] = node
        elif isinstance(node, ast.Assign):
            found |= {t.id: node for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found[node.target.id] = node
    return found


_VISITING: set[str] = set()


@functools.cache
def drivers(path: str) -> frozenset[str]:
    """The module-level names of ``path`` that run a Hypothesis test when called (or read,
    for a table of drivers): functions that are or hold a @given, and whatever names one."""
    if path in _VISITING:  # an import cycle: its names are found from the other side
        return frozenset()
    _VISITING.add(path)
    try:
        found = {
            name
            for name, (source, original) in _imports(path).items()
            if original in drivers(source)
        }
    finally:
        _VISITING.discard(path)
    definitions = _definitions(path)
    grown = True
    while grown:
        grown = False
        for name, node in definitions.items():
            if name not in found and (_holds_given(node) or _names(node) & found):
                found.add(name)
                grown = True
    return frozenset(found)


def _tests(path: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The test functions of a module by qualified name: test_* and Test*.test_*."""
    for node in _tree(path).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("test"):
                yield node.name, node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            methods = [
                m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
            ]
            yield from ((f"{node.name}.{m.name}", m) for m in methods if m.name.startswith("test"))


@functools.cache
def runners(path: str) -> frozenset[str]:
    """The tests of ``path`` that run a Hypothesis test, by qualified name."""
    own = drivers(path)
    return frozenset(
        name for name, node in _tests(path) if _holds_given(node) or _names(node) & own
    )


def reached(paths: list[str]) -> set[tuple[str, str]]:
    """The module-level definitions (file, name) that the runners of ``paths`` reach."""
    seen: set[tuple[str, str]] = set()
    stack: list[tuple[str, ast.AST]] = [
        (path, node) for path in paths for name, node in _tests(path) if name in runners(path)
    ]
    while stack:
        path, node = stack.pop()
        own, imported, definitions = drivers(path), _imports(path), _definitions(path)
        for name in _names(node) & own:
            where = imported.get(name, (path, name))
            if where in seen:
                continue
            seen.add(where)
            target = (
                _definitions(where[0]).get(where[1]) if where[0] != path else definitions.get(name)
            )
            if target is not None:
                stack.append((where[0], target))
    return seen


def unreached(paths: list[str], tests: list[str]) -> list[tuple[str, int, str]]:
    """The @given functions in ``paths`` that neither are a test, nor sit inside one, nor
    are reached from a runner in ``tests``: (file, line, name)."""
    seen = reached(tests)
    found = []
    for path in paths:
        inside_tests = {id(node) for _, test in _tests(path) for node in _functions(test)}
        for node in _tree(path).body:
            for function in _functions(node):
                if id(function) in inside_tests or not any(
                    is_given(d) for d in function.decorator_list
                ):
                    continue
                top = node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else ""
                if (path, top) not in seen:
                    found.append((path, function.lineno, function.name))
    return found
