"""SignalMarker and FenceVerifier: marked lines verify, any change to one does not.

Properties over random payloads and keys; every byte and bit of the vector lines
flipped; the seed-compatible and unfenced readers still read a fenced line.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import sys
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    MARK_FIELD,
    MAX_SEQUENCE,
    MAX_SEQUENCE_STEP,
    FenceVerifier,
    SignalKey,
    SignalKind,
    SignalMarker,
    SignalPayloadError,
    compat,
    emit,
    fence,
    iter_signals,
    parse_signal,
    read_signals,
    validate_payload,
)
from bernstein_signals._canonical_json import dump_canonical
from linear_support import assert_linear_or_as_baseline

_VECTORS = json.loads(
    (
        __import__("pathlib").Path(__file__).resolve().parents[1] / "data" / "fence_vectors.json"
    ).read_text(encoding="utf-8")
)
_VECTOR_KEY = SignalKey.parse(_VECTORS["key"])

_REQUIRED: dict[str, dict[str, Any]] = {
    "COMPLETED": {},
    "FAILED": {},
    "QUESTION": {"question": "Apply?"},
    "PLAN_DRAFT": {"markdown": "# Plan"},
    "PLAN_READY": {"path": ".sdd/plans/x.md"},
    "BLOCKED": {"reason": "waiting"},
}
_SCHEMA_FIELDS = {
    "vocabulary", "reason", "question", "options", "id", "markdown", "path", "hint",
}  # fmt: skip
_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=8,
)
_extras = st.dictionaries(
    _text.filter(lambda name: name not in _SCHEMA_FIELDS and name != MARK_FIELD), _json, max_size=4
)
_keys = st.builds(
    SignalKey,
    st.text("0123456789abcdef", min_size=16, max_size=16),
    st.binary(min_size=32, max_size=32),
)


@st.composite
def _signals(draw: st.DrawFn) -> tuple[str, dict[str, Any] | None]:
    kind = draw(st.sampled_from(sorted(_REQUIRED)))
    extras = draw(_extras)
    payload = {**_REQUIRED[kind], **extras}
    if not payload and draw(st.booleans()):
        return kind, None
    return kind, payload


@settings(max_examples=300)
@given(key=_keys, signals=st.lists(_signals(), min_size=1, max_size=6))
def test_every_marked_line_verifies(
    key: SignalKey, signals: list[tuple[str, dict[str, Any] | None]]
) -> None:
    marker, verifier = SignalMarker(key), FenceVerifier(key)
    for seq, (kind, payload) in enumerate(signals, 1):
        line = marker.mark(kind, payload)
        verdict = verifier.check(line)
        assert verdict.code is None, verdict.problem
        assert verdict.signal is not None
        assert verdict.seq == seq
        assert verdict.signal.kind == kind
        # Compared as canonical text: a float past 2^53 reads back as the int it prints as.
        assert dump_canonical(verdict.signal.payload) == dump_canonical(payload or {})
        assert verdict.signal.raw_line == line
        # The mark is the documented HMAC, computed here from the message alone.
        run, seq_text, mac = json.loads(line.split(" ", 1)[1])[MARK_FIELD].split(".")
        text = dump_canonical(payload) if payload else ""
        message = f"bernstein-signals fence 1\n{run}\n{seq_text}\n{kind}\n{text}".encode()
        assert mac == hmac.new(key._secret, message, hashlib.sha256).hexdigest()


def _flipped(line: bytes) -> list[bytes]:
    return [
        line[:at] + bytes([line[at] ^ (1 << bit)]) + line[at + 1 :]
        for at in range(len(line))
        for bit in range(8)
    ]


@pytest.mark.parametrize(
    "case",
    [case for case in _VECTORS["marked"] if case["seq"] <= MAX_SEQUENCE_STEP],
    ids=lambda case: case["name"],
)
def test_flipping_any_bit_of_a_vector_line_fails(case: dict[str, Any]) -> None:
    """Every position, every bit: the result fails verification or is no signal at all.

    (A fresh verifier takes no number past MAX_SEQUENCE_STEP: the largest one's MAC is
    checked against an independent HMAC in test_fence_vectors.py.)"""
    line = case["line"].encode()
    assert FenceVerifier(_VECTOR_KEY).check(line).signal is not None
    for changed in _flipped(line):
        verdict = FenceVerifier(_VECTOR_KEY).check(changed)
        assert verdict.signal is None, changed


@settings(max_examples=300)
@given(key=_keys, signal=_signals(), data=st.data())
def test_changing_any_byte_fails(
    key: SignalKey, signal: tuple[str, dict[str, Any] | None], data: st.DataObject
) -> None:
    line = SignalMarker(key).mark(*signal).encode()
    at = data.draw(st.integers(0, len(line) - 1))
    value = data.draw(st.integers(0, 255).filter(lambda byte: byte != line[at]))
    changed = line[:at] + bytes([value]) + line[at + 1 :]
    assert FenceVerifier(key).check(changed).signal is None


@settings(max_examples=200)
@given(key=_keys, other=_keys, signal=_signals())
def test_a_line_marked_for_one_run_fails_under_another(
    key: SignalKey, other: SignalKey, signal: tuple[str, dict[str, Any] | None]
) -> None:
    line = SignalMarker(key).mark(*signal)
    verdict = FenceVerifier(other).check(line)
    if key == other:
        assert verdict.signal is not None
        return
    assert verdict.signal is None
    assert verdict.code == "BS601"
    why = "marked for another run" if other.run != key.run else "bad mark"
    assert verdict.problem == f"unauthenticated {signal[0]} signal: {why}"
    # The same run with another secret: only the MAC tells them apart.
    twin = SignalKey(key.run, bytes(b ^ 1 for b in key._secret))
    assert FenceVerifier(twin).check(line).problem == (
        f"unauthenticated {signal[0]} signal: bad mark"
    )


def test_replays_and_reordering_are_refused() -> None:
    key = SignalKey.generate()
    marker = SignalMarker(key)
    one, two, three = (marker.mark("QUESTION", {"question": str(n)}) for n in range(3))
    verifier = FenceVerifier(key)
    assert [verifier.check(line).seq for line in (one, three)] == [1, 3]
    for line, seq in ((two, 2), (three, 3), (one, 1)):
        verdict = verifier.check(line)
        assert (verdict.signal, verdict.code, verdict.seq) == (None, "BS602", seq)
        assert verdict.problem == f"replayed QUESTION signal: sequence number {seq} again after 3"


def test_a_sequence_number_past_the_largest_is_refused() -> None:
    key = SignalKey.generate()
    seq = str(MAX_SEQUENCE + 1)
    mark = f"{key.run}.{seq}.{key.mac(seq, 'COMPLETED', '')}"
    verdict = FenceVerifier(key).check(f'BERNSTEIN:COMPLETED {{"_sig":"{mark}"}}')
    assert verdict.problem == "unauthenticated COMPLETED signal: bad mark"
    marker = SignalMarker(key)
    marker._next = MAX_SEQUENCE
    assert FenceVerifier(key).check(marker.mark("COMPLETED")).seq == MAX_SEQUENCE
    with pytest.raises(ValueError, match="sequence numbers are used up"):
        marker.mark("COMPLETED")


def test_allow_lists_with_and_without_a_key() -> None:
    key = SignalKey.generate()
    marker = SignalMarker(key)
    plan = marker.mark("PLAN_READY", {"path": ".sdd/plans/x.md"})
    done = marker.mark("COMPLETED")
    fenced = FenceVerifier(key, allow_kinds=[SignalKind.COMPLETED, "FAILED"])
    verdict = fenced.check(plan)
    assert (verdict.code, verdict.seq) == ("BS603", 1)
    assert (
        verdict.problem == "PLAN_READY signal not allowed in this run (allowed: COMPLETED, FAILED)"
    )
    assert fenced.check(done).signal is not None
    assert fenced.check(plan).code == "BS602"  # an authentic line refused once is still spent
    only = FenceVerifier(None, allow_kinds=["COMPLETED"])
    assert only.check("BERNSTEIN:COMPLETED").signal is not None
    assert only.check(done).signal.payload[MARK_FIELD]  # type: ignore[union-attr]
    assert only.check("BERNSTEIN:FAILED").code == "BS603"
    assert FenceVerifier(None, allow_kinds=[]).check("BERNSTEIN:FAILED").problem == (
        "FAILED signal not allowed in this run (allowed: none)"
    )


def test_bad_verifier_and_marker_arguments() -> None:
    key = SignalKey.generate()
    with pytest.raises(TypeError, match="not one str"):
        FenceVerifier(key, allow_kinds="COMPLETED")
    with pytest.raises(ValueError, match="'NOPE' is not a signal kind"):
        FenceVerifier(key, allow_kinds=["NOPE"])
    with pytest.raises(TypeError, match="SignalKey or None"):
        FenceVerifier(key.text())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a SignalKey"):
        SignalMarker(None)  # type: ignore[arg-type]
    marker = SignalMarker(key)
    with pytest.raises(ValueError, match="already holds '_sig'"):
        marker.mark("COMPLETED", {"_sig": "x"})
    with pytest.raises(SignalPayloadError):
        marker.mark("QUESTION", {})
    with pytest.raises(ValueError, match="unknown signal kind"):
        marker.mark("NOPE")
    # A refused mark takes no sequence number.
    assert FenceVerifier(key).check(marker.mark("COMPLETED")).seq == 1


@settings(max_examples=300)
@given(
    line=st.one_of(st.text(), st.binary()),
    head=st.sampled_from(
        ["", "BERNSTEIN:COMPLETED ", "BERNSTEIN:QUESTION {", 'BERNSTEIN:FAILED {"_sig":']
    ),
)
def test_check_never_raises(line: str | bytes, head: str) -> None:
    whole: str | bytes = head + line if isinstance(line, str) else head.encode() + line
    verdict = FenceVerifier(_VECTOR_KEY, allow_kinds=["COMPLETED"]).check(whole)
    assert verdict.signal is None or verdict.signal.kind == "COMPLETED"
    assert FenceVerifier(_VECTOR_KEY).check(None).code is None


_WHITESPACE: Final = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
"""What the tolerant readers strip and split on (str.isspace): the padding an old reader meets."""


def _tolerant_variants(line: str) -> list[str]:
    """``line`` padded with each whitespace character, before, after and after the kind."""
    head, space, rest = line.partition(" ")
    variants = [line, line + "\n", line + "\r\n", "\t " + line + " \t\r\n"]
    for blank in _WHITESPACE:
        variants.append(blank + line + blank)
        variants.append(blank * 3 + line + blank * 2 + "\r\n")
        if space:
            variants.append(f"{head}{blank}{rest}")
            variants.append(f"{blank}{head} {blank}{rest}{blank}")
    return variants


@pytest.mark.parametrize("case", _VECTORS["marked"], ids=lambda case: case["name"])
def test_old_readers_read_fenced_lines_as_ordinary_signals(case: dict[str, Any]) -> None:
    """The seed's tolerant parser (compat) and the unfenced readers: one extra member."""
    line = case["line"]
    expected = {**(case["payload"] or {}), MARK_FIELD: json.loads(line.split(" ", 1)[1])["_sig"]}
    tolerant = [
        reader(variant)
        for variant in _tolerant_variants(line)
        for reader in (compat.parse_signal, lambda text: parse_signal(text, lenient=True))
    ]
    for signal in (
        *tolerant,
        parse_signal(line),
        next(iter_signals([line])),
        next(read_signals(io.BytesIO(line.encode() + b"\n"))).signal,
    ):
        assert signal is not None
        assert signal.kind == case["kind"]
        assert signal.payload == expected
    assert compat.has_terminal_signal(compat.iter_signals([line])) == (
        case["kind"] in ("COMPLETED", "FAILED")
    )


def test_emit_marks_with_the_process_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only lines to sys.stdout (the object it names at the call) are marked and counted."""
    key = SignalKey.generate()
    monkeypatch.setattr(fence._Process, "key", key)
    monkeypatch.setattr(fence._Process, "marker", SignalMarker(key))
    out, log = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    emit("QUESTION", {"question": "Apply?"})
    emit("PLAN_READY", {"path": ".sdd/plans/p.md"}, file=log)
    completed = parse_signal("BERNSTEIN:COMPLETED {}")
    assert completed is not None
    emit(completed, file=out)
    with pytest.raises(ValueError, match="already holds"):
        emit('BERNSTEIN:COMPLETED {"_sig":"x"}')
    lines = out.getvalue().splitlines()
    verifier = FenceVerifier(key)
    verdicts = [verifier.check(line) for line in lines]
    assert [(v.signal.kind, v.seq) for v in verdicts if v.signal] == [
        ("QUESTION", 1),
        ("COMPLETED", 2),
    ]
    assert len(lines) == 2
    assert log.getvalue() == 'BERNSTEIN:PLAN_READY {"path":".sdd/plans/p.md"}\n'
    assert fence.process_key() is key


def test_emit_without_a_key_writes_todays_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fence._Process, "key", None)
    monkeypatch.setattr(fence._Process, "marker", None)
    out = io.StringIO()
    emit("COMPLETED", file=out)
    emit("FAILED", {"reason": "x", "_sig": "relayed as is"}, file=out)
    assert (
        out.getvalue()
        == 'BERNSTEIN:COMPLETED\nBERNSTEIN:FAILED {"_sig":"relayed as is","reason":"x"}\n'
    )


@pytest.mark.timeout(240)
def test_verifying_a_long_line_is_linear() -> None:
    """Against the strict parse of the same line, which builds the same many objects."""
    key = SignalKey.generate()

    def line(size: int) -> str:
        return SignalMarker(key).mark("QUESTION", {"question": "q", "data": ["x" * 10] * size})

    def make(size: int) -> Any:
        text = line(size)
        return lambda: FenceVerifier(key).check(text)

    def baseline(size: int) -> Any:
        text = line(size)
        return lambda: parse_signal(text)

    assert_linear_or_as_baseline(make, baseline, 20_000, what="verifying one marked line")


@pytest.mark.parametrize("case", _VECTORS["marked"], ids=lambda case: case["name"])
def test_validators_do_not_complain_about_the_mark(case: dict[str, Any]) -> None:
    signal = parse_signal(case["line"])
    assert signal is not None
    assert MARK_FIELD in signal.payload
    assert validate_payload(signal.kind, signal.payload) == []
