"""The shell emitter: generated from the schemas; a field it cannot check stays Python-only."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from bernstein_signals_toolkit.generator.emitters import shell as shell_emitter
from bernstein_signals_toolkit.generator.load import RESERVED_KIND_NAMES, load_vocabulary
from bernstein_signals_toolkit.generator.names import PROPERTY_NAME_REST
from bernstein_signals_toolkit.generator.shell_help import help_texts
from bernstein_signals_toolkit.generator.shell_signature import ASK_OPTIONS, signature
from bernstein_signals_toolkit.toolkit_errors import SourceError
from shell_support import LIBRARY, ROOT, reference_format, shell_command

CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]
EXAMPLE = ROOT / "examples" / "wrapper.sh"


def _schema(kind: str, properties: Mapping[str, object], required: list[str]) -> dict[str, object]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://example.invalid/{kind.lower()}.schema.json",
        "title": kind,
        "description": f"A test kind {kind}.",
        "type": "object",
        "x-bernstein-kind": kind,
        "x-bernstein-terminal": False,
        "required": required,
        "properties": properties,
        "examples": [{}] if not required else [],
    }


def _vocabulary(
    tmp_path: Path, kind: str, properties: Mapping[str, object], required: list[str]
) -> Path:
    schema_dir = tmp_path / "schema"
    shutil.copytree(ROOT / "schema", schema_dir)
    document = _schema(kind, properties, required)
    (schema_dir / f"{kind.lower()}.schema.json").write_text(json.dumps(document))
    return schema_dir


def _cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *map(str, args)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_a_new_kind_gets_its_function(tmp_path: Path) -> None:
    properties = {
        "target": {"description": "Where.", "type": "string", "minLength": 1},
        "count": {"description": "How many.", "type": "integer"},
        "dry_run": {"description": "Pretend.", "type": ["boolean", "null"]},
        "tags": {
            "description": "Labels.",
            "type": "array",
            "items": {"type": "string"},
            "minItems": 1,
            "maxItems": 2,
            "uniqueItems": True,
        },
    }
    schema_dir = _vocabulary(tmp_path, "DEPLOY_STARTED", properties, ["target", "count"])
    document = json.loads((schema_dir / "deploy_started.schema.json").read_text())
    document["examples"] = [{"target": "prod", "count": 2}]
    (schema_dir / "deploy_started.schema.json").write_text(json.dumps(document))
    out = tmp_path / "out"
    result = _cli(
        "generate", "--schema", schema_dir, "--grammar", ROOT / "grammar/signal.lark", "--out", out
    )
    assert result.returncode == 0, result.stderr
    library = out / "shell" / "bernstein-signals.sh"
    body = """set -eu
bernstein_deploy_started prod 3 --tags a --dry_run false --tags 'b"'
bernstein_deploy_started prod x || echo "status=$?"
bernstein_deploy_started prod 01 || echo "status=$?"
bernstein_deploy_started prod 1 --dry_run yes || echo "status=$?"
bernstein_deploy_started prod 1 --tags a --tags a || echo "status=$?"
bernstein_deploy_started prod 1 --tags a --tags b --tags c || echo "status=$?"
bernstein_deploy_started prod || echo "status=$?"
bernstein_deploy_started --help | head -1"""
    completed = subprocess.run(
        [*shell_command("bash"), "-c", f'. "{library}"\n{body}'],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    lines = completed.stdout.split(b"\n")
    assert lines[0] == reference_format(
        "DEPLOY_STARTED", {"target": "prod", "count": 3, "tags": ["a", 'b"'], "dry_run": False}
    )
    assert lines[1:7] == [b"status=2"] * 6
    assert (
        lines[7]
        == b"Usage: bernstein_deploy_started TARGET COUNT [--dry_run VALUE] [--tags VALUE]..."
    )


@pytest.mark.parametrize(
    "annotation",
    [
        {"format": "uri"},
        {"writeOnly": True},
        {"readOnly": True},
        {"deprecated": True},
        {"x-vendor-note": "n"},
        {"x-bernstein-message": "say it plainly"},
    ],
)
def test_annotations_are_accepted_as_python_accepts_them(
    tmp_path: Path, annotation: dict[str, object]
) -> None:
    """One table (keywords.py) says what is an annotation, for every emitter alike."""
    field = {"description": "A field.", "type": "string", **annotation}
    items = {"description": "Items.", "type": "array", "items": {"type": "string", **annotation}}
    schema_dir = _vocabulary(tmp_path, "NEW_KIND", {"field": field, "items": items}, [])
    vocabulary = load_vocabulary(schema_dir, ROOT / "grammar/signal.lark")
    library = shell_emitter.emit(vocabulary)[shell_emitter.LIBRARY]
    assert "bernstein_new_kind()" in library


@pytest.mark.parametrize(
    ("subschema", "reason"),
    [
        ({"type": "string", "pattern": "^[a-z]+"}, "its pattern has no shell translation"),
        ({"type": "string", "pattern": "^[^a]+$"}, "its pattern has no shell translation"),
        ({"type": "string", "pattern": "^[a]?[b]+$"}, "has no shell translation"),
        ({"type": "string", "pattern": "^[\\s]+$"}, "has no shell translation"),
        ({"type": "number"}, "type ['number'] is not a string, integer or boolean"),
        ({"type": "object"}, "type ['object'] is not a string, integer or boolean"),
        ({"type": ["string", "integer"]}, "is not a string, integer or boolean"),
        ({"type": "integer", "multipleOf": 0.5}, "multipleOf 0.5 is not a whole number"),
        ({"type": "string", "enum": [1, 2]}, "no enum value can be a string argument"),
        ({"type": "array"}, "an array without an 'items' schema"),
        ({"type": "array", "items": {"type": "object"}}, "is not a string, integer or boolean"),
        ({"type": "array", "items": {"type": "string"}, "contains": {"const": "a"}}, "'contains'"),
        ({"type": "string", "allOf": [{"minLength": 1}]}, "'allOf' at / is not compiled"),
    ],
)
def test_a_field_the_shell_cannot_check_is_python_only(
    tmp_path: Path, subschema: dict[str, object], reason: str
) -> None:
    """Left out of the helper's options (--help says why); the vocabulary still generates."""
    properties = {
        "field": {"description": "A field.", **subschema},
        "other": {"description": "Another.", "type": "string", "maxLength": 2},
    }
    schema_dir = _vocabulary(tmp_path, "NEW_KIND", properties, [])
    vocabulary = load_vocabulary(schema_dir, ROOT / "grammar/signal.lark")
    library = shell_emitter.emit(vocabulary)[shell_emitter.LIBRARY]
    assert "_bsig_O_new_kind=' other '\n" in library
    assert "field" not in library.split("_bsig_O_new_kind=")[1].split("\n")[0]
    assert signature(vocabulary.kind("NEW_KIND")).options[0].name == "other"
    help_text = help_texts(vocabulary)["bernstein_new_kind"]
    python_only = " ".join(help_text.split("Python-only fields (not options here):")[1].split())
    assert python_only.startswith("field ")
    assert reason in python_only


def test_a_property_named_help_is_refused(tmp_path: Path) -> None:
    """A name clash with every helper's --help, refused like the Python binding's own names."""
    schema_dir = _vocabulary(
        tmp_path, "NEW_KIND", {"help": {"description": "x", "type": "string"}}, []
    )
    with pytest.raises(SourceError, match="reserved"):
        shell_emitter.emit(load_vocabulary(schema_dir, ROOT / "grammar/signal.lark"))


@pytest.mark.parametrize("option", ASK_OPTIONS)
def test_a_question_property_named_as_an_ask_option_is_refused(tmp_path: Path, option: str) -> None:
    """bernstein_ask would take --timeout/--var out of the call: the property could never be set."""
    schema_dir = tmp_path / "schema"
    shutil.copytree(ROOT / "schema", schema_dir)
    path = schema_dir / "question.schema.json"
    document = json.loads(path.read_text())
    document["properties"][option] = {"description": "x", "type": "string"}
    path.write_text(json.dumps(document))
    vocabulary = load_vocabulary(schema_dir, ROOT / "grammar/signal.lark")
    with pytest.raises(SourceError) as raised:
        shell_emitter.emit(vocabulary)
    message = str(raised.value)
    assert "question.schema.json" in message
    assert "shell" in message
    assert f"--{option} is reserved by bernstein_ask" in message
    result = _cli("generate", "--schema", schema_dir, "--out", tmp_path / "out")
    assert result.returncode == 2, result
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out" / "shell").exists()


def test_an_ask_option_is_free_on_other_kinds(tmp_path: Path) -> None:
    properties = {option: {"description": "x", "type": "string"} for option in ASK_OPTIONS}
    schema_dir = _vocabulary(tmp_path, "NEW_KIND", properties, [])
    text = shell_emitter.emit(load_vocabulary(schema_dir, ROOT / "grammar/signal.lark"))
    [table] = [x for x in text[shell_emitter.LIBRARY].splitlines() if x.startswith("_bsig_O_new")]
    assert all(f" {option} " in table for option in ASK_OPTIONS), table


def test_fixed_helper_names_are_reserved_kinds() -> None:
    text = LIBRARY.read_text()
    fixed = {
        line.split("(")[0].removeprefix("bernstein_").upper()
        for line in text.splitlines()
        if line.startswith("bernstein_") and line.endswith("() {")
    }
    kinds = {
        path.name.removesuffix(".schema.json").upper()
        for path in (ROOT / "schema").glob("*.schema.json")
    }
    assert fixed - kinds == set(RESERVED_KIND_NAMES)


def test_generated_header_and_every_kind() -> None:
    text = LIBRARY.read_text()
    assert text.startswith("# Generated by bernstein-signals from ")
    for kind in ("completed", "failed", "question", "plan_draft", "plan_ready", "blocked"):
        assert f"\nbernstein_{kind}() {{\n" in text
    assert "@" + "KIND_FUNCTIONS@" not in text


@pytest.mark.parametrize("dialect", ["sh", "bash"])
@pytest.mark.parametrize("path", [LIBRARY, EXAMPLE], ids=["library", "example"])
def test_shellcheck_clean(dialect: str, path: Path) -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        if os.environ.get("CI") == "true":
            pytest.fail("shellcheck is not installed")
        pytest.skip("shellcheck is not installed (run scripts/ensure-test-shells as root)")
    result = subprocess.run(
        [shellcheck, "-x", "-s", dialect, str(path)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=path.parent,
        check=False,
    )
    assert result.returncode == 0, result.stdout


def test_shell_command_prints_the_library_and_its_path() -> None:
    assert _cli("shell").stdout == LIBRARY.read_text()
    assert Path(_cli("shell", "--path").stdout.strip()) == LIBRARY


TOOLKIT = ROOT / "codegen/bernstein_signals_toolkit"


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_calling_convention_has_one_home() -> None:
    """Issue 13 item 1: the signature model is the one definition; the rest read it."""
    template = "".join(
        part.read_text()
        for part in (TOOLKIT / "generator" / "binding_runtime" / "shell" / "library").glob("*.sh")
    )
    for marker in ("@OPTION_FIRST@", "@OPTION_REST@", "@KEY_FIRST@", "@KEY_REST@"):
        assert marker in template
    # The key and option character lists are substituted, never spelled by hand.
    assert PROPERTY_NAME_REST not in template
    assert "[!abcdefghijklmnopqrstuvwxyz" not in template
    assert "--[abcdefghijklmnopqrstuvwxyz]" not in template
    # The fixed helpers' help is data (shell_help.FIXED_HELPERS), not template text.
    assert "_bsig_help_ask() {" not in template
    assert "Usage:" not in template
    assert "Usage:" not in (TOOLKIT / "generator" / "emitters" / "shell.py").read_text()
    # The generator's model imports no tool and not the binding it writes.
    for module in (
        "generator/shell_signature.py",
        "generator/shell_help.py",
        "generator/shell_checks.py",
    ):
        for name in _imports(TOOLKIT / module):
            assert not name.startswith(("..", ".validate", ".lsp", ".commands")), (module, name)
            assert not name.startswith(("bernstein_signals.", ".emitters")), (module, name)
            assert name != "bernstein_signals", module
    # The language server reads the model, not the emitter.
    for module in ("analysis.py", "helper_calls.py"):
        assert not any("emitters" in name for name in _imports(TOOLKIT / "tools" / "lsp" / module))


def test_every_part_of_the_library_is_in_its_order() -> None:
    """A part file the emitter's order misses would silently drop out of the library."""
    folder = TOOLKIT / "generator" / "binding_runtime" / "shell" / "library"
    assert sorted(path.stem for path in folder.glob("*.sh")) == sorted(shell_emitter.LIBRARY_PARTS)
    assert len(set(shell_emitter.LIBRARY_PARTS)) == len(shell_emitter.LIBRARY_PARTS)
