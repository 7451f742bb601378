"""Every generated file's header sends a maintainer to the file to edit (issue 13, "Layout").

A file copied from a toolkit template names that template, and a file that
fills one in names it beside the sources; either must exist. A file generated
from the sources names them, and each must exist. What comes from a template
is found from the templates themselves (same target folder, same file name),
so a copy under a header that says "change the sources" fails here, in any
target and any comment syntax.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bernstein_signals_toolkit
from bernstein_signals_toolkit.generator.emitters import _templates
from bernstein_signals_toolkit.generator.emitters._header import MARKER, REGENERATE, header_lines
from bernstein_signals_toolkit.generator.emitters._templates import BINDING_RUNTIME, template_source
from bernstein_signals_toolkit.generator.emitters.python import PACKAGE
from bernstein_signals_toolkit.generator.load import load_vocabulary

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "generated"
IMPORT_ROOT = Path(bernstein_signals_toolkit.__file__).resolve().parents[1]

_COPY = re.compile(rf"^{MARKER}: a copy of the toolkit's (?P<source>\S+)\.$")
_FROM = re.compile(rf"^{MARKER} from (?P<sources>.+) \((?P<name>\S+) (?P<version>\S+)\)[.,]$")
_FILLS = re.compile(r"^filling in the toolkit's template (?P<source>\S+)\.$")
_COMMENT = re.compile(r"^(?:# |// )")
_SENTENCE = re.compile(r"(?<=\.) (?=[A-Z])|(?<=,) (?=filling in )")


def _generated_files() -> list[Path]:
    return sorted(
        path for path in GENERATED.rglob("*") if path.is_file() and "__pycache__" not in path.parts
    )


def _head(path: Path) -> list[str]:
    """The header's lines without their comment syntax (JSON: the ``"//"`` member's sentences)."""
    if path.suffix == ".json":
        return _SENTENCE.split(json.loads(path.read_text(encoding="utf-8"))["//"])
    lines = path.read_text(encoding="utf-8").splitlines()[:4]
    lines = lines[1:] if lines[0] == "<!--" else lines
    return [_COMMENT.sub("", line) for line in lines]


def _from_templates() -> dict[str, str]:
    """Generated path -> the template it comes from: the template's name in its target's folder."""
    templates: dict[tuple[str, str], str] = {}
    for path in BINDING_RUNTIME.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            name = path.relative_to(BINDING_RUNTIME)
            templates[(name.parts[0], name.name)] = name.as_posix()
    found = {}
    for path in _generated_files():
        name = path.relative_to(GENERATED)
        template = templates.get((name.parts[0], name.name))
        if template is not None:
            found[name.as_posix()] = template
    return found


def test_template_copies_are_known() -> None:
    """The check below looks at a real set of copies, the binding's runtime among them."""
    copies = _from_templates()
    runtime = [path for path in copies if path.startswith(PACKAGE + "/")]
    assert len(runtime) >= 10
    assert len(runtime) == len(list(BINDING_RUNTIME.glob("python/*.py")))


@pytest.mark.parametrize(
    "path",
    _generated_files(),
    ids=lambda path: path.relative_to(GENERATED).as_posix(),
)
def test_every_file_names_where_to_edit_it(path: Path) -> None:
    relative = path.relative_to(GENERATED).as_posix()
    head = _head(path)
    template = _from_templates().get(relative)
    copy = _COPY.match(head[0])
    if copy:
        source = copy["source"]
        assert template is not None, f"generated/{relative} names {source}, not its template"
        assert source == template_source(template)
        assert (IMPORT_ROOT / source).is_file(), f"generated/{relative} names {source}"
        assert head[1] == f"Do not edit: edit {source} and run `{REGENERATE}`."
        return
    generated = _FROM.match(head[0])
    assert generated, f"generated/{relative} names no sources: {head[0]}"
    for source in generated["sources"].split(", "):
        assert list(ROOT.glob(source)), f"generated/{relative} names {source}, which is missing"
    fills = _FILLS.match(head[1])
    if template is not None:
        assert fills, f"generated/{relative} comes from {template} but names only the sources"
        assert fills["source"] == template_source(template)
    if fills:
        assert (IMPORT_ROOT / fills["source"]).is_file(), f"{relative} names {fills['source']}"
    assert any(f"run `{REGENERATE}`" in line for line in head[1:3]), relative


def test_template_paths_follow_the_templates_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder move shows in the headers on the next generate: the path is computed."""
    package = IMPORT_ROOT / "bernstein_signals_toolkit"
    assert template_source("python/errors.py") == (
        "bernstein_signals_toolkit/generator/binding_runtime/python/errors.py"
    )
    monkeypatch.setattr(_templates, "BINDING_RUNTIME", package / "generator" / "runtime")
    assert template_source("python/errors.py") == (
        "bernstein_signals_toolkit/generator/runtime/python/errors.py"
    )


def test_a_filled_template_is_named_beside_the_sources() -> None:
    vocabulary = load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")
    lines = header_lines(vocabulary, "python/errors.py")
    assert _FROM.match(lines[0])
    assert lines[1] == (
        "filling in the toolkit's template"
        " bernstein_signals_toolkit/generator/binding_runtime/python/errors.py."
    )
    parts = header_lines(vocabulary, "shell/library/*.sh")
    assert parts[1] == (
        "filling in the toolkit's templates"
        " bernstein_signals_toolkit/generator/binding_runtime/shell/library/*.sh."
    )
    assert lines[2] == f"Do not edit: change those and run `{REGENERATE}`."
