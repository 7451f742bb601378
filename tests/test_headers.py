"""Every generated file's header sends a maintainer to the file to edit (issue 13, "Layout").

A module copied from a toolkit template names that template, which must
exist; a file generated from the sources names them, and each must exist. The
copies are found from the templates themselves, so a copy under a header that
says "change the sources" fails here whatever its name.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

import pytest

import bernstein_signals_toolkit
from bernstein_signals_toolkit.emitters import _templates
from bernstein_signals_toolkit.emitters._header import MARKER, REGENERATE, header_lines
from bernstein_signals_toolkit.emitters._templates import TEMPLATES, template_source
from bernstein_signals_toolkit.emitters.python import PACKAGE
from bernstein_signals_toolkit.load import load_vocabulary

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "generated"
IMPORT_ROOT = Path(bernstein_signals_toolkit.__file__).resolve().parents[1]

_COPY = re.compile(rf"^# {MARKER}: a copy of the toolkit's (?P<source>\S+)\.$")
_FROM = re.compile(
    rf"^(?:# |){MARKER} from (?P<sources>.+) \((?P<name>\S+) (?P<version>\S+)\)[.,]$"
)
_FILLS = re.compile(r"^# filling in the toolkit's template (?P<source>\S+)\.$")


def _generated_files() -> list[Path]:
    return sorted(
        path for path in GENERATED.rglob("*") if path.is_file() and "__pycache__" not in path.parts
    )


def _head(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()[:4]
    return lines[1:] if lines[0] == "<!--" else lines


def _copies() -> dict[str, str]:
    """Generated path -> the template it is a copy of (the binding's runtime modules)."""
    package = PurePosixPath(PACKAGE)
    return {
        (package / PurePosixPath(name).name).as_posix(): name
        for name in (
            path.relative_to(TEMPLATES).as_posix() for path in TEMPLATES.glob("python/*.py")
        )
    }


def test_template_copies_are_known() -> None:
    """The check below looks at a real set of copies, all of them generated."""
    copies = _copies()
    assert len(copies) >= 10
    for path in copies:
        assert (GENERATED / path).is_file(), path


@pytest.mark.parametrize(
    "path", _generated_files(), ids=lambda path: path.relative_to(GENERATED).as_posix()
)
def test_every_file_names_where_to_edit_it(path: Path) -> None:
    relative = path.relative_to(GENERATED).as_posix()
    head = _head(path)
    template = _copies().get(relative)
    if template is not None:
        copy = _COPY.match(head[0])
        assert copy, f"generated/{relative} is a copy of {template} but says: {head[0]}"
        source = copy["source"]
        assert source == template_source(template)
        assert (IMPORT_ROOT / source).is_file(), f"generated/{relative} names {source}"
        assert head[1] == f"# Do not edit: edit {source} and run `{REGENERATE}`."
        return
    generated = _FROM.match(head[0])
    assert generated, f"generated/{relative} names no sources: {head[0]}"
    for source in generated["sources"].split(", "):
        assert list(ROOT.glob(source)), f"generated/{relative} names {source}, which is missing"
    fills = _FILLS.match(head[1])
    if fills:
        assert (IMPORT_ROOT / fills["source"]).is_file(), f"{relative} names {fills['source']}"
    assert any(f"run `{REGENERATE}`" in line for line in head[1:3]), relative


def test_template_paths_follow_the_templates_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder move shows in the headers on the next generate: the path is computed."""
    package = IMPORT_ROOT / "bernstein_signals_toolkit"
    assert template_source("python/errors.py") == (
        "bernstein_signals_toolkit/templates/python/errors.py"
    )
    monkeypatch.setattr(_templates, "TEMPLATES", package / "generator" / "runtime")
    assert template_source("python/errors.py") == (
        "bernstein_signals_toolkit/generator/runtime/python/errors.py"
    )


def test_a_filled_template_is_named_beside_the_sources() -> None:
    vocabulary = load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")
    lines = header_lines(vocabulary, "shell/bernstein-signals.sh")
    assert _FROM.match(lines[0])
    assert lines[1] == (
        "filling in the toolkit's template bernstein_signals_toolkit/templates/shell/"
        "bernstein-signals.sh."
    )
    assert lines[2] == f"Do not edit: change those and run `{REGENERATE}`."
