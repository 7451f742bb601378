"""Issue 23, item 7: a pattern that backtracks superlinearly is refused when a vocabulary loads.

``generate``, ``validate --vocabulary`` and the language server's
``--vocabulary`` all load the folder first, so each refuses the pattern in the
same one line (file, JSON pointer of the pattern, the construct), before any
binding or jsonschema (the examples check) runs it. The settings path of the
language server is in ``tests/vocabulary/test_vocabulary_lsp.py``.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.pattern_cost import (
    MAX_LOOKAHEAD_LENGTH,
    MAX_POSITIONS,
    MAX_READINGS,
    check_linear,
)
from bernstein_signals_toolkit.generator.subschemas import pattern_sites
from bernstein_signals_toolkit.toolkit_errors import SourceError
from generator.hostile_sources_support import make_sources

ROOT = Path(__file__).resolve().parents[2]
NESTED = f"can read the same text in more than {MAX_READINGS} ways (a quantifier inside"
OVERLAP = f"the pattern can read the same text in more than {MAX_READINGS} ways by the time"
UNANCHORED = "the pattern has no ^, so it is tried from every offset of the value"

HOSTILE: dict[str, str] = {
    # The pattern, and nested quantifiers in every spelling.
    "^(?:[A-Za-z_ ]+)+$": f"the repetition `(?:[A-Za-z_ ]+)+` {NESTED}",
    "^(a+)+$": f"the repetition `(a+)+` {NESTED}",
    "^(a*)*$": f"the repetition `(a*)*` {NESTED}",
    "^(a+)*$": f"the repetition `(a+)*` {NESTED}",
    "^(a{1,}){2,}$": f"the repetition `(a{{1,}}){{2,}}` {NESTED}",
    "^(?:a?a?)*$": f"the repetition `(?:a?a?)*` {NESTED}",
    "^(?:(?:a|b)+c?)+$": f"the repetition `(?:(?:a|b)+c?)+` {NESTED}",
    "^(?:\\w+\\s?)+$": f"the repetition `(?:\\w+\\s?)+` {NESTED}",
    # Alternatives that overlap under a repetition.
    "^(?:a|aa)+$": f"the repetition `(?:a|aa)+` {NESTED}",
    "^(a|a)*$": f"the repetition `(a|a)*` {NESTED}",
    "^(?:[a-z]|[aeiou])*$": f"the repetition `(?:[a-z]|[aeiou])*` {NESTED}",
    # Neighbouring repetitions of the same characters: polynomial.
    "^a*a*$": f"{OVERLAP} it reaches `a*`",
    "^[a-z]+[a-z0-9]*$": f"{OVERLAP} it reaches `[a-z0-9]*`",
    "^\\d*\\d+\\d*$": f"{OVERLAP} it reaches",
    # Bounded but exponential in the pattern's size.
    "^(?:a?){24}a{24}$": f"the repetition `(?:a?){{24}}` {NESTED}",
    # Unanchored: tried from every offset, each reading on to the end.
    "[a-z]+x": f"{UNANCHORED}, and `[a-z]+` reads on each time",
    "[0-9]+(\\.[0-9]+){3}": f"{UNANCHORED}, and `[0-9]+` reads on each time",
    # A lookahead that reads unboundedly runs again at every offset.
    "^(?:(?=[a-z]*X)[a-z])*$": f"the lookahead `(?=[a-z]*X)` can read more than"
    f" {MAX_LOOKAHEAD_LENGTH} characters",
    "^(?=(?:a|a){20}b)": f"the repetition `(?:a|a){{20}}` {NESTED}",
    # Backreferences and lookbehind: never translated, now refused at load.
    "^(a+)\\1$": "backreferences are not supported",
    "(?<=a)b": "lookbehind is not supported",
    # Too large to check: refused, not analysed for long.
    "^(?:" + "|".join(chr(0x100 + n) for n in range(MAX_POSITIONS)) + ")$": (
        f"the pattern is too large to check for linear time (over {MAX_POSITIONS} characters"
    ),
}
ACCEPTED = (
    "^[a-z]+(-[a-z]+)*$",
    "^([a-z]+-)?[a-z]+$",
    "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$",
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}$",
    "^(?:a|b|c)*$",
    "^.*$",
    "^[a-z]{1,2000}$",
    "[^a]",
    "a$",
    "c{2}",
    "",
    "^(?!\\.\\.?(?:/|$))[^/]+$",
)


def _with_pattern(schema: Path, pattern: str) -> None:
    """The blocked kind's ``reason`` carries ``pattern`` (its examples may not match it)."""
    path = schema / "blocked.schema.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["properties"]["reason"]["pattern"] = pattern
    path.write_text(json.dumps(document), encoding="utf-8")


def _cli(*args: str) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(list(args))
    return status, stdout.getvalue(), stderr.getvalue()


def _line(schema: Path, detail: str) -> str:
    """The start of what a maintainer sees, up to and including ``detail``."""
    return (
        f"bernstein-signals: error: {schema}/blocked.schema.json: [pattern]"
        f" at /properties/reason/pattern: {detail}"
    )


@pytest.mark.parametrize("pattern", sorted(HOSTILE))
def test_generate_and_validate_refuse_the_pattern_in_one_line(tmp_path: Path, pattern: str) -> None:
    schema, grammar = make_sources(tmp_path, [])
    _with_pattern(schema, pattern)
    expected = _line(schema, HOSTILE[pattern])
    out = tmp_path / "out"
    status, stdout, stderr = _cli(
        "generate", "--schema", str(schema), "--grammar", str(grammar), "--out", str(out)
    )
    assert (status, stdout) == (2, "")
    assert stderr.startswith(expected), stderr
    assert stderr.count("\n") == 1, stderr
    assert stderr.endswith(" of the pattern\n"), stderr
    assert not out.exists()
    lines = tmp_path / "lines.txt"
    lines.write_text('BERNSTEIN:BLOCKED {"reason":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}\n')
    assert _cli("validate", "--vocabulary", str(schema), str(lines)) == (2, "", stderr)


def test_the_language_server_refuses_the_folder_before_serving(tmp_path: Path) -> None:
    schema, _grammar = make_sources(tmp_path, [])
    pattern = "^(?:[A-Za-z_ ]+)+$"
    _with_pattern(schema, pattern)
    result = subprocess.run(
        [sys.executable, "-m", "bernstein_signals_toolkit.cli", "lsp", "--vocabulary", str(schema)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert (result.returncode, result.stdout) == (2, b"")
    expected = _line(schema, HOSTILE[pattern])
    assert result.stderr.decode().startswith(expected)
    assert result.stderr.count(b"\n") == 1


_SITES: dict[str, tuple[Callable[[dict[str, Any], str], object], str]] = {
    "properties": (
        lambda d, p: d["properties"]["reason"].update(pattern=p),
        "/properties/reason/pattern",
    ),
    "patternProperties key": (
        lambda d, p: d.update(patternProperties={p: {"type": "string"}}),
        "/patternProperties/^(a+)+$",
    ),
    "items": (
        lambda d, p: d["properties"].update(
            tags={"description": "Tags.", "type": "array", "items": {"pattern": p}}
        ),
        "/properties/tags/items/pattern",
    ),
    "$defs through $ref": (
        lambda d, p: (
            d.update({"$defs": {"word": {"type": "string", "pattern": p}}}),
            d["properties"]["reason"].update({"$ref": "#/$defs/word"}),
        ),
        "/$defs/word/pattern",
    ),
    "anywhere through $ref": (
        lambda d, p: (
            d.update({"x-stash": {"type": "string", "pattern": p}}),
            d["properties"]["reason"].update({"$ref": "#/x-stash"}),
        ),
        "/x-stash/pattern",
    ),
    "unevaluatedProperties": (
        lambda d, p: d.update(unevaluatedProperties={"pattern": p}),
        "/unevaluatedProperties/pattern",
    ),
}


@pytest.mark.parametrize("site", sorted(_SITES))
def test_a_pattern_anywhere_a_validator_applies_it_is_refused_before_the_examples(
    tmp_path: Path, site: str
) -> None:
    """An example that makes the pattern backtrack exponentially: load refuses first."""
    schema, grammar = make_sources(tmp_path, [])
    path = schema / "blocked.schema.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    put, pointer = _SITES[site]
    put(document, "^(a+)+$")
    document["examples"][0]["reason"] = "a" * 28 + "!"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SourceError) as refused:
        load_vocabulary(schema, grammar)
    assert refused.value.rule == "pattern"
    assert refused.value.detail.startswith(f"at {pointer}: the repetition `(a+)+` {NESTED}")


def test_a_pattern_in_an_example_value_is_not_a_pattern() -> None:
    document = {"examples": [{"pattern": "(a+)+"}], "const": {"pattern": "(a+)+"}}
    assert list(pattern_sites(document)) == []


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_patterns_whose_next_character_decides_the_way_are_accepted(pattern: str) -> None:
    check_linear(pattern)


def test_every_pattern_of_the_project_and_its_examples_is_accepted() -> None:
    """The project's own schemas and the example vocabularies load with the rule in force."""
    found = [
        (path, pattern)
        for folder in (ROOT / "schema", *sorted((ROOT / "examples").rglob("schema")))
        for path in sorted(folder.glob("*.schema.json"))
        for _pointer, pattern in pattern_sites(json.loads(path.read_text(encoding="utf-8")))
    ]
    assert len({pattern for _path, pattern in found}) >= 2
    for _path, pattern in found:
        check_linear(pattern)
    load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")
