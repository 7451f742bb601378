"""Every reader of the binding is linear in its input, on every known-bad line shape.

The shapes come from the one catalogue (``benchmarks._hostile_lines``), so a
shape added there for any reader is checked here for the binding's readers.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES, ORDINARY_LINE, json_baseline, payload_of

from bernstein_signals import (
    QuestionTracker,
    SignalScanner,
    iter_signals,
    parse_reply,
    parse_signal,
    read_signals,
    scan_lines,
    validate_payload,
)
from linear_support import assert_linear, assert_linear_or_as_baseline, calibrated_size, warmed


def _as_bytes(line: str) -> bytes:
    return (line + "\n").encode("utf-8", "surrogatepass")


def _strict(line: str) -> Callable[[], object]:
    return lambda: parse_signal(line)


def _lenient(line: str) -> Callable[[], object]:
    return lambda: parse_signal(line, lenient=True)


def _iter(line: str) -> Callable[[], object]:
    return lambda: list(iter_signals([line, line]))


def _reply(line: str) -> Callable[[], object]:
    payload = payload_of(line)
    return lambda: parse_reply(payload)


def _read(line: str) -> Callable[[], object]:
    data = _as_bytes(line)
    return lambda: list(read_signals(io.BytesIO(data)))


def _scan(line: str) -> Callable[[], object]:
    data = _as_bytes(line)
    return lambda: list(scan_lines(io.BytesIO(data), b"BERNSTEIN:"))


_READERS: dict[str, Callable[[str], Callable[[], object]]] = {
    "parse_signal": _strict,
    "parse_signal(lenient)": _lenient,
    "iter_signals": _iter,
    "parse_reply": _reply,
    "read_signals": _read,
    "scan_lines": _scan,
}
"""Reader name -> (line -> the call to time)."""

_SHAPES = {"ordinary": ORDINARY_LINE, **HOSTILE_LINES}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("reader", list(_READERS))
@pytest.mark.parametrize("shape", list(_SHAPES))
def test_reader_time_grows_linearly_with_the_line(shape: str, reader: str) -> None:
    build, bind = _SHAPES[shape], _READERS[reader]

    def make(size: int) -> Callable[[], object]:
        return warmed(bind(build(size)))

    size = calibrated_size(make)
    assert_linear_or_as_baseline(make, json_baseline(build), size, what=f"{reader} on {shape}")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("piece", [1, 7])
def test_an_unfinished_line_fed_in_small_pieces_is_linear(piece: int) -> None:
    """Issue 10 item 10: the carry was joined with every chunk (400,000 feeds: 16 s)."""

    def make(size: int) -> Callable[[], object]:
        data = HOSTILE_LINES["escaped-quotes-deep"](size).encode()
        pieces = [data[i : i + piece] for i in range(0, len(data), piece)]

        def run() -> object:
            scanner = SignalScanner(max_line_bytes=1 << 30)
            for chunk in pieces:
                scanner.feed(chunk)
            return scanner.close()

        return run

    assert_linear(make, 50_000, what=f"SignalScanner.feed in {piece}-byte pieces", repeats=3)


@pytest.mark.timeout(120)
def test_the_question_tracker_is_linear_in_the_questions_an_adapter_asks() -> None:
    """An adapter may ask any number of questions without an id; each is answered in turn."""
    line = parse_signal('BERNSTEIN:QUESTION {"question":"q"}')
    assert line is not None

    def make(count: int) -> Callable[[], object]:
        def run() -> object:
            tracker = QuestionTracker()
            for _ in range(count):
                tracker.feed(line)
            return [tracker.answer("a") for _ in range(count)]

        return run

    assert_linear(make, 50_000, what="QuestionTracker feed/answer", repeats=2)


_PAYLOAD_SHAPES: dict[str, tuple[str, Callable[[int], object]]] = {
    "path-long-segment-bad-end": ("PLAN_READY", lambda n: {"path": ".sdd/" + "a" * n + "\x01"}),
    "path-many-segments-bad-end": ("PLAN_READY", lambda n: {"path": ".sdd/" + "a/" * n + "\\"}),
    "path-dot-segments": ("PLAN_READY", lambda n: {"path": ".sdd/" + "../" * n}),
    # Items that are not JSON: their uniqueness was once compared pair by pair.
    "options-unhashable": (
        "QUESTION",
        lambda n: {"question": "q", "options": [{i} for i in range(n)]},
    ),
    "many-extra-members": ("BLOCKED", lambda n: {"reason": "r", **{f"k{i}": i for i in range(n)}}),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("shape", list(_PAYLOAD_SHAPES))
def test_validate_payload_is_linear_in_the_payload(shape: str) -> None:
    kind, build = _PAYLOAD_SHAPES[shape]

    def make(size: int) -> Callable[[], object]:
        payload = build(size)
        return lambda: validate_payload(kind, payload)

    # Large option lists of str or JSON arrays are left out: their set, built in C,
    # outgrows the core's cache at 10x and looks superlinear on a loaded machine.
    # Distinct unhashable items run larger: their keys' set is Python objects anyway,
    # and the pairwise fallback they once took needs seconds there.
    size = 20_000 if shape == "options-unhashable" else 2_000
    assert_linear(make, size, what=f"validate_payload on {shape}", repeats=3)
