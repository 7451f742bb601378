"""Hand-written templates that emitters copy or fill into generated files."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path, PurePosixPath
from types import ModuleType

from bernstein_signals_toolkit.toolkit_errors import SourceError

__all__ = [
    "BINDING_RUNTIME",
    "python_runtime_module",
    "template_names",
    "template_source",
    "template_text",
]

BINDING_RUNTIME = Path(__file__).resolve().parent.parent / "binding_runtime"
"""Each binding's hand-written runtime: Python and TypeScript modules copied verbatim,
the shell library's fixed part with the ``@MARKER@`` slots the shell emitter fills."""


def _import_root() -> Path:
    """The folder that holds the toolkit's top-level package (``codegen/`` in the checkout)."""
    top = __name__.split(".", 1)[0]
    here = Path(__file__).resolve()
    return next(folder.parent for folder in here.parents if folder.name == top)


def template_text(relative: str) -> str:
    return (BINDING_RUNTIME / relative).read_text(encoding="utf-8")


def template_source(relative: str) -> str:
    """Where a maintainer edits the template ``relative`` (a path under BINDING_RUNTIME).

    A path from the toolkit's import root, e.g.
    ``bernstein_signals_toolkit/generator/binding_runtime/python/errors.py``: computed from
    where the templates really are, so a folder move shows in the headers on
    the next ``generate``, and the same whether the toolkit runs from the
    checkout or from an installed wheel, so generated output stays a function
    of the sources.
    """
    return PurePosixPath(*(BINDING_RUNTIME / relative).relative_to(_import_root()).parts).as_posix()


def template_names(folder: str, suffix: str) -> list[str]:
    """Template files in ``folder`` ending in ``suffix``, sorted, as paths under BINDING_RUNTIME."""
    root = BINDING_RUNTIME / folder
    if not root.is_dir():
        return []
    return sorted(f"{folder}/{path.name}" for path in root.iterdir() if path.name.endswith(suffix))


@functools.cache
def python_runtime_module(name: str) -> ModuleType:
    """A standard-library-only module of the Python binding's runtime, loaded from its template.

    Other targets read values whose home is the binding (limits, the whitespace set) from
    there, without importing the binding the generator writes.
    """
    relative = f"python/{name}.py"
    spec = importlib.util.spec_from_file_location(
        f"_bernstein_runtime_{name}", BINDING_RUNTIME / relative
    )
    if spec is None or spec.loader is None:
        raise SourceError(template_source(relative), "template", "cannot load the runtime module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
