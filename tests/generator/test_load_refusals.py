"""``load`` refuses what ``generate`` refuses, so schema, validate and the LSP agree with it.

Every hostile vocabulary of the generator's suite is loaded: a refusal by
``load_vocabulary`` must be exactly the line ``generate`` prints, and a source
``load`` accepts may be refused by an emitter only for a reason of its own
target (a rule in ``TARGET_RULES``, the line ending in ``(target NAME)``). A
rule that holds for every target but is checked only in the emitters fails here.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.generator.keywords import KEYWORDS
from bernstein_signals_toolkit.generator.load import load_grammar, load_vocabulary
from bernstein_signals_toolkit.generator.pipeline import render_sources
from bernstein_signals_toolkit.toolkit_errors import SourceError, ToolkitError
from generator.hostile_sources_support import HOSTILE, OWN_NAMES, SLOTS, Slot, make_sources

ROOT = Path(__file__).resolve().parents[2]
TOOLKIT = ROOT / "codegen/bernstein_signals_toolkit"

TARGET_RULES = frozenset({"python-name", "shell-name", "shell", "keyword"})
"""Rules only an emitter checks: what one target's language cannot carry."""

_FAST_TARGETS = ("docs", "shell")
"""Rendered for every case; the Python target (a datamodel-code-generator run) for fewer."""
_PYTHON_TEXTS = frozenset({'"', "nul\x00here"})
"""With the name slots' OWN_NAMES, the cases the Python target is rendered for too."""


def _python_too(slot: Slot, text: str) -> bool:
    return text in _PYTHON_TEXTS or (
        slot.name in {"kind name", "property name"} and text in OWN_NAMES
    )


def _cases() -> list[tuple[Slot, str]]:
    return [(slot, text) for slot in SLOTS for text in (*HOSTILE, *OWN_NAMES)]


def _generate_error(schema: Path, grammar: Path, out: Path) -> tuple[int, str]:
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        status = main(
            ["generate", "--schema", str(schema), "--grammar", str(grammar), "--out", str(out)]
        )
    return status, stderr.getvalue()


def _refusal(schema: Path, grammar: Path, target: str | None = None) -> ToolkitError | None:
    """What ``load`` (no target) or rendering one target refuses, or None."""
    try:
        if target is None:
            load_vocabulary(schema, grammar)
        else:
            render_sources(schema, grammar, [target])
    except ToolkitError as exc:
        return exc
    return None


@pytest.mark.timeout(900)
def test_every_hostile_vocabulary_is_refused_by_load_as_by_generate(tmp_path: Path) -> None:
    refused_by_load = accepted = 0
    for index, (slot, text) in enumerate(_cases()):
        folder = tmp_path / str(index)
        schema, grammar = make_sources(folder, [(slot, text)])
        loaded = _refusal(schema, grammar)
        if loaded is not None:
            refused_by_load += 1
            status, stderr = _generate_error(schema, grammar, folder / "out")
            assert status == 2, (slot.name, text)
            assert stderr == f"bernstein-signals: error: {loaded}\n", (slot.name, text)
            assert not (folder / "out").exists()
        else:
            accepted += 1
            targets = (*_FAST_TARGETS, "python") if _python_too(slot, text) else _FAST_TARGETS
            for target in targets:
                refused = _refusal(schema, grammar, target)
                if refused is not None:
                    assert isinstance(refused, SourceError), (slot.name, text, str(refused))
                    assert refused.rule in TARGET_RULES, (slot.name, text, str(refused))
                    assert str(refused).endswith(f"(target {target})"), str(refused)
        shutil.rmtree(folder)
    # Both sides are exercised: lone surrogates, blank text, NUL in the prefix...
    assert refused_by_load > 20
    assert accepted > 300


def _schema_command(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", "-c", _SCHEMA_PROBE, str(site)],
        cwd=site,
        env={**os.environ},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


_SCHEMA_PROBE = (
    "import sys; sys.path.insert(0, sys.argv[1])\n"
    "from bernstein_signals_toolkit.cli import main\n"
    "sys.exit(main(['schema']))\n"
)


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("slot_name", "text"),
    [
        ("kind description", "\ud800"),
        ("vocabulary name", "lone \udfff"),
        ("prefix", "BERN\nSTEIN:"),
        ("prefix", "tab\t:"),
        ("examples", "\ud800"),
    ],
)
def test_the_schema_command_refuses_what_generate_refuses(
    tmp_path: Path, slot_name: str, text: str
) -> None:
    """An installed toolkit whose shipped sources generate would refuse: same line, exit 2."""
    slot = next(slot for slot in SLOTS if slot.name == slot_name)
    site = tmp_path / "site"
    package = site / "bernstein_signals_toolkit"
    shutil.copytree(TOOLKIT, package, ignore=shutil.ignore_patterns("__pycache__"))
    schema, grammar = make_sources(package / "_sources", [(slot, text)])
    status, generate_stderr = _generate_error(schema, grammar, tmp_path / "out")
    assert status == 2

    result = _schema_command(site)

    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert result.stderr == generate_stderr


_GRAMMAR = (ROOT / "grammar" / "signal.lark").read_text(encoding="utf-8")
_GRAMMAR_PIECES = st.sampled_from(
    [
        "/A{99999999999}/",
        "/(a|a)*$/",
        "/[/",
        "/(?P<x>a)(?P<x>b)/",
        "/\\\\p{L}/",
        '"\\ud800"',
        '"B:"i',
        "%import common.WORD\n",
        "%import .nowhere.X\n",
        "%ignore /x/\n",
        "%declare KIND\n",
        "(" * 2000,
        ")" * 2000,
        "KIND: /[A-Z]+/\n",
        "PREFIX: /B:/\n",
        "start: start\n",
        "?start: PREFIX\n",
        "\x00",
        "->",
        "~ 99999999",
        "{",
        "\n",
        " | ",
    ]
)


@pytest.mark.timeout(300)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cut=st.integers(min_value=0, max_value=len(_GRAMMAR)),
    pieces=st.lists(_GRAMMAR_PIECES | st.text(max_size=6), max_size=4),
)
def test_load_grammar_refuses_any_grammar_in_one_line(cut: int, pieces: list[str]) -> None:
    """Whatever text the grammar holds, loading it gives a grammar or a SourceError."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "signal.lark"
        path.write_text(_GRAMMAR[:cut] + "".join(pieces) + _GRAMMAR[cut:], "utf-8", "surrogatepass")
        refused = None
        try:
            load_grammar(path)
        except SourceError as exc:
            refused = str(exc)
        assert refused is None or "\n" not in refused


_ODD_STRINGS = st.sampled_from(
    ["a{99999999999}", "(", "[", "\\p{L}", "(?<=a)b", "\\", "$", "\ud800", "", "x" * 300, "^a$"]
)
_ODD_SCALARS = st.one_of(
    _ODD_STRINGS,
    st.sampled_from([10**400, -(10**400), 1e308, -1e308, 5e-324, 0, -1, 0.5, True, None]),
    st.integers(),
)
_ODD_JSON = st.recursive(
    _ODD_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_ODD_STRINGS | st.text(), inner),
    max_leaves=8,
)
_KEYWORD_NAMES = st.sampled_from([*sorted(KEYWORDS), "x-bernstein-message", "x-other", "nope"])


@pytest.mark.timeout(300)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(
        st.tuples(st.booleans(), _KEYWORD_NAMES, _ODD_JSON | _ODD_SCALARS), min_size=1, max_size=3
    )
)
def test_any_keyword_value_loads_or_is_refused_in_one_line(
    edits: list[tuple[bool, str, object]],
) -> None:
    """Odd values for any keyword, at the root or in a property: load and the fast emitters
    give a vocabulary, files or a one-line SourceError, never another exception."""
    with tempfile.TemporaryDirectory() as scratch:
        schema, grammar = make_sources(Path(scratch), [])
        path = schema / "blocked.schema.json"
        document = json.loads(path.read_text(encoding="utf-8"))
        # Inside the property first: a root edit may replace "properties" itself.
        for at_root, keyword, value in sorted(edits, key=lambda edit: edit[0]):
            (document if at_root else document["properties"]["reason"])[keyword] = value
        path.write_text(json.dumps(document), encoding="utf-8", errors="surrogatepass")
        for target in (None, *_FAST_TARGETS):
            refused = _refusal(schema, grammar, target)
            assert refused is None or isinstance(refused, SourceError), repr(refused)
            assert refused is None or "\n" not in str(refused)
            if refused is not None:
                break
