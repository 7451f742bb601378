"""Issue 11, item 5: no source string makes the generator run code, crash or shadow a name.

Every string slot of the sources gets hostile text. ``generate`` must exit 0
or 2 (one line on stderr); when it exits 0, the Python binding imports in
isolated mode and round-trips every example through its constructor, and the
shell library sources in all six shells and emits a line, with a sentinel
file showing whether any injected code ran. Each emitter is also rendered on
its own, so that a refusal by one target does not hide another's escaping.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.generator import shell_help
from bernstein_signals_toolkit.generator.emitters import EMITTERS, shell
from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.pipeline import render_sources, write
from bernstein_signals_toolkit.toolkit_errors import SourceError, ToolkitError
from generator.hostile_sources_support import (
    HOSTILE,
    NAME_SLOTS,
    ONE_LINE_ERROR,
    OWN_NAMES,
    SENTINEL,
    SLOTS,
    TEXT_SLOTS,
    Slot,
    check_python,
    check_shell,
    make_sources,
)
from shell_support import SHELLS, shell_command
from typescript.node_support import check_typescript

_FREE_TEXT = tuple(
    slot
    for slot in TEXT_SLOTS
    if slot.name
    not in {"version build metadata", "pattern", "enum value", "prefix", "$id", "rule message"}
)
"""Slots any text may fill: all of them at once, one hostile string per vocabulary.

The others have rules of their own (``$id`` is a URI reference to the metaschema)."""


def _generate(schema: Path, grammar: Path, out: Path) -> tuple[int, str]:
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        status = main(
            ["generate", "--schema", str(schema), "--grammar", str(grammar), "--out", str(out)]
        )
    return status, stderr.getvalue()


def _shell_facts(schema: Path, grammar: Path) -> tuple[str, str]:
    """The prefix and QUESTION's help text, as the sources define them."""
    vocabulary = load_vocabulary(schema, grammar)
    return vocabulary.grammar.prefix, shell_help.help_texts(vocabulary)["bernstein_question"]


def _typescript_facts(schema: Path, grammar: Path) -> dict[str, str]:
    """The prefix and version the TypeScript package must hold, as the sources define them."""
    vocabulary = load_vocabulary(schema, grammar)
    return {"prefix": vocabulary.grammar.prefix, "version": vocabulary.version}


def _check_generated(out: Path, schema: Path, grammar: Path, scratch: Path) -> None:
    prefix, help_text = _shell_facts(schema, grammar)
    check_python(out / "python", schema, scratch)
    check_typescript(out / "typescript", schema, _typescript_facts(schema, grammar), scratch)
    library = out / "shell" / "bernstein-signals.sh"
    for name in SHELLS:
        check_shell(shell_command(name), library, prefix, help_text, scratch)


def _check_each_target(schema: Path, grammar: Path, folder: Path, scratch: Path) -> None:
    """Each emitter alone: a one-line refusal, or output that is safe for its target."""
    try:
        load_vocabulary(schema, grammar)
    except ToolkitError:
        return
    for target in sorted(EMITTERS):  # every target: a new one without a check below fails
        try:
            files = render_sources(schema, grammar, [target])
        except ToolkitError as exc:
            refusal = str(exc)
            assert "\n" not in refusal.strip()
            continue
        out = folder / f"only-{target}"
        write(out, files)
        if target == "python":
            check_python(out / "python", schema, scratch)
        elif target == "typescript":
            facts = _typescript_facts(schema, grammar)
            check_typescript(out / "typescript", schema, facts, scratch)
        elif target == "shell":
            for name in SHELLS:
                library = out / "shell" / "bernstein-signals.sh"
                check_shell(shell_command(name), library, *_shell_facts(schema, grammar), scratch)
        elif target == "conformance":
            _check_conformance(out / "conformance")
        else:
            assert target == "docs", f"no hostile-source check for the target {target}"
            _check_docs((out / "docs" / "vocabulary.md").read_text(encoding="utf-8"))


def _check_conformance(folder: Path) -> None:
    """The kit's generated half: every JSON file parses, and its README's header comment
    closes on its own line (a first check; the kit's own tests check the vectors)."""
    files = sorted(path for path in folder.rglob("*") if path.is_file())
    assert files, folder
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            json.loads(text)
        elif path.suffix == ".md":
            assert text.startswith("<!--\n"), path
            assert text.index("-->") == text.index("\n-->\n") + 1, path


def _check_docs(text: str) -> None:
    """The header comment closes on its own line; outside code, no raw HTML from the sources."""
    assert text.startswith("<!--\n")
    assert text.index("-->") == text.index("\n-->\n") + 1
    prose = re.sub(r"(?ms)^(`{3,})$.*?^\1$", "", text.split("\n-->\n", 1)[1])
    prose = re.sub(r"(`+).*?\1", "", prose)
    for html in ("<script>", "<!--", "-->"):
        assert html not in prose


def _run(folder: Path, filled: list[tuple[Slot, str]]) -> int:
    scratch = folder / "scratch"
    scratch.mkdir()
    schema, grammar = make_sources(folder / "src", filled)
    status, stderr = _generate(schema, grammar, folder / "out")
    assert status in (0, 2), stderr
    if status == 2:
        assert ONE_LINE_ERROR.fullmatch(stderr), stderr
        assert not (folder / "out").exists()
        # One target's refusal must not hide another's escaping: each alone.
        _check_each_target(schema, grammar, folder, scratch)
    else:
        assert stderr == ""
        _check_generated(folder / "out", schema, grammar, scratch)
        _check_docs((folder / "out" / "docs" / "vocabulary.md").read_text(encoding="utf-8"))
    assert not (scratch / SENTINEL).exists()
    return status


@pytest.mark.timeout(600)
@pytest.mark.parametrize("text", HOSTILE, ids=[f"h{index}" for index in range(len(HOSTILE))])
def test_free_text_slots_take_any_text(tmp_path: Path, text: str) -> None:
    """Every free-text slot at once holds the hostile string; only NUL, lone surrogates
    and text a slot requires to be non-blank may be refused."""
    status = _run(tmp_path, [(slot, text) for slot in _FREE_TEXT])
    refusable = "\0" in text or "\ud800" in text or not text.strip()
    assert status == 0 or refusable


_STRUCTURAL_TEXTS = (
    '"',
    "\\",
    f"x\nimport os; os.mkdir({SENTINEL!r})\n#",
    f"$(touch {SENTINEL})",
    f"`touch {SENTINEL}`",
    f"'; touch {SENTINEL}; '",
    "a\u2028b",
    "nul\x00here",
)
"""A few of HOSTILE for the slots with rules of their own (each costs a generation)."""

_SHADOWING = {
    "property name": {"format_signal", "payload", "extras", "str", "if", "help"},
    "kind name": set(OWN_NAMES) - {"signal_kind", "payload", "extras"},
}
"""Which of OWN_NAMES each slot must refuse. A constructor's body names format_signal,
payload, extras and str; every shell function takes --help; ``if`` is a keyword.
A kind's function or payload type (SIGNAL -> SignalPayload) must take no name of the
binding, its modules or Python; ``signal_kind``, ``payload`` and ``extras`` are free
at module level (the enum is ``SignalKind``, the module ``payloads``)."""


@pytest.mark.timeout(600)
@pytest.mark.parametrize("slot", NAME_SLOTS, ids=[slot.name for slot in NAME_SLOTS])
def test_names_of_the_binding_are_refused(tmp_path: Path, slot: Slot) -> None:
    """A kind or property named after a name in use is refused with one line; others work."""
    for index, name in enumerate(OWN_NAMES):
        folder = tmp_path / str(index)
        folder.mkdir()
        status = _run(folder, [(slot, name)])
        assert status == (2 if name in _SHADOWING[slot.name] else 0), name


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    "slot_name",
    [
        "prefix",
        "pattern",
        "enum value",
        "$id",
        "rule message",
        "version build metadata",
        "property name",
        "kind name",
    ],
)
def test_structural_slots(tmp_path: Path, slot_name: str) -> None:
    """The slots with rules of their own: exit 0 or 2, and safe whenever they generate."""
    slot = next(slot for slot in SLOTS if slot.name == slot_name)
    for index, text in enumerate(_STRUCTURAL_TEXTS):
        folder = tmp_path / str(index)
        folder.mkdir()
        _run(folder, [(slot, text)])


def test_the_issues_cases(tmp_path: Path) -> None:
    """The four reported classes: two generate safely, two are refused."""
    by_name = {slot.name: slot for slot in SLOTS}
    cases = [
        ("vocabulary name", f"x\nimport os; os.mkdir({SENTINEL!r})\n#", 0),
        ("kind description", 'ends in a quote"', 0),
        ("prefix", f'$(touch {SENTINEL})`touch {SENTINEL}`"', 0),
        ("kind name", "format_signal", 2),
        ("property name", "format_signal", 2),
    ]
    for index, (name, text, expected) in enumerate(cases):
        folder = tmp_path / str(index)
        folder.mkdir()
        assert _run(folder, [(by_name[name], text)]) == expected, name


_TEXTS = st.sampled_from(HOSTILE + OWN_NAMES) | st.text(max_size=8)


@pytest.mark.timeout(600)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(filled=st.lists(st.tuples(st.sampled_from(SLOTS), _TEXTS), min_size=1, max_size=4))
def test_any_mix_of_slots(
    tmp_path_factory: pytest.TempPathFactory, filled: list[tuple[Slot, str]]
) -> None:
    _run(tmp_path_factory.mktemp("mix"), filled)


def test_generate_never_prints_a_traceback(tmp_path: Path) -> None:
    """The command itself, as a user runs it: status 2 and one line for a refused source."""
    by_name = {slot.name: slot for slot in SLOTS}
    schema, grammar = make_sources(tmp_path / "src", [(by_name["kind name"], "list")])
    command = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "generate"]
    result = subprocess.run(
        [
            *command,
            "--schema",
            str(schema),
            "--grammar",
            str(grammar),
            "--out",
            str(tmp_path / "o"),
        ],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert ONE_LINE_ERROR.fullmatch(result.stderr), result.stderr
    assert "[python-name] kind LIST" in result.stderr


def test_a_nul_past_the_word_check_is_still_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shell quoting itself refuses NUL: text a future check misses is a SourceError too."""
    by_name = {slot.name: slot for slot in SLOTS}
    schema, grammar = make_sources(tmp_path, [(by_name["kind description"], "a\0b")])
    monkeypatch.setattr(shell, "_check_words", lambda vocabulary: None)
    with pytest.raises(SourceError, match=r"question\.schema\.json: \[shell\] .*NUL"):
        shell.emit(load_vocabulary(schema, grammar))


def test_a_source_folder_named_in_no_encoding(tmp_path: Path) -> None:
    """Folder names reach every header: bytes that are not UTF-8 are shown escaped, not a crash."""
    schema, grammar = make_sources(tmp_path / "src", [])
    odd = schema.with_name(os.fsdecode(b"sch\xffema\nx"))
    schema.rename(odd)
    status, stderr = _generate(odd, grammar, tmp_path / "out")
    assert status == 0, stderr
    for path in ("python/bernstein_signals/kinds.py", "shell/bernstein-signals.sh"):
        lines = (tmp_path / "out" / path).read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# Generated by bernstein-signals from sch\\udcffema\\x0ax/")
    docs = (tmp_path / "out" / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    assert docs.splitlines()[1].startswith("Generated by bernstein-signals from sch\\udcffema")
