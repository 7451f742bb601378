"""Every public fence verdict, in both bindings, on the same lines (issue 23, items 6 and 9).

A fence verdict is about a line: ``FenceVerifier.check(line)`` and the fenced readers
(Python: ``iter_signals``, ``read_signals``, ``aread_signals`` with ``key=``; Node:
``SignalScanner`` and ``readSignals`` with ``key``) must agree on every line, padded,
with a CR or a tab, in a shape only a lenient reader takes, marked or not. No path may
accept a line that is not itself the marked signal line: Python's public
``verify(signal)`` did, for a padded line a lenient parse had stripped. The Node
readers must also read a string chunk that ends inside a surrogate pair as the whole
text: they turned the two halves into two U+FFFD, which the fence then refused (BS601).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    FenceVerdict,
    FenceVerifier,
    SignalKey,
    SignalKind,
    SignalMarker,
    StreamSignal,
    aread_signals,
    format_signal,
    iter_signals,
    read_signals,
)
from bernstein_signals._canonical_json import dump_canonical
from node_oracle_support import NodeOracle
from typescript.node_support import HERE, ROOT, environment, node

_KEY = SignalKey.parse("5eed5eed5eed5eed:" + "ab" * 32)
_OTHER = SignalKey.parse("0ddba11c0ddba11c:" + "cd" * 32)
_KINDS = [kind.value for kind in SignalKind]

Item = list[Any]
"""[line_no, code, problem, seq, kind, payload, raw_line]: what a path made of a line;
``seq`` only for a refused line (a reader's record carries none)."""


@pytest.fixture(scope="module")
def oracle() -> Iterator[NodeOracle]:
    running = NodeOracle(node(), HERE / "fence_harness.mjs", env=environment(), cwd=ROOT)
    yield running
    running.close()


def _accepted(line_no: int, signal: StreamSignal) -> Item:
    return [
        line_no,
        None,
        None,
        None,
        str(signal.kind),
        dump_canonical(signal.payload),
        signal.raw_line,
    ]


def _item(line_no: int, verdict: FenceVerdict) -> Item:
    if verdict.signal is not None:
        return _accepted(line_no, verdict.signal)
    return [line_no, verdict.code, verdict.problem, verdict.seq, None, None, None]


def _rejections(items: list[Item]) -> Callable[[FenceVerdict], None]:
    """An ``on_rejected`` that adds each refused line's item to ``items``."""

    def rejected(verdict: FenceVerdict) -> None:
        assert verdict.line_no is not None  # the readers number every verdict they hand on
        items.append(_item(verdict.line_no, verdict))

    return rejected


def _python_paths(
    lines: list[bytes], key: SignalKey | None, allow_kinds: list[str] | None
) -> dict[str, list[Item]]:
    """Each public Python path over ``lines`` (each ends with "\\n"), with a fresh verifier."""
    verifier = FenceVerifier(key, allow_kinds)
    check = [_item(number, verifier.check(line)) for number, line in enumerate(lines, 1)]
    found: dict[str, list[Item]] = {"check": [i for i in check if i[1] is not None or i[4]]}
    options: dict[str, Any] = {"key": key, "allow_kinds": allow_kinds}

    for name, given_lines in (
        ("iter_signals bytes", lines),
        ("iter_signals str", [line.decode("utf-8", "surrogateescape") for line in lines]),
    ):
        items: list[Item] = []
        at = [0]

        def numbered(given: list[Any] = given_lines, at: list[int] = at) -> Iterator[Any]:
            for number, line in enumerate(given, 1):
                at[0] = number  # the line iter_signals is reading when it yields
                yield line

        for signal in iter_signals(numbered(), **options, on_rejected=_rejections(items)):
            items.append(_accepted(at[0], signal))
        found[name] = items

    data = b"".join(lines)
    for name, stream in (
        ("read_signals bytes", io.BytesIO(data)),
        ("read_signals text", io.StringIO(data.decode("utf-8", "surrogateescape"), newline="")),
    ):
        items = []
        for record in read_signals(stream, **options, on_rejected=_rejections(items)):
            items.append(_accepted(record.line_no, record.signal))
        found[name] = items

    async def aread() -> list[Item]:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        items: list[Item] = []
        async for record in aread_signals(reader, **options, on_rejected=_rejections(items)):
            items.append(_accepted(record.line_no, record.signal))
        return items

    found["aread_signals"] = asyncio.run(aread())
    return found


_BLANKS = st.sampled_from([" ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u00a0", "\u3000"])
_SHAPES = st.sampled_from(
    [
        "as-is",
        "pad-left",
        "pad-right",
        "pad-both",
        "tab-separator",
        "two-spaces",
        "cr-before-newline",
        "lower-prefix",
        "space-after-prefix",
    ]
)


def _shaped(line: str, shape: str, blank: str) -> str:
    """``line`` bent into a shape a strict reader refuses (a lenient one may take it)."""
    if shape == "pad-left":
        return blank + line
    if shape == "pad-right":
        return line + blank
    if shape == "pad-both":
        return blank + line + blank
    if shape in {"tab-separator", "two-spaces"}:
        return line.replace(" ", "\t" if shape == "tab-separator" else "  ", 1)
    if shape == "cr-before-newline":
        return line + "\r"  # "\r\n": the one terminator every path tolerates
    if shape == "lower-prefix":
        return "bernstein:" + line.removeprefix("BERNSTEIN:")
    if shape == "space-after-prefix":
        return line.replace(":", ": ", 1)
    return line


_SOURCES = st.sampled_from(["ours", "ours", "other-run", "unmarked", "plain"])
_LINE_PLANS = st.lists(
    st.tuples(
        _SOURCES,
        st.sampled_from(["COMPLETED", "FAILED", "BLOCKED", "QUESTION"]),
        _SHAPES,
        _BLANKS,
        st.booleans(),  # again: the same marked line once more (a replay)
    ),
    min_size=1,
    max_size=6,
)
_PAYLOADS = {
    "COMPLETED": None,
    "FAILED": {"reason": "r\U0001f600"},
    "BLOCKED": {"reason": "\u00e9 wait"},
    "QUESTION": {"question": "go?", "id": "q-1"},
}


def _stream(plan: list[tuple[str, str, str, str, bool]]) -> list[bytes]:
    ours, other = SignalMarker(_KEY), SignalMarker(_OTHER)
    lines = []
    for source, kind, shape, blank, again in plan:
        payload = _PAYLOADS[kind]
        if source == "ours":
            line = ours.mark(kind, payload)
        elif source == "other-run":
            line = other.mark(kind, payload)
        elif source == "unmarked":
            line = format_signal(kind, payload)
        else:
            line = f"plain output {kind}"
        shaped = _shaped(line, shape, blank)
        lines.append((shaped + "\n").encode())
        if again:
            lines.append((shaped + "\n").encode())
    return lines


_PADDED = [("ours", "COMPLETED", "pad-both", " ", False)]


@pytest.mark.timeout(600)
@settings(max_examples=400)
@given(_LINE_PLANS, st.booleans(), st.none() | st.lists(st.sampled_from(_KINDS), max_size=3))
@example(_PADDED, True, None)  # the line: verify() took it after a lenient parse
@example([("ours", "FAILED", "tab-separator", " ", False)], True, None)
@example([("ours", "BLOCKED", "cr-before-newline", " ", True)], True, ["BLOCKED"])
@example([("ours", "QUESTION", "pad-right", "\x1c", False)], True, None)
@example([("unmarked", "COMPLETED", "as-is", " ", False)], False, ["FAILED"])
def test_every_public_verdict_path_agrees_in_both_bindings(
    oracle: NodeOracle,
    plan: list[tuple[str, str, str, str, bool]],
    keyed: bool,
    allow_kinds: list[str] | None,
) -> None:
    if not keyed and allow_kinds is None:
        allow_kinds = ["COMPLETED"]  # a fence option is needed for a fenced read
    key = _KEY if keyed else None
    lines = _stream(plan)
    python = _python_paths(lines, key, allow_kinds)
    expected = python["check"]
    for name, items in python.items():
        assert items == expected, (name, lines)
    request = {"key": None if key is None else key.text(), "allowKinds": allow_kinds}
    node_paths = oracle.ask({"op": "paths", **request, "lines": [line.hex() for line in lines]})
    assert node_paths == {"check": expected, "scanner": expected, "read": expected}, lines
    for line_no, code, _, _, kind, _, raw_line in expected:
        if kind is not None:  # accepted: the line itself is the signal, byte for byte
            assert code is None
            assert lines[line_no - 1].decode() in {raw_line + "\n", raw_line + "\r\n"}


def test_the_only_public_verdict_takes_a_line(oracle: NodeOracle) -> None:
    """Both verifiers have one public method, check(line): a public step that trusts a parsed
    signal (Python's old verify) would give verdicts on lines check() calls plain output.
    A new public method belongs in the differential test above before it belongs here."""
    python = {
        name
        for name in dir(FenceVerifier)
        if not name.startswith("_") and callable(getattr(FenceVerifier, name))
    }
    assert python == {"check"}
    assert oracle.ask({"op": "api"}) == {"methods": ["check"]}
    padded = f"  {SignalMarker(_KEY).mark('COMPLETED')}  "
    assert FenceVerifier(_KEY).check(padded) == (None, None, None, None, None)


_ASTRAL = st.sampled_from(["\U0001f600", "\U00010000", "\U0010ffff", "\U0001d11e"])
_TEXT = st.lists(st.one_of(_ASTRAL, st.sampled_from(["a", "é", "\uffff", " ", '"'])), max_size=6)
_SPLIT_LINES = st.lists(
    st.tuples(st.sampled_from(["BLOCKED", "FAILED", "plain"]), _TEXT.map("".join)),
    min_size=1,
    max_size=4,
)


def _split_text(lines: list[tuple[str, str]], marker: SignalMarker | None) -> tuple[str, int]:
    """The stream's text and how many signal lines it holds (marked when ``marker``)."""
    out, signals = [], 0
    for kind, reason in lines:
        if kind == "plain":
            out.append(f"plain {reason}")
            continue
        signals += 1
        payload = {"reason": reason or "r"}
        out.append(format_signal(kind, payload) if marker is None else marker.mark(kind, payload))
    return "\n".join(out) + "\n", signals


@pytest.mark.timeout(600)
@settings(max_examples=120)
@given(_SPLIT_LINES, st.booleans(), st.lists(st.integers(0, 300), max_size=6))
@example([("BLOCKED", "\U0001f600")], False, [])  # the chunks, unfenced
@example([("BLOCKED", "\U0001f600")], True, [])  # and under the fence (was BS601)
def test_node_readers_read_split_string_chunks_as_the_whole_text(
    oracle: NodeOracle, lines: list[tuple[str, str]], keyed: bool, cuts: list[int]
) -> None:
    """readSignals and SignalScanner over string chunks cut at every code unit (inside a
    surrogate pair too), at several cuts, and one code unit per chunk: the records and
    rejections of the whole text, which are those of its UTF-8 bytes and Python's."""
    text, signals = _split_text(lines, SignalMarker(_KEY) if keyed else None)
    request = {"key": _KEY.text() if keyed else None, "allowKinds": None}
    answer = oracle.ask({"op": "split", **request, "text": text, "cuts": cuts})
    assert answer["differing"] == []
    assert answer["whole"] == answer["bytes"]
    data = text.encode()
    if keyed:
        rejected: list[FenceVerdict] = []
        records = list(read_signals(io.BytesIO(data), key=_KEY, on_rejected=rejected.append))
        assert rejected == []  # no BS601: every line the adapter marked is taken
    else:
        records = list(read_signals(io.BytesIO(data)))
    assert answer["whole"] == [_accepted(r.line_no, r.signal) for r in records]
    assert len(records) == signals
