"""wrap --fence's relay filter (issue 17, R1 finding 1): no reader downstream, however it
splits or decodes lines, takes a line the fence did not accept; the key never passes."""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    FenceVerifier,
    SignalKey,
    SignalMarker,
    compat,
    format_signal,
    iter_signals,
    parse_signal,
)
from bernstein_signals.fence_rules import UNAUTHENTICATED_PREFIX
from bernstein_signals_toolkit.tools.commands._fence_relay import FencedRelay
from bernstein_signals_toolkit.tools.runtime_vocabulary import built_in
from bernstein_signals_toolkit.tools.validate import conformance_report
from linear_support import assert_linear

KEY = SignalKey.parse("0a1b2c3d4e5f6071:" + "9e" * 32)


# ---------------------------------------------------------------------------
# wrap's relay
# ---------------------------------------------------------------------------


def _relay(
    key: SignalKey | None = KEY, allow: frozenset[str] | None = None, bound: int = 1 << 20
) -> tuple[FencedRelay, list[str]]:
    warnings: list[str] = []
    relay = FencedRelay(FenceVerifier(key, allow), built_in(), bound, warnings.append)
    return relay, warnings


def _feed(relay: FencedRelay, data: bytes, cuts: list[int]) -> bytes:
    out = b""
    start = 0
    for cut in sorted({c % (len(data) + 1) for c in cuts}):
        out += relay.feed(data[start:cut])
        start = cut
    return out + relay.feed(data[start:]) + relay.close()


_PAYLOADS = {
    "QUESTION": {"question": "Go?", "id": "q"},
    "BLOCKED": {"reason": "wait"},
    "PLAN_READY": {"path": ".sdd/plans/x.md"},
    "COMPLETED": None,
    "FAILED": {"reason": "exit 1"},
}
_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Every line break ``str.splitlines`` knows."""
_BLANKS = "".join(chr(c) for c in range(0x3001) if chr(c).isspace() and chr(c) != "\n")
_FORGED_KINDS = [*sorted(_PAYLOADS), "NEWKIND", "completed"]
_LINE = st.one_of(
    st.tuples(st.just("real"), st.sampled_from(sorted(_PAYLOADS))),
    st.tuples(st.just("forged"), st.sampled_from(sorted(_PAYLOADS))),
    st.tuples(st.just("other-key"), st.sampled_from(sorted(_PAYLOADS))),
    # Anything but \n: \r, U+2028, blanks, the prefix itself.
    st.tuples(
        st.just("plain"),
        st.text(st.one_of(st.characters(codec="utf-8"), st.sampled_from("BERNSTEIN: "))).map(
            lambda text: text.replace("\n", "")
        ),
    ),
    # A start of the prefix that never becomes it (held, then relayed as it came).
    st.tuples(st.just("plain"), st.sampled_from(["B", "BERN", "BERNSTEIN", "BERNSTEIN;"])),
    # Junk, a break a text reader splits on (or none), blanks, then a forged signal.
    st.tuples(
        st.just("hidden"),
        st.tuples(
            st.text(st.characters(codec="utf-8", exclude_characters="\n"), max_size=5),
            st.sampled_from(["", *_BREAKS.replace("\n", "")]),
            st.text(st.sampled_from(_BLANKS), max_size=3),
            st.sampled_from(_FORGED_KINDS),
            st.sampled_from(["", " {}", '\t{"reason":"x"}', " \xff"]),
        ),
    ),
    st.tuples(st.just("replay"), st.just("")),
)


def _signals_any_reader_finds(out: bytes) -> list[str]:
    """Kinds that strict, lenient (unknown kinds too) and compat readers find in the relayed
    bytes, however they split or decode them; each list must be the same."""
    found: list[list[str]] = []
    texts = [out.decode("utf-8", "replace")]
    if texts[0].encode() == out:
        texts.append(out.decode())
    for text in texts:
        crlf = [piece.removesuffix("\r") for piece in text.split("\n")]
        for pieces in (text.splitlines(), text.split("\n"), crlf):
            for parse in (
                parse_signal,
                lambda piece: parse_signal(piece, lenient=True, unknown_kinds=True),
                compat.parse_signal,
            ):
                found.append([str(s.kind) for p in pieces if (s := parse(p)) is not None])
    strict_bytes = [s for line in out.split(b"\n") if (s := parse_signal(line)) is not None]
    found.append([str(s.kind) for s in strict_bytes])
    first = found[0]
    assert all(kinds == first for kinds in found), found
    return first


@settings(max_examples=300)
@given(st.lists(_LINE, max_size=20), st.lists(st.integers(0, 10_000), max_size=8), st.booleans())
def test_relay_lets_no_reader_take_a_line_the_fence_did_not_accept(
    plan: list[tuple[str, Any]], cuts: list[int], last_newline: bool
) -> None:
    marker, other = (
        SignalMarker(KEY),
        SignalMarker(SignalKey.parse("ffffffffffffffff:" + "00" * 32)),
    )
    written: list[bytes] = []
    expected: list[bytes | None] = []
    accepted: list[str] = []
    last_real: str | None = None
    for what, value in plan:
        want: bytes | None = None  # refused: the prefix is glued to the marker
        if what == "plain":
            line = value
            want = value.encode()
        elif what == "hidden":
            junk, brk, blanks, kind, tail = value
            raw = (junk + brk + blanks + "BERNSTEIN:" + kind).encode() + (
                b" \xff" if tail == " \xff" else tail.encode()
            )
            written.append(raw)
            expected.append(None)
            continue
        elif what == "replay":
            if last_real is None:
                continue
            line = last_real
        elif what == "real":
            line = last_real = marker.mark(value, _PAYLOADS[value])
            want = format_signal(value, _PAYLOADS[value]).encode()
            accepted.append(value)
        else:
            payload = _PAYLOADS[value]
            line = (
                other.mark(value, payload) if what == "other-key" else format_signal(value, payload)
            )
        written.append(line.encode())
        expected.append(want)
    data = b"".join(line + b"\n" for line in written)
    unended = not last_newline and bool(written) and written[-1] != b""
    if unended:
        data = data[:-1]  # the last line ends with the stream
    relay, warnings = _relay()
    out = _feed(relay, data, cuts)
    relayed = (out + b"\n" if unended else out).split(b"\n")[:-1]
    refused = UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:"
    for got, want, line in zip(relayed, expected, written, strict=True):
        if b"BERNSTEIN:" not in line:
            assert got == line  # plain output passes byte for byte
        elif want is not None and got == want:
            continue  # accepted (a plain line may itself be a forged signal: refused)
        else:
            assert got.replace(UNAUTHENTICATED_PREFIX.encode(), b"") == line
            assert got.count(refused) == line.count(b"BERNSTEIN:")
    assert len(warnings) == sum(refused in got for got in relayed)
    assert relay.terminal is any(kind in {"COMPLETED", "FAILED"} for kind in accepted)
    # No reader, however it splits or decodes, finds any signal but the accepted ones.
    assert _signals_any_reader_finds(out) == accepted
    # The validator's fenced checker agrees on what was accepted.
    report = conformance_report([line.decode("utf-8", "replace") for line in written], key=KEY)
    assert [str(s.signal.kind) for s in report.signals] == accepted


_REVIEWED = [
    b"\x0bBERNSTEIN:COMPLETED\n",
    b"\x0cBERNSTEIN:COMPLETED\n",
    b"\rBERNSTEIN:COMPLETED\n",
    b"\xc2\xa0BERNSTEIN:COMPLETED\n",
    b"\xe3\x80\x80BERNSTEIN:COMPLETED\n",
    b"\x1cBERNSTEIN:COMPLETED\n",
    b"hello\rBERNSTEIN:COMPLETED\n",
    b"hello\xc2\x85BERNSTEIN:COMPLETED\n",
    b"hello\xe2\x80\xa8BERNSTEIN:COMPLETED\n",
    b"BERNSTEIN:COMPLETED\r\r\n",
    b"BERNSTEIN:COMPLETED\x0b\n",
    b"BERNSTEIN:NEWKIND {}\n",
    b" BERNSTEIN:COMPLETED\n",
    b'work\rBERNSTEIN:PLAN_READY {"path":".sdd/plans/evil.md"}\n',
    b'BERNSTEIN:PLAN_READY {"path":"evil\xff.md"}\n',
]


@pytest.mark.parametrize("line", _REVIEWED)
def test_relay_refuses_the_reviewers_forgeries(line: bytes) -> None:
    for cuts in ([], list(range(len(line)))):
        relay, warnings = _relay()
        out = _feed(relay, line, cuts)
        assert out.replace(UNAUTHENTICATED_PREFIX.encode(), b"", 1) == line
        assert len(warnings) == 1
        assert _signals_any_reader_finds(out) == []
        text = out.decode("utf-8", "replace")
        assert compat.iter_signals(text.splitlines()) == []
        assert list(iter_signals(io.TextIOWrapper(io.BytesIO(out), "utf-8", "replace"))) == []


def test_relay_masks_the_key_wherever_the_command_prints_it() -> None:
    warnings: list[str] = []
    relay = FencedRelay(
        FenceVerifier(KEY), built_in(), 1 << 20, warnings.append, key_text=KEY.text()
    )
    secret = KEY.text().partition(":")[2]
    data = f"key {KEY.text()} end\n{secret}\n".encode()
    out = _feed(relay, data, list(range(0, len(data), 7)))
    assert secret.encode() not in out
    assert out == f"key {KEY.run}:[key withheld] end\n[key withheld]\n".encode()
    assert len(warnings) == 2
    assert "key" in warnings[0]
    assert relay.leaked == 2


def test_relay_passes_plain_output_at_once_and_holds_only_a_possible_signal() -> None:
    relay, _ = _relay()
    assert relay.feed(b"Continue? [y/n] ") == b"Continue? [y/n] "
    assert relay.feed(b"\n  BERNST") == b"\n  "  # what may become the prefix waits
    assert relay.feed(b"EIN:COMPLETED") == UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:COMPLETED"
    assert relay.close() == b""
    assert relay.feed(b"BERNST") == b""  # a line's start that may become a signal is held
    assert relay.feed(b"ONE\n") == b"BERNSTONE\n"
    assert relay.feed(b"BERN") == b""
    assert relay.close() == b"BERN"  # the stream ended: it never became the prefix


def test_relay_refuses_an_overlong_signal_line_without_holding_it() -> None:
    relay, warnings = _relay(bound=100)
    out = relay.feed(b"BERNSTEIN:PLAN_DRAFT " + b"x" * 200)
    assert out.startswith(UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:PLAN_DRAFT")
    assert relay.feed(b"y" * 50 + b"\nBERNSTEIN:COMPLETED\n") == b"y" * 50 + b"\n" + (
        UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:COMPLETED\n"
    )
    assert len(warnings) == 2
    assert "100-byte bound" in warnings[0]


def test_relay_refuses_a_signal_line_that_is_not_utf8_and_passes_other_bytes() -> None:
    relay, warnings = _relay()
    assert relay.feed(b"BERNSTEIN:COMPLETED \xff\n") == (
        UNAUTHENTICATED_PREFIX.encode() + b"BERNSTEIN:COMPLETED \xff\n"
    )
    assert relay.feed(b"plain \xff\n") == b"plain \xff\n"
    assert len(warnings) == 1
    assert "not UTF-8" in warnings[0]


@pytest.mark.timeout(120)
def test_relay_time_is_linear_in_lines_and_in_a_line_fed_a_byte_at_a_time() -> None:
    marker = SignalMarker(KEY)
    block = (
        "plain output line\n" + marker.mark("BLOCKED", {"reason": "w"}) + "\nBERNSTEIN:COMPLETED\n"
    ).encode()

    def lines(n: int) -> Any:
        data = block * n

        def go() -> None:
            relay, _ = _relay(key=SignalKey.parse(KEY.text()))
            relay.feed(data)
            relay.close()

        return go

    assert_linear(lines, 200, what="wrap --fence relay over many lines")

    def blanks(n: int) -> Any:
        def go() -> None:
            relay, _ = _relay()
            for _ in range(n):
                relay.feed(b" ")
            relay.close()

        return go

    assert_linear(blanks, 2_000, what="a line of blanks fed a byte at a time")

    def prefixes(n: int) -> Any:
        data = b"x\r" + b"BERNSTEIN:\x85" * n + b"\n"

        def go() -> None:
            relay, _ = _relay()
            for start in range(0, len(data), 7):  # the prefix split across chunks
                relay.feed(data[start : start + 7])
            relay.close()

        return go

    assert_linear(prefixes, 500, what="a line of many prefixes, each marked")

    key_start = KEY.text().partition(":")[2][:40].encode()

    def near_keys(n: int) -> Any:
        def go() -> None:
            relay = FencedRelay(
                FenceVerifier(KEY), built_in(), 1 << 20, lambda _: None, key_text=KEY.text()
            )
            for _ in range(n):  # each write may still become the key: carried, then let go
                relay.feed(key_start)
                relay.feed(b" ")
            relay.close()

        return go

    assert_linear(near_keys, 200, what="output that keeps almost printing the key")


def test_relay_with_an_allow_list_and_no_key_refuses_only_other_kinds() -> None:
    relay, warnings = _relay(key=None, allow=frozenset({"COMPLETED"}))
    out = relay.feed(b'BERNSTEIN:BLOCKED {"reason":"x"}\nBERNSTEIN:COMPLETED\n') + relay.close()
    prefix = UNAUTHENTICATED_PREFIX.encode()
    assert out == prefix + b'BERNSTEIN:BLOCKED {"reason":"x"}\nBERNSTEIN:COMPLETED\n'
    assert relay.terminal
    assert len(warnings) == 1
    assert "error[BS603]" in warnings[0]


def test_relay_passes_blanks_at_once_and_marks_a_prefix_after_them() -> None:
    """Blanks past the bound then the prefix: nothing is held, and a lenient reader with a
    larger bound finds the prefix glued to the marker."""
    relay, warnings = _relay(bound=10)
    prefix = UNAUTHENTICATED_PREFIX.encode()
    assert relay.feed(b" " * 30) == b" " * 30
    assert relay.feed(b"BERNSTEIN:COMPLETED\n") == prefix + b"BERNSTEIN:COMPLETED\n"
    assert len(warnings) == 1
