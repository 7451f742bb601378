"""Every reader of the binding is linear in its input, on every known-bad line shape.

The shapes come from the one catalogue (``benchmarks._hostile_lines``), so a
shape added there for any reader is checked here for the binding's readers.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES, ORDINARY_LINE, payload_of

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
from linear_support import LIMIT, assert_linear, growth_ratio

_SIZE = 1 << 20
_MIN_SIZE = 1 << 16
_MAX_SECONDS = 0.02


def _calibrated(make: Callable[[int], Callable[[], object]]) -> int:
    """1 MiB, halved (down to 64 KiB) while one call takes over 20 ms.

    Below 1 MiB a line fits the core's cache and 10x of it does not, so a
    memory-bound check would look superlinear; over 10 MiB fresh pages cost
    the same way. The costly shapes, which build many Python objects, are not
    memory-bound and run smaller, to keep the suite quick.
    """
    size = _SIZE
    while size > _MIN_SIZE:
        call = make(size)
        call()
        start = time.perf_counter()
        call()
        if time.perf_counter() - start <= _MAX_SECONDS:
            break
        size //= 2
    return size


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
        call = bind(build(size))
        call()  # warm: the allocator keeps memory of this size ready after one round
        return call

    size = _calibrated(make)
    try:
        assert_linear(make, size, what=f"{reader} on {shape}", repeats=3)
    except AssertionError:
        _no_worse_than_json(build, make, size, failure=f"{reader} on {shape}")


def _no_worse_than_json(
    build: Callable[[int], str],
    make: Callable[[int], Callable[[], object]],
    size: int,
    failure: str,
) -> None:
    """The fallback for a line whose decoding alone grows nearly as fast as the limit.

    A payload of hundreds of thousands of distinct keys makes CPython's dicts
    outgrow the cache, and a 10 MiB string costs fresh pages, so ``json.loads``
    itself may grow close to or past 20x for 10x on a loaded machine; then the
    reader must grow no faster than 1.5 times json's own ratio (a quadratic
    check on top would be 10x more).
    """

    def decode(n: int) -> Callable[[], object]:
        payload = payload_of(build(n))
        return lambda: _json_or_none(payload)

    json_ratio = growth_ratio(decode, size, repeats=3)
    ratio = min(growth_ratio(make, size, repeats=3) for _ in range(2))
    bound = max(LIMIT, 1.5 * json_ratio)
    assert ratio <= bound, f"{failure}: {ratio:.1f}x while json.loads grows {json_ratio:.1f}x"


def _json_or_none(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


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
