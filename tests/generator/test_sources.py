"""The sources of truth: schemas against the metaschema and the seed, the grammar's house rules."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from lark import Lark
from lark.exceptions import LarkError

from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.toolkit_errors import SourceError
from ecma_jsonschema import validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_DIR = ROOT / "schema"
GRAMMAR = ROOT / "grammar" / "signal.lark"
SCHEMA_FILES = sorted(SCHEMA_DIR.glob("*.schema.json"))

# The seed's table: kind -> terminal?
SEED_KINDS = {
    "COMPLETED": True,
    "FAILED": True,
    "QUESTION": False,
    "PLAN_DRAFT": False,
    "PLAN_READY": False,
    "BLOCKED": False,
}


def _schema(name: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
    return result


def _valid(name: str, payload: object) -> bool:
    return bool(validator(_schema(name)).is_valid(payload))


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_schema_is_valid_2020_12_with_documented_properties(path: Path) -> None:
    schema = json.loads(path.read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith(f"/v1/{path.name}")
    assert schema["title"]
    assert schema["description"]
    for name, prop in schema.get("properties", {}).items():
        assert prop.get("description"), f"{path.name}: {name} has no description"
    assert schema["examples"]
    for example in schema["examples"]:
        validator(schema).validate(example)


def test_vocabulary_matches_the_seed_table() -> None:
    vocabulary = load_vocabulary(SCHEMA_DIR, GRAMMAR)
    assert {kind.name: kind.terminal for kind in vocabulary.kinds} == SEED_KINDS
    assert re.fullmatch(r"\d+\.\d+\.\d+", vocabulary.version)
    assert vocabulary.grammar.prefix == "BERNSTEIN:"


@pytest.mark.parametrize(
    ("kind", "payload", "valid"),
    [
        ("completed", {}, True),
        ("completed", {"anything": [1, {"x": None}]}, True),
        ("failed", {}, True),
        ("failed", {"reason": "exit 1", "extra": 1}, True),
        ("failed", {"reason": None}, False),
        ("failed", {"reason": 3}, False),
        ("question", {"question": "Go?"}, True),
        ("question", {"question": "Go?", "options": None, "id": None}, True),
        ("question", {"question": "Go?", "options": ["a", "b"], "id": "q-1"}, True),
        ("question", {}, False),
        ("question", {"question": ""}, False),
        ("question", {"question": None}, False),
        ("question", {"question": "Go?", "options": []}, False),
        ("question", {"question": "Go?", "options": ["a", "a"]}, False),
        ("question", {"question": "Go?", "options": [""]}, False),
        ("question", {"question": "Go?", "options": [1]}, False),
        ("question", {"question": "Go?", "options": "yes"}, False),
        ("question", {"question": "Go?", "id": ""}, False),
        ("question", {"question": "Go?", "id": 7}, False),
        ("plan_draft", {"markdown": "# P"}, True),
        ("plan_draft", {"markdown": "# P", "path": None}, True),
        ("plan_draft", {"markdown": ""}, False),
        ("plan_draft", {"path": ".sdd/p.md"}, False),
        ("plan_draft", {"markdown": "# P", "path": "/tmp/p.md"}, False),
        ("plan_ready", {"path": ".sdd/plans/p.md"}, True),
        ("plan_ready", {"path": None}, False),
        ("plan_ready", {}, False),
        ("blocked", {"reason": "no token"}, True),
        ("blocked", {"reason": "no token", "hint": None}, True),
        ("blocked", {"reason": ""}, False),
        ("blocked", {"hint": "x"}, False),
        ("reply", {"in_reply_to": "q-1", "answer": "yes"}, True),
        ("reply", {"in_reply_to": None, "answer": ""}, True),
        ("reply", {"answer": "yes"}, False),
        ("reply", {"in_reply_to": "q-1"}, False),
        ("reply", {"in_reply_to": "", "answer": "yes"}, False),
        ("reply", {"in_reply_to": "q-1", "answer": "yes", "extra": 1}, False),
        ("reply", {"in_reply_to": "q-1", "answer": None}, False),
    ],
)
def test_payload_table(kind: str, payload: object, valid: bool) -> None:
    assert _valid(kind, payload) is valid


@pytest.mark.parametrize(
    ("path", "valid"),
    [
        (".sdd/plans/fix-login.md", True),
        (".sdd/p", True),
        (".sdd/..hidden", True),
        (".sdd/a./b...", True),
        (".sdd/ümlaut plan.md", True),
        (".sdd", False),
        (".sdd/", False),
        (".sdd/plans/", False),
        (".sdd//p.md", False),
        (".sdd/../etc/passwd", False),
        (".sdd/plans/../../x", False),
        (".sdd/..", False),
        (".sdd/./p.md", False),
        (".sdd/plans/.", False),
        ("/abs/.sdd/p.md", False),
        ("/.sdd/p.md", False),
        ("plans/p.md", False),
        ("./.sdd/p.md", False),
        (".SDD/p.md", False),
        (".sdd\\p.md", False),
        (".sdd/a\\..\\..\\x", False),
        (".sdd/p.md\x00.txt", False),
        (".sdd/p.md\n", False),  # ECMA `$` is the end; Python re's also matches before a "\n"
        (".sdd/p.md\r", False),
        (".sdd/p\tq.md", False),
        ("", False),
    ],
)
def test_plan_paths_stay_under_sdd(path: str, valid: bool) -> None:
    assert _valid("plan_ready", {"path": path}) is valid
    assert _valid("plan_draft", {"markdown": "# P", "path": path}) is valid


def test_the_path_rule_needs_the_ecma_oracle() -> None:
    """Why every oracle over schema/ reads patterns as ECMA-262: Python re's ``$`` differs."""
    path = ".sdd/p.md\n"
    pattern = _schema("plan_ready")["properties"]["path"]["pattern"]
    assert re.search(pattern, path)  # what jsonschema's own pattern keyword does
    assert not _valid("plan_ready", {"path": path})


# A jsonschema validator is built by calling one of these (from jsonschema or
# jsonschema.validators); check_schema and the class's attributes are not calls.
_BUILDERS = re.compile(r"Draft\d+Validator|validate|validator_for|extend|create")
_ORACLE_MODULE = "ecma_jsonschema.py"


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _raw_validators(tree: ast.Module) -> list[int]:
    """Lines that build a jsonschema validator without the ECMA-aware pattern keywords."""
    modules: set[str] = set()
    builders: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name.startswith("jsonschema")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("jsonschema"):
            for alias in node.names:
                bound = alias.asname or alias.name
                (builders if _BUILDERS.fullmatch(alias.name) else modules).add(bound)
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            head, _, last = name.rpartition(".")
            if name in builders or (head.split(".")[0] in modules and _BUILDERS.fullmatch(last)):
                lines.append(node.lineno)
    return lines


def _is_repository(node: ast.expr) -> bool:
    """The repository root: ``ROOT`` or a path from ``__file__`` (a temporary copy is not)."""
    return any(
        (isinstance(part, ast.Name) and part.id in {"ROOT", "__file__"})
        or (isinstance(part, ast.Attribute) and part.attr == "parents")
        for part in ast.walk(node)
    )


def _reads_schema_dir(tree: ast.Module) -> bool:
    """Does the module name the repository's ``schema/`` directory or load the vocabulary?"""
    return any(
        (
            isinstance(node, ast.BinOp)
            and isinstance(node.right, ast.Constant)
            and node.right.value == "schema"
            and _is_repository(node.left)
        )
        or (isinstance(node, ast.Name) and node.id in {"load_vocabulary", "SCHEMA_DIR"})
        for node in ast.walk(tree)
    )


def _unguarded(source: str) -> list[int]:
    tree = ast.parse(source)
    return _raw_validators(tree) if _reads_schema_dir(tree) else []


def test_oracles_over_schema_dir_read_patterns_as_ecma() -> None:
    """No test builds a plain jsonschema validator over schema/: it would read ``$`` as Python."""
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path.name != _ORACLE_MODULE and (lines := _unguarded(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"use tests/{_ORACLE_MODULE} for these validators (file: lines)"


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ('import jsonschema\nS = ROOT / "schema"\njsonschema.Draft202012Validator(s)', [3]),
        ("from jsonschema import validate\nload_vocabulary(d, g)\nvalidate(p, s)", [3]),
        ("import jsonschema as j\nx = SCHEMA_DIR\nj.validators.validator_for(s)", [3]),
        ('import jsonschema\nx = "schema/a.json"\njsonschema.Draft202012Validator(s)', []),
        ('from jsonschema import Draft202012Validator as V\nf(ROOT / "schema")\nV(s)', [3]),
        (
            'import jsonschema\nS = R / "schema"\njsonschema.Draft202012Validator.check_schema(s)',
            [],
        ),
        ('from ecma_jsonschema import validator\nS = R / "schema"\nvalidator(s)', []),
        ('import jsonschema\nS = R / "out.json"\njsonschema.Draft202012Validator(s)', []),
        ('import jsonschema\nS = tmp / "schema"\njsonschema.Draft202012Validator(s)', []),
        (
            'import jsonschema\nS = Path(__file__).parents[1] / "schema"\n'
            "jsonschema.Draft202012Validator(s)",
            [3],
        ),
    ],
)
def test_the_oracle_guard_finds_plain_validators(source: str, flagged: list[int]) -> None:
    assert _unguarded(source) == flagged


# ---------------------------------------------------------------------------
# Grammar
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def grammar() -> Lark:
    return Lark(GRAMMAR.read_text(), parser="lalr")


def _accepts(grammar: Lark, line: str) -> bool:
    try:
        grammar.parse(line)
    except LarkError:
        return False
    return True


def test_grammar_house_style() -> None:
    text = GRAMMAR.read_text()
    assert text.startswith("// signal.lark: ")
    assert "// ----" in text
    for match in re.finditer(r"^\??([A-Za-z_]+)(?:\.\d+)?\s*:", text, re.MULTILINE):
        name = match.group(1)
        assert name.islower() or name.isupper(), f"{name}: rules lowercase, TERMINALS uppercase"


@pytest.mark.parametrize(
    ("line", "accepted"),
    [
        ("BERNSTEIN:COMPLETED", True),
        ("BERNSTEIN:COMPLETED {}", True),
        ("BERNSTEIN:PLAN_DRAFT {}", True),
        ("BERNSTEIN:K9_X {}", True),
        ('BERNSTEIN:X {"a": [1, -0.5e+3, true, false, null, {"b": "\\u00e9\\n"}]}', True),
        ('BERNSTEIN:X {\t"a" :1 , "a":2\t}', True),  # tabs; duplicate keys are grammatical
        ('BERNSTEIN:X {"a":"\u2028"}', True),  # raw U+2028 is valid JSON
        ("BERNSTEIN:COMPLETED{}", False),
        ("BERNSTEIN:COMPLETED  {}", False),
        ("BERNSTEIN:COMPLETED\t{}", False),
        ("BERNSTEIN:COMPLETED ", False),
        ("BERNSTEIN:COMPLETED {} ", False),
        ("BERNSTEIN:COMPLETED {}x", False),
        (" BERNSTEIN:COMPLETED", False),
        ("BERNSTEIN: COMPLETED", False),
        ("bernstein:COMPLETED", False),
        ("BERNSTEIN:completed", False),
        ("BERNSTEIN:_X", False),
        ("BERNSTEIN:", False),
        ("BERNSTEIN:X []", False),
        ("BERNSTEIN:X null", False),
        ("BERNSTEIN:X 1", False),
        ('BERNSTEIN:X "s"', False),
        ('BERNSTEIN:X {"a":01}', False),
        ('BERNSTEIN:X {"a":+1}', False),
        ('BERNSTEIN:X {"a":.5}', False),
        ('BERNSTEIN:X {"a":5.}', False),
        ('BERNSTEIN:X {"a":NaN}', False),
        ('BERNSTEIN:X {"a":Infinity}', False),
        ('BERNSTEIN:X {"a":-Infinity}', False),
        ('BERNSTEIN:X {"a":"\\x41"}', False),
        ("BERNSTEIN:X {\"a\":'s'}", False),
        ('BERNSTEIN:X {"a":"\t"}', False),  # raw control character in a string
        ('BERNSTEIN:X {"a":1,}', False),
        ('BERNSTEIN:X {"a"}', False),
        ("BERNSTEIN:X {a:1}", False),
        ('BERNSTEIN:X {"a":tru}', False),
        ('BERNSTEIN:X {\r"a":1}', False),  # CR is a line terminator, not whitespace here
        ('BERNSTEIN:X {"a":1}\n', False),  # terminators are the reader's business
    ],
)
def test_grammar_lines(grammar: Lark, line: str, accepted: bool) -> None:
    assert _accepts(grammar, line) is accepted


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ('"x-deep": ' + "[" * 100_000 + "]" * 100_000, r"\[json\] nested too deeply to read"),
        ('"allOf": [' + '{"not": ' * 70 + "{}" + "}" * 70 + "]", r"nests deeper than 64 JSON"),
    ],
)
def test_a_deeply_nested_schema_is_refused_in_one_line(
    tmp_path: Path, tail: str, message: str
) -> None:
    """Schema checks and the compilers recurse on a schema: its depth is bounded first."""

    schema_dir = tmp_path / "schema"
    schema_dir.mkdir()
    for path in SCHEMA_DIR.iterdir():
        (schema_dir / path.name).write_bytes(path.read_bytes())
    text = (SCHEMA_DIR / "failed.schema.json").read_text(encoding="utf-8").rstrip()
    (schema_dir / "failed.schema.json").write_text(text[:-1] + ", " + tail + "}", encoding="utf-8")
    with pytest.raises(SourceError, match=message) as caught:
        load_vocabulary(schema_dir, GRAMMAR)
    assert "failed.schema.json" in str(caught.value)
