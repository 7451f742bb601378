"""The Python binding over the shared line corpus and over JSONTestSuite.

Cases listed in tests/corpus/known_failures.toml for the consumer "python"
must fail; a listed case that passes fails the suite, so the list stays true.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bernstein_signals import parse_signal, validate_payload

TESTS = Path(__file__).resolve().parents[1]
LINES = TESTS / "corpus" / "lines"
JSON_TEST_SUITE = TESTS / "data" / "JSONTestSuite" / "test_parsing"
KNOWN_FAILURES: dict[str, dict[str, str]] = tomllib.loads(
    (TESTS / "corpus" / "known_failures.toml").read_text(encoding="utf-8")
)
CONSUMER = "python"

# i_ files: the binding's decision for each, with why (README: "Python binding").
IMPLEMENTATION_DEFINED = {
    "i_number_double_huge_neg_exp.json": (True, "underflows to 0.0, inside the double range"),
    "i_number_real_underflow.json": (True, "underflows to 0.0, inside the double range"),
    "i_number_too_big_neg_int.json": (True, "Python ints are exact; under 4300 digits"),
    "i_number_too_big_pos_int.json": (True, "Python ints are exact; under 4300 digits"),
    "i_number_very_big_negative_int.json": (True, "Python ints are exact; under 4300 digits"),
    "i_number_huge_exp.json": (False, "limit: outside the double range"),
    "i_number_neg_int_huge_exp.json": (False, "limit: outside the double range"),
    "i_number_pos_double_huge_exp.json": (False, "limit: outside the double range"),
    "i_number_real_neg_overflow.json": (False, "limit: outside the double range"),
    "i_number_real_pos_overflow.json": (False, "limit: outside the double range"),
    "i_structure_500_nested_arrays.json": (False, "limit: nesting deeper than 64"),
    "i_structure_UTF-8_BOM_empty_object.json": (False, "grammar: a BOM is not whitespace"),
}
# The rest are lone surrogates (escaped, or raw from bytes that are not UTF-8:
# a Python reader decoding with surrogateescape gets lone surrogates) or
# UTF-16: all refused.


def _outcome(case: str, passed: bool) -> None:
    key = f"{CONSUMER}/{case}"
    if key in KNOWN_FAILURES:
        assert not passed, f"{key} is listed as a known failure but passes: remove it"
    else:
        assert passed, f"{case}: unexpected verdict"


def _read_line(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "surrogateescape")


@pytest.mark.parametrize("path", sorted(LINES.glob("*.line")), ids=lambda path: path.name)
def test_corpus_line(path: Path) -> None:
    verdict = path.name.split("__", 1)[0]
    line = _read_line(path)
    strict, lenient = parse_signal(line), parse_signal(line, lenient=True)
    if verdict == "plain":
        passed = strict is None and lenient is None
    elif lenient is None or (strict is None) != (verdict == "lenient"):
        passed = False
    else:
        schema_ok = not validate_payload(lenient.kind, lenient.payload)
        passed = schema_ok == (verdict != "invalid") and (strict is None or strict == lenient)
    _outcome(path.name, passed)


def test_corpus_names_carry_a_verdict() -> None:
    verdicts = {path.name.split("__", 1)[0] for path in LINES.iterdir()}
    assert verdicts == {"valid", "invalid", "lenient", "plain"}
    assert all(path.suffix == ".line" for path in LINES.iterdir())


def test_known_failures_name_existing_cases() -> None:
    cases = {path.name for path in LINES.iterdir()} | {p.name for p in JSON_TEST_SUITE.iterdir()}
    for key, entry in KNOWN_FAILURES.items():
        assert key.split("/", 1)[1] in cases, key
        assert entry.get("reason"), key


def _embedded(path: Path) -> list[str]:
    """The file's content as a payload value, and as the payload itself when it is an object."""
    content = _read_line(path)
    lines = ['BERNSTEIN:COMPLETED {"v":' + content + "}"]
    if content.startswith("{"):
        lines.append("BERNSTEIN:COMPLETED " + content)
    return lines


@pytest.mark.parametrize("path", sorted(JSON_TEST_SUITE.iterdir()), ids=lambda path: path.name)
def test_json_test_suite(path: Path) -> None:
    accepted = [parse_signal(line) is not None for line in _embedded(path)]
    if path.name.startswith("y_"):
        passed = all(accepted)
    elif path.name.startswith("n_"):
        passed = not any(accepted)
    else:
        expected, _reason = IMPLEMENTATION_DEFINED.get(path.name, (False, "lone surrogate"))
        passed = all(verdict == expected for verdict in accepted)
    _outcome(path.name, passed)
