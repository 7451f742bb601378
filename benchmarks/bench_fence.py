"""The fence's cost (issue 17): marking and verifying against the unfenced binding, same run.

1. SignalMarker.mark vs format_signal over the corpus's signals (kind and payload).
2. read_signals(key=) over the corpus with every signal marked vs read_signals over the
   same marked corpus unfenced, and vs read_signals over the unmarked corpus.
3. read_signals without key vs the reader loop it was before the fence (a SignalScanner
   fed chunk by chunk): the unfenced path keeps today's speed.
4. iter_signals(key=) vs iter_signals over the marked corpus's lines.
5. Per signal line: FenceVerifier.check vs parse_signal over the marked signal lines.

Ratios are "time": how many times the baseline's time the fenced call takes.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from benchmarks._corpus import corpus_lines, signal_lines
from benchmarks._timing import report, side_by_side
from bernstein_signals import (
    FenceVerifier,
    SignalKey,
    SignalMarker,
    SignalRecord,
    SignalScanner,
    format_signal,
    iter_signals,
    parse_signal,
    read_chunks,
    read_signals,
)


def _parts(lines: list[str]) -> list[tuple[str, dict[str, Any] | None]]:
    parts = []
    for line in signal_lines(lines):
        signal = parse_signal(line)
        if signal is not None:
            carries = line.rstrip().endswith("}")
            parts.append((str(signal.kind), signal.payload if carries else None))
    return parts


def _marked(lines: list[str], key: SignalKey) -> list[str]:
    marker = SignalMarker(key)
    out = []
    for line in lines:
        signal = parse_signal(line) if line.startswith("BERNSTEIN:") else None
        if signal is None:
            out.append(line)
        else:
            payload = signal.payload if line.rstrip().endswith("}") else None
            out.append(marker.mark(signal.kind, payload) + "\n")
    return out


def _count(records: Iterator[object]) -> int:
    return sum(1 for _ in records)


def _scanner_loop(data: bytes) -> int:
    """read_signals as it was before the fence: a scanner fed the stream's chunks."""
    scanner = SignalScanner()
    found: list[SignalRecord] = []
    for chunk in read_chunks(io.BytesIO(data)):
        found += scanner.feed(chunk)
    found += scanner.close()
    return len(found)


def main(quick: bool = False) -> None:
    lines = corpus_lines(quick)
    repeats = 3 if quick else 5
    key = SignalKey.generate()
    parts = _parts(lines)

    def mark_all() -> None:
        marker = SignalMarker(key)
        for kind, payload in parts:
            marker.mark(kind, payload)

    def format_all() -> None:
        for kind, payload in parts:
            format_signal(kind, payload)

    times = side_by_side(mark_all, format_all, repeats=repeats)
    report("SignalMarker.mark", len(parts), times, "format_signal", "time (HMAC + JSON)")

    marked = _marked(lines, key)
    marked_data, plain_data = "".join(marked).encode(), "".join(lines).encode()
    assert _count(read_signals(io.BytesIO(marked_data), key=key)) == len(parts)

    def fenced() -> int:
        return _count(read_signals(io.BytesIO(marked_data), key=key))

    def unfenced_marked() -> int:
        return _count(read_signals(io.BytesIO(marked_data)))

    def unfenced_plain() -> int:
        return _count(read_signals(io.BytesIO(plain_data)))

    size = len(lines)
    times = side_by_side(fenced, unfenced_marked, repeats=repeats)
    report("read_signals(key=), lines", size, times, "read_signals, marked", "time (measured)")
    times = side_by_side(fenced, unfenced_plain, repeats=repeats)
    report("read_signals(key=), lines", size, times, "read_signals, unmarked", "time (measured)")
    times = side_by_side(unfenced_plain, lambda: _scanner_loop(plain_data), repeats=repeats)
    report("read_signals, no key, lines", size, times, "pre-fence scanner loop", "time ~1.0")

    times = side_by_side(
        lambda: _count(iter_signals(marked, key=key)),
        lambda: _count(iter_signals(marked)),
        repeats=repeats,
    )
    report("iter_signals(key=), lines", size, times, "iter_signals, marked", "time (measured)")

    signals = signal_lines(marked)

    def verify_all() -> None:
        check = FenceVerifier(key).check
        for line in signals:
            check(line)

    def parse_all() -> None:
        for line in signals:
            parse_signal(line)

    times = side_by_side(verify_all, parse_all, repeats=repeats)
    report("FenceVerifier.check, signals", len(signals), times, "parse_signal", "time (measured)")
