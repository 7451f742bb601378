"""One home for each rule (issue 13): guards that fail if a second copy of a rule comes back.

Where behaviour can tell (severities), the rule is driven; where it cannot (a
constant spelled out again), the toolkit's source is scanned.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.tools.validate import (
    CODES,
    LineChecker,
    Severity,
    conformance_report,
)
from bernstein_signals_toolkit.tools.validate.payload_file import payload_report

ROOT = Path(__file__).resolve().parents[1]
TOOLKIT = ROOT / "codegen/bernstein_signals_toolkit"
LOGS = ROOT / "tests" / "corpus" / "logs"
_CODE = re.compile(r"BS\d{3}")


def _toolkit_modules() -> list[Path]:
    """The toolkit's hand-written modules (templates are the binding's: scanned apart)."""
    return sorted(
        p for p in TOOLKIT.rglob("*.py") if "binding_runtime" not in p.relative_to(TOOLKIT).parts
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

_BUILDS = frozenset({"Diagnostic", "build_diagnostic", "replace"})
"""Calls that make a validator Diagnostic (lsp.Diagnostic is the protocol's, converted)."""
SEVERITY_OVERRIDES = {
    ("tools/validate/lines.py", "LineChecker._unknown_kind"),  # BS216: the --unknown-kinds setting
    (
        "tools/validate/lines.py",
        "_lenient_only",
    ),  # lenient mode: lenient-only deviations are information
    ("tools/validate/report.py", "StreamChecker._live_question"),  # live BS305 is an error
    (
        "tools/validate/payload_file.py",
        "_Lines.diagnostic",
    ),  # a payload file: every problem an error
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
            if constructor and module != "tools/validate/diagnostics.py":
                builders.append(f"{module}:{call.lineno} ({where})")
            builds = isinstance(call.func, ast.Name) and call.func.id in _BUILDS
            if builds and any(keyword.arg == "severity" for keyword in call.keywords):
                overrides.add((module, where))
    assert builders == [], "build diagnostics with validate.diagnostics.build_diagnostic"
    assert overrides <= SEVERITY_OVERRIDES, overrides - SEVERITY_OVERRIDES
    assert overrides == SEVERITY_OVERRIDES, "a listed override is gone: update the list"


def test_no_severity_literal_disagrees_with_the_table() -> None:
    """A call that names a code and a severity literal (a Finding, say) agrees with the row."""
    wrong: list[str] = []
    for path in _toolkit_modules():
        module = path.relative_to(TOOLKIT).as_posix()
        if module == "tools/validate/codes.py":
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


# ---------------------------------------------------------------------------
# Small rules with one home (issue 13 item 4)
# ---------------------------------------------------------------------------


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (a module's, class's, function's
    or an attribute's): prose may name the prefix, code may not.
    """
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def test_no_tool_spells_the_signal_prefix() -> None:
    """The prefix is the grammar's (a vocabulary's ``prefix``), never a literal in the tools."""
    spelled: list[str] = []
    for path in _toolkit_modules():
        module = path.relative_to(TOOLKIT).as_posix()
        if (
            not module.startswith(("tools/lsp/", "tools/validate/"))
            or module == "tools/validate/codes.py"
        ):
            continue  # codes.py's examples are documentation
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, (str, bytes))
                and id(node) not in prose
                and ("BERNSTEIN" in str(node.value) or str(node.value) == "ernstein")
            ):
                spelled.append(f"{module}:{node.lineno}")
    assert spelled == []


def test_line_bounds_default_to_the_binding_constant() -> None:
    """No ``max_line_bytes`` (a parameter, field or keyword) defaults to a number written out:
    the default is ``bernstein_signals.scanning.DEFAULT_MAX_LINE_BYTES``.
    """
    written: list[str] = []

    def literal(node: ast.expr | None) -> bool:
        return isinstance(node, (ast.Constant, ast.BinOp)) and not (
            isinstance(node, ast.Constant) and node.value is None
        )

    for path in _toolkit_modules():
        module = path.relative_to(TOOLKIT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            pairs: list[tuple[str, ast.expr | None]] = []
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                pairs.append((node.target.id, node.value))
            elif isinstance(node, ast.keyword) and node.arg:
                pairs.append((node.arg, node.value))
            elif isinstance(node, ast.arguments):
                positional = [*node.posonlyargs, *node.args]
                defaults = [None] * (len(positional) - len(node.defaults)) + node.defaults
                pairs += [(a.arg, d) for a, d in zip(positional, defaults, strict=True)]
                pairs += [
                    (a.arg, d) for a, d in zip(node.kwonlyargs, node.kw_defaults, strict=True)
                ]
            for name, value in pairs:
                if name == "max_line_bytes" and literal(value):
                    written.append(f"{module}:{getattr(value, 'lineno', '?')}")
    assert written == []


HOOKS = {
    "object_pairs_hook": {"generator/load.py", "tools/validate/payload_text.py"},
    "parse_constant": {
        "generator/load.py",
        "tools/validate/_limits.py",
        "generator/binding_runtime/python/_strict_json.py",
    },
}
"""Who decodes JSON with a hook, per hook: the generator's source loader (which must not
import the binding it writes), the validator's one detector of each, the binding's reader."""


def test_each_json_hook_has_one_home_per_purpose() -> None:
    found: dict[str, set[str]] = {hook: set() for hook in HOOKS}
    for path in sorted(TOOLKIT.rglob("*.py")):
        module = path.relative_to(TOOLKIT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg in HOOKS:
                found[node.arg].add(module)
    assert found == HOOKS


_KEY = st.sampled_from(["a", "b", "question", "é", "x y"])
_OBJECT = st.lists(st.tuples(_KEY, st.integers(0, 9) | st.text(max_size=3)), max_size=6)


@settings(max_examples=100)
@given(_OBJECT, _OBJECT)
def test_lines_and_payload_files_find_the_same_duplicate_keys(
    outer: list[tuple[str, object]], inner: list[tuple[str, object]]
) -> None:
    """One detector: a payload's repeated keys (in any object) are the same on a signal line
    (one BS213 per key) and in a payload file (one BS213 naming them all).
    """
    members = [json.dumps(k) + ":" + json.dumps(v) for k, v in outer]
    members.append(
        '"nested":{' + ",".join(json.dumps(k) + ":" + json.dumps(v) for k, v in inner) + "}"
    )
    payload = "{" + ",".join(members) + "}"
    _, diagnostics = LineChecker().check(f"BERNSTEIN:COMPLETED {payload}", 1)
    on_line = {d.message.split("'")[1] for d in diagnostics if d.code == "BS213"}  # repr'd
    report = payload_report(payload, "COMPLETED", enabled=frozenset(CODES))
    in_file = [d for d in report.diagnostics if d.code == "BS213"]
    expected = {k for k, _ in outer if [x for x, _ in outer].count(k) > 1}
    expected |= {k for k, _ in inner if [x for x, _ in inner].count(k) > 1}
    assert on_line == expected
    if expected:
        (found,) = in_file
        assert found.message.endswith(", ".join(sorted(expected)))
    else:
        assert in_file == []


def _crlf_tests(path: Path) -> list[tuple[str, int]]:
    """Where a module tests text for a "\\r\\n": ``endswith`` with it, or a comparison
    (``==``, ``in``) against it or a tuple holding it, with the function it is in.
    """
    found: list[tuple[str, int]] = []

    def crlf(node: ast.expr) -> bool:
        if isinstance(node, ast.Tuple):
            return any(crlf(item) for item in node.elts)
        return isinstance(node, ast.Constant) and node.value in ("\r\n", b"\r\n")

    def walk(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = f"{where}.{child.name}" if where else child.name
            if (
                isinstance(child, ast.Call)
                and _name(child.func) == "endswith"
                and any(crlf(a) for a in child.args)
            ) or (isinstance(child, ast.Compare) and any(crlf(c) for c in child.comparators)):
                found.append((where, child.lineno))
            walk(child, inner)

    walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_one_function_drops_a_line_terminator() -> None:
    """Only bernstein_signals.scanning.strip_terminator tests a line for a "\\r\\n" end."""
    copies = [
        f"{module}:{line} ({where})"
        for path in sorted(TOOLKIT.rglob("*.py"))
        for module in [path.relative_to(TOOLKIT).as_posix()]
        for where, line in _crlf_tests(path)
        if (module, where) != ("generator/binding_runtime/python/scanning.py", "strip_terminator")
    ]
    assert copies == [], "use bernstein_signals.scanning.strip_terminator"


def test_the_terminator_guard_sees_endswith_and_comparisons(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def a(t):\n    return t.endswith('\\r\\n')\n"
        "def b(t):\n    return t[-2:] in ('\\r\\n', b'\\r\\n')\n"
        "def c(t):\n    return t[-2:] == b'\\r\\n'\n"
        "def d(t):\n    return t.endswith('\\n')\n",
        encoding="utf-8",
    )
    assert [where for where, _ in _crlf_tests(sample)] == ["a", "b", "c"]


@pytest.mark.parametrize("cls", [str, bytes])
def test_strip_terminator_drops_exactly_one_terminator(cls: type) -> None:
    from bernstein_signals.scanning import strip_terminator

    def check(line: str, bare: str) -> None:
        if cls is str:
            assert strip_terminator(line) == bare
        else:
            assert strip_terminator(line.encode()) == bare.encode()

    for line, bare in [("a\n", "a"), ("a\r\n", "a"), ("a\r", "a\r"), ("a\n\n", "a\n"), ("", "")]:
        check(line, bare)
    check("a\r\r\n", "a\r")


def test_the_packaged_sources_folder_has_one_home() -> None:
    """pyproject.toml cannot import a constant: its force-include targets are held to
    sources.PACKAGED_SOURCES_DIR and the paths under it that sources.py reads.
    """
    import tomllib

    from bernstein_signals_toolkit.generator.sources import (
        GRAMMAR_FILE,
        OUTPUT_DIR,
        PACKAGED_SOURCES_DIR,
        SCHEMA_DIR,
        SHELL_LIBRARY,
    )

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    packaged = f"{TOOLKIT.name}/{PACKAGED_SOURCES_DIR}"
    grammar_dir = GRAMMAR_FILE.rsplit("/", 1)[0]
    shell_dir = SHELL_LIBRARY.rsplit("/", 1)[0]
    assert included == {
        SCHEMA_DIR: f"{packaged}/{SCHEMA_DIR}",
        grammar_dir: f"{packaged}/{grammar_dir}",
        f"{OUTPUT_DIR}/{shell_dir}": f"{packaged}/{shell_dir}",
    }
    spelled = [
        path.relative_to(TOOLKIT).as_posix()
        for path in _toolkit_modules()
        if f'"{PACKAGED_SOURCES_DIR}"' in path.read_text(encoding="utf-8")
    ]
    assert spelled == ["generator/sources.py"]


def test_one_hand_written_json_lexer() -> None:
    """The string token (a quote, then non-quote non-backslash runs or escapes) is written
    once, in the binding's _strict_json; the validator and the language server import it.
    """
    lexers = [
        f"{path.relative_to(TOOLKIT).as_posix()}:{node.lineno}"
        for path in sorted(TOOLKIT.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and '[^"\\' in node.value
    ]
    assert [entry.split(":")[0] for entry in lexers] == [
        "generator/binding_runtime/python/_strict_json.py"
    ]


@settings(max_examples=300)
@given(st.text(), st.booleans())
def test_the_json_string_token_is_a_json_string(text: str, ascii_only: bool) -> None:
    """Differential against json: any string json writes is one whole token, read back the same;
    an unfinished one runs to the end of the text.
    """
    from bernstein_signals._strict_json import JSON_STRING, JSON_TOKEN

    written = json.dumps(text, ensure_ascii=ascii_only)
    match = JSON_STRING.match(written)
    assert match is not None
    assert match.end() == len(written)
    assert json.loads(match.group()) == text
    assert JSON_STRING.match(written[:-1]).end() == len(written) - 1  # type: ignore[union-attr]
    tokens = [m.group() for m in JSON_TOKEN.finditer("[" + written + ",{}]")]
    assert tokens == ["[", written, "{", "}", "]"]


def test_the_plan_folder_is_the_schemas() -> None:
    """The plan folder's one home is the schemas' path pattern; the binding's PLAN_DIR and the
    shell emitter's recogniser of the rule are held to it (both are copied verbatim, so a
    test, not an import, keeps them equal).
    """
    from bernstein_signals.plans import PLAN_DIR
    from bernstein_signals_toolkit.generator.shell_checks import SDD_PATH_PATTERN

    patterns = set()
    for path in sorted((ROOT / "schema").glob("*.schema.json")):
        for prop in json.loads(path.read_text(encoding="utf-8")).get("properties", {}).values():
            pattern = prop.get("pattern", "") if isinstance(prop, dict) else ""
            if "sdd" in pattern:
                patterns.add(pattern)
    assert patterns == {SDD_PATH_PATTERN}
    assert SDD_PATH_PATTERN.startswith("^" + re.escape(PLAN_DIR) + "(?:/")


def test_the_fence_codes_have_one_home() -> None:
    """BS601-BS603 are the binding's verdict codes (``fence_rules``); the tools read them there."""
    spelled: list[str] = []
    for path in _toolkit_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = _docstrings(tree)
        spelled += [
            f"{path.relative_to(TOOLKIT).as_posix()}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in prose
            and re.fullmatch(r"BS60\d", node.value)
        ]
    assert spelled == []
