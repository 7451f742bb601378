"""The standing guard for writes: the toolkit writes files only through ``output_folder``.

``generate`` once wrote through a committed symlink (issue 10, item 4), and
``schema --catalog`` did the same with ``shutil.copyfile``. The class stays
closed only if no other code writes into a folder it does not own: this test
reads the toolkit's source and fails on any call that creates, replaces or
deletes a file, outside ``output_folder.py`` and outside a fresh
``tempfile.TemporaryDirectory`` (a private folder nobody else can plant links in).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TOOLKIT = Path(__file__).resolve().parents[2] / "codegen/bernstein_signals_toolkit"
ONE_HOME = TOOLKIT / "generator/output_folder.py"

_WRITING_METHODS = frozenset(
    {"write_text", "write_bytes", "touch", "symlink_to", "hardlink_to", "mkdir", "unlink"}
)
_WRITING_FUNCTIONS = {
    "os": frozenset(
        {"rename", "replace", "remove", "unlink", "mkdir", "makedirs", "symlink", "link", "mkfifo"}
    ),
    "shutil": frozenset({"copy", "copy2", "copyfile", "copytree", "move", "rmtree"}),
}


def _is_private_folder(node: ast.With) -> bool:
    return any(
        isinstance(item.context_expr, ast.Call)
        and ast.unparse(item.context_expr.func) in ("tempfile.TemporaryDirectory",)
        for item in node.items
    )


def _writes(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute):
        owner = ast.unparse(func.value)
        if owner in _WRITING_FUNCTIONS:
            return func.attr in _WRITING_FUNCTIONS[owner]
        return func.attr in _WRITING_METHODS
    if isinstance(func, ast.Name) and func.id == "open":
        mode = call.args[1] if len(call.args) > 1 else None
        mode = mode or next((k.value for k in call.keywords if k.arg == "mode"), None)
        if mode is None:
            return False  # reading
        return not isinstance(mode, ast.Constant) or any(c in str(mode.value) for c in "wax+")
    return False


def _unguarded_writes(tree: ast.AST, guarded: bool = False) -> Iterator[ast.Call]:
    for child in ast.iter_child_nodes(tree):
        inner = guarded or (isinstance(child, ast.With) and _is_private_folder(child))
        if isinstance(child, ast.Call) and not guarded and _writes(child):
            yield child
        yield from _unguarded_writes(child, inner)


def test_files_are_written_only_through_output_folder() -> None:
    found = []
    for path in sorted(TOOLKIT.rglob("*.py")):
        if path == ONE_HOME or "binding_runtime" in path.relative_to(TOOLKIT).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [
            f"{path.relative_to(TOOLKIT)}:{call.lineno}: {ast.unparse(call)[:80]}"
            for call in _unguarded_writes(tree)
        ]
    assert not found, (
        "write files through bernstein_signals_toolkit.generator.output_folder"
        " (never through a symlink):\n" + "\n".join(found)
    )


def test_the_guard_sees_every_kind_of_write() -> None:
    """The scanner itself: each way to write is caught, a private temporary folder is not."""
    source = """
import os, shutil, tempfile
def f(p, q):
    p.write_text("x")
    shutil.copyfile(p, q)
    os.replace(p, q)
    open(p, "w")
    open(p, mode="ab")
    with tempfile.TemporaryDirectory() as scratch:
        (scratch / "a").write_text("fine")
    open(p)
    "text".replace("a", "b")
"""
    caught = [ast.unparse(call) for call in _unguarded_writes(ast.parse(source))]
    assert caught == [
        "p.write_text('x')",
        "shutil.copyfile(p, q)",
        "os.replace(p, q)",
        "open(p, 'w')",
        "open(p, mode='ab')",
    ]
