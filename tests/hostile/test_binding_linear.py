"""Every reader of the binding is linear in its input, on every known-bad line shape.

The shapes come from the one catalogue (``benchmarks._hostile_lines``), so a
shape added there for any reader is checked here for the binding's readers.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES, ORDINARY_LINE, payload_of

from bernstein_signals import (
    SignalScanner,
    iter_signals,
    parse_reply,
    parse_signal,
    read_signals,
    scan_lines,
)
from linear_support import assert_linear

_START_SIZE = 1 << 18
_MAX_SIZE = 1 << 20
_MIN_SECONDS = 0.002


def _calibrated(make: Callable[[int], Callable[[], object]]) -> int:
    """The smallest size (doubling from 256 KiB, at most 1 MiB) whose call takes 2 ms.

    Calls of a few microseconds are dominated by where the allocator finds
    memory (cache-hot or fresh pages), which is no property of the algorithm.
    """
    size = _START_SIZE
    while size < _MAX_SIZE:
        call = make(size)
        call()
        start = time.perf_counter()
        call()
        if time.perf_counter() - start >= _MIN_SECONDS:
            break
        size *= 2
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

    assert_linear(make, _calibrated(make), what=f"{reader} on {shape}", repeats=3)


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

    assert_linear(make, 20_000, what=f"SignalScanner.feed in {piece}-byte pieces", repeats=3)
