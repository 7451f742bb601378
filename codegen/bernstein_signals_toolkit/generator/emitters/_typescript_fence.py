"""The TypeScript binding's fence constants, read from the Python binding's ``fence_rules``.

``fence_rules.py`` is their one home; this writes each public name as a JavaScript
constant with its declaration and its docstring's first paragraph as the comment,
so a new constant there reaches the TypeScript binding with no edit here.
"""

from __future__ import annotations

import ast

from bernstein_signals_toolkit.toolkit_errors import SourceError

from ._escape import js_comment_text, js_string
from ._templates import python_runtime_module, template_source, template_text

__all__ = ["FENCE_RULES_MODULE", "fence_rules_files"]

FENCE_RULES_MODULE = "fence_rules"
"""The generated module's name (``fence_rules.js`` and ``.d.ts``)."""
_SOURCE = f"python/{FENCE_RULES_MODULE}.py"
_SAFE_INTEGER = 2**53 - 1


def _docstrings() -> dict[str, str]:
    """Each constant's attribute docstring, first paragraph, on one line."""
    tree = ast.parse(template_text(_SOURCE))
    found: dict[str, str] = {}
    for statement, following in zip(tree.body, tree.body[1:], strict=False):
        target = statement.target if isinstance(statement, ast.AnnAssign) else None
        if (
            isinstance(target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            found[target.id] = " ".join(following.value.value.split("\n\n", 1)[0].split())
    return found


def _literal(name: str, value: object) -> str:
    """The JavaScript literal of a constant: a string, or an integer JavaScript holds exactly."""
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= _SAFE_INTEGER:
        return str(value)
    raise SourceError(
        template_source(_SOURCE),
        "typescript-fence",
        f"{name} = {value!r} is neither a string nor an integer JavaScript holds exactly",
    )


def fence_rules_files(header: str) -> dict[str, str]:
    """``fence_rules.js`` and ``fence_rules.d.ts``: every name of ``fence_rules.__all__``."""
    rules = python_runtime_module(FENCE_RULES_MODULE)
    docs = _docstrings()
    about = (
        "/** The fence's constants (spec/fenced-signals.md), the Python binding's own values. */"
    )
    script, types = [header, about, ""], [header, about, ""]
    for name in rules.__all__:
        literal = _literal(name, getattr(rules, name))
        doc = f"/** {js_comment_text(docs.get(name, name))} */"
        script += [doc, f"export const {name} = {literal};"]
        types += [doc, f"export declare const {name}: {literal};"]
    return {
        f"{FENCE_RULES_MODULE}.js": "\n".join(script),
        f"{FENCE_RULES_MODULE}.d.ts": "\n".join(types),
    }
