"""Standing guard: every validator and language-server entry point is total over hostile input.

Hypothesis builds documents from pieces that drive the checks down their
rare paths (prefixes, quotes, expansions, printf conversions, helper calls,
NUL, lone surrogates, invalid UTF-8) and asks at any position, including
negative ones and ones past the end. Nothing may raise, and every result must
point inside the document.
"""

from __future__ import annotations

import io
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp

from bernstein_signals_toolkit.tools.lsp import analysis, assist
from bernstein_signals_toolkit.tools.lsp.positions import edit_of
from bernstein_signals_toolkit.tools.lsp.server import SignalsLanguageServer
from bernstein_signals_toolkit.tools.validate import CODES, Diagnostic, conformance_report
from bernstein_signals_toolkit.tools.validate.lines import LineChecker
from bernstein_signals_toolkit.tools.validate.payload_file import payload_report
from bernstein_signals_toolkit.tools.validate.report import report_from_binary

_PIECES = [
    "BERNSTEIN:",
    "bernstein :",
    "BERNSTEIN:COMPLETED ",
    "QUESTION",
    "completed",
    "{",
    "}",
    "[",
    "]",
    '"',
    '\\"',
    "\\",
    ":",
    ",",
    " ",
    "\t",
    "\n",
    "\r",
    '"question":"q"',
    '"id":"a"',
    '"a":1',
    "1e400",
    "\\ud800",
    "NaN",
    "printf ",
    "echo ",
    "'",
    "%s",
    "%",
    "\\n",
    "$x",
    "$(",
    "${",
    "`",
    ";",
    "#",
    "bernstein_question ",
    "bernstein_emit ",
    "--options ",
    "--",
    "-",
    "x",
    "\x00",
    "é",
    "😀",
    "\ud800",
    "\uffff",
]
documents = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)
positions = st.integers(min_value=-3, max_value=60)
_SETTINGS = [analysis.Settings(), analysis.Settings(lenient=True, max_line_bytes=8)]


def _lines(document: str) -> list[str]:
    return document.split("\n")


def _inside(lines: list[str], line: int, column: int) -> bool:
    return 0 <= line < len(lines) and 0 <= column <= len(lines[line])


def _well_formed(diagnostic: Diagnostic, lines: int) -> None:
    assert diagnostic.code in CODES
    assert 1 <= diagnostic.line <= max(lines, 1)
    assert 0 <= diagnostic.start <= diagnostic.end


@settings(max_examples=400)
@given(document=documents, shell=st.booleans(), which=st.sampled_from(_SETTINGS))
def test_analyse_is_total_and_findings_point_inside(
    document: str, shell: bool, which: analysis.Settings
) -> None:
    lines = _lines(document)
    for finding in analysis.analyse(document, shell=shell, settings=which):
        assert finding.code in CODES
        assert _inside(lines, finding.line, finding.start), finding
        assert _inside(lines, finding.end_line, finding.end), finding
        assert (finding.line, finding.start) <= (finding.end_line, finding.end)
        if finding.edit is not None:
            line, start, end_line, end, _ = finding.edit
            assert _inside(lines, line, start)
            assert _inside(lines, end_line, end)


@settings(max_examples=400)
@given(document=documents, line=positions, column=positions, shell=st.booleans())
def test_hover_and_completion_are_total(document: str, line: int, column: int, shell: bool) -> None:
    lines = _lines(document)
    found = assist.hover(document, line, column, shell=shell)
    if found is not None:
        assert _inside(lines, found.line, found.start)
        assert found.start <= found.end <= len(lines[found.line])
    for item in assist.completions(document, line, column, shell=shell):
        assert _inside(lines, item.line, item.start)
        assert item.start <= item.end <= len(lines[item.line])


@settings(max_examples=300)
@given(document=documents, line=positions)
def test_rewrite_as_helper_is_total(document: str, line: int) -> None:
    lines = _lines(document)
    for row, start, end, text in analysis.rewrite_as_helper(document, line):
        assert row == line
        assert 0 <= start <= end <= len(lines[row])
        assert text.startswith("bernstein_")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)


@settings(max_examples=300)
@given(data=json_values | st.fixed_dictionaries({"edit": json_values}))
def test_code_action_data_is_taken_only_when_it_is_ours(data: Any) -> None:
    edit = edit_of(data)
    if edit is not None:
        *numbers, text = edit
        assert all(type(n) is int and n >= 0 for n in numbers)
        assert isinstance(text, str)


class _Server(SignalsLanguageServer):
    """The server's position plumbing over a fixed document, without a client."""

    def __init__(self, document: str) -> None:
        super().__init__()
        self._document = _lines(document)

    def lines(self, uri: str) -> list[str]:
        return self._document


@settings(max_examples=300)
@given(
    document=documents,
    numbers=st.lists(st.integers(-(2**31), 2**31), min_size=4, max_size=4),
)
def test_server_ranges_are_valid_for_any_numbers(document: str, numbers: list[int]) -> None:
    server = _Server(document)
    line, start, end_line, end = numbers
    found = server.lsp_range("file:///x", line, start, end_line, end)
    rows = server.lines("file:///x")
    for position in (found.start, found.end):
        assert isinstance(position, lsp.Position)
        assert 0 <= position.line < max(len(rows), 1)
        assert position.character >= 0
    largest = 2**31 - 1  # LSP's uinteger
    server.position("file:///x", lsp.Position(min(abs(line), largest), min(abs(start), largest)))


@settings(max_examples=400)
@given(data=st.binary(max_size=300) | documents.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_validator_entry_points_are_total(data: bytes) -> None:
    lines = data.count(b"\n") + (not data.endswith(b"\n") and bool(data))
    for lenient in (False, True):
        report = report_from_binary(io.BytesIO(data), lenient=lenient, max_line_bytes=64)
        for diagnostic in report.diagnostics:
            _well_formed(diagnostic, lines)
        kept = conformance_report(io.BytesIO(data).readlines(), lenient=lenient)
        for diagnostic in kept.diagnostics:
            _well_formed(diagnostic, lines)
    text = data.decode("utf-8", "surrogateescape")
    for line in text.split("\n"):
        for lenient in (False, True):
            _, diagnostics = LineChecker(lenient=lenient).check(line, 1)
            for diagnostic in diagnostics:
                _well_formed(diagnostic, 1)
                assert diagnostic.end <= len(line)


@settings(max_examples=300)
@given(text=documents)
def test_payload_files_are_total(text: str) -> None:
    from bernstein_signals import SignalKind

    lines = _lines(text)
    for kind in SignalKind:
        report = payload_report(text, kind, enabled=frozenset(CODES))
        for diagnostic in report.diagnostics:
            _well_formed(diagnostic, len(lines))
            assert diagnostic.start <= len(lines[diagnostic.line - 1])


def test_payload_nested_100000_deep_is_a_diagnostic() -> None:
    from bernstein_signals import SignalKind

    text = '{"x":' + "[" * 100_000 + "]" * 100_000 + "}"
    report = payload_report(text, SignalKind.COMPLETED, enabled=frozenset(CODES))
    assert [d.code for d in report.diagnostics] == ["BS215"]
    assert "nesting" in report.diagnostics[0].message
