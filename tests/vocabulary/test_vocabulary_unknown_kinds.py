"""Unknown kinds in the validator: BS216 for a well-formed line, never a JSON error (BS210)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import VOCABULARY_VERSION, SignalKind, format_signal
from bernstein_signals_toolkit.tools.runtime_vocabulary import built_in
from bernstein_signals_toolkit.tools.validate import Severity, conformance_report
from bernstein_signals_toolkit.tools.validate.lines import LineChecker, near_kind

KNOWN = {kind.value for kind in SignalKind}
unknown_kinds = st.from_regex(r"[A-Z][A-Z0-9_]{0,40}", fullmatch=True).filter(
    lambda kind: kind not in KNOWN
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
payloads = st.dictionaries(st.text(max_size=8), json_values, max_size=4)


def _line(kind: str, payload: dict[str, object] | None, *, spaced: bool = False) -> str:
    """A line as format_signal writes it, or as a hand-written one with JSON spacing."""
    if payload is None:
        return f"BERNSTEIN:{kind}"
    if spaced:
        return f"BERNSTEIN:{kind} " + json.dumps(
            payload, ensure_ascii=False, separators=(", ", ": ")
        )
    return format_signal(SignalKind.COMPLETED, payload, validate=False).replace(
        "COMPLETED", kind, 1
    )


@settings(max_examples=300)
@given(
    kind=unknown_kinds, payload=st.none() | payloads, spaced=st.booleans(), lenient=st.booleans()
)
def test_an_unknown_kind_with_a_valid_payload_gets_only_bs216(
    kind: str, payload: dict[str, object] | None, spaced: bool, lenient: bool
) -> None:
    line = _line(kind, payload, spaced=spaced)
    signal, diagnostics = LineChecker(lenient=lenient).check(line, 1)
    assert signal is None
    long_line = len(line.encode()) > 4096
    codes = [d.code for d in diagnostics if not (long_line and d.code == "BS307")]
    assert codes == ["BS216"], (line, diagnostics)
    (diagnostic,) = [d for d in diagnostics if d.code == "BS216"]
    assert diagnostic.severity is Severity.WARNING
    assert line[diagnostic.start : diagnostic.end] == kind
    assert f"vocabulary {VOCABULARY_VERSION} knows BLOCKED, COMPLETED" in diagnostic.message


@settings(max_examples=200)
@given(
    kind=unknown_kinds | st.sampled_from(sorted(KNOWN)),
    payload=payloads,
    separator=st.sampled_from(["  ", "\t", " \t", ""]),
    lead=st.sampled_from(["", "  "]),
)
def test_no_kind_makes_a_valid_payload_malformed(
    kind: str, payload: dict[str, object], separator: str, lead: str
) -> None:
    """The re-parse behind BS210 never depends on the kind: near-misses of any kind included."""
    body = json.dumps(payload, ensure_ascii=False)
    line = f"{lead}BERNSTEIN:{kind}{separator}{body}"
    for lenient in (False, True):
        _, diagnostics = LineChecker(lenient=lenient).check(line, 1)
        assert "BS210" not in {d.code for d in diagnostics}, (line, diagnostics)


@pytest.mark.parametrize(
    ("word", "guess"),
    [
        ("COMPLETE", "COMPLETED"),
        ("COMPLET", "COMPLETED"),
        ("QUESTIONS", "QUESTION"),
        ("FAIL", "FAILED"),
        ("PLAN_READ", "PLAN_READY"),
        ("PROGRESS", None),
        ("DONE", None),
        ("PLAN", None),
        ("X", None),
        ("COMPLETED_WITH_WARNINGS", None),
    ],
)
def test_did_you_mean_only_when_close(word: str, guess: str | None) -> None:
    assert near_kind(word, built_in().kinds) == guess
    _, diagnostics = LineChecker().check(f"BERNSTEIN:{word} {{}}", 1)
    (diagnostic,) = diagnostics
    assert ("did you mean" in diagnostic.message) is (guess is not None)
    assert diagnostic.replacement == (None if guess is None else f"BERNSTEIN:{guess} {{}}")


def test_severity_option_and_stream_counts() -> None:
    lines = ['BERNSTEIN:PROGRESS {"percent":40}', "BERNSTEIN:COMPLETED"]
    report = conformance_report(lines)
    assert [d.code for d in report.diagnostics] == ["BS216"]
    assert report.passed
    assert report.signal_count == 1  # readers of the vocabulary do not see PROGRESS
    assert "PROGRESS" not in report.counts
    as_error = conformance_report(lines, unknown_kinds=Severity.ERROR)
    assert not as_error.passed
    assert conformance_report(lines, unknown_kinds=None).diagnostics == []


def test_a_very_long_unknown_kind_is_linear_and_short_in_messages() -> None:
    from linear_support import assert_linear

    def make(size: int) -> Callable[[], object]:
        line = "BERNSTEIN:" + "A" * size + ' {"a":1}'
        return lambda: LineChecker().check(line, 1)

    assert_linear(make, 20_000, what="BS216 on an unknown kind of N characters")
    _, (diagnostic,) = LineChecker().check("BERNSTEIN:" + "A" * 100_000, 1)
    assert len(diagnostic.message) < 300
