"""Every known-bad line shape at 1 MiB through every binding reader, against an ordinary line.

For each shape of :mod:`benchmarks._hostile_lines`, the time of strict and
lenient ``parse_signal``, ``parse_reply`` (on the payload) and ``read_signals``
(on the line as a stream), each as a ratio to the same call on an ordinary
1 MiB payload line measured in the same run (target: at most 3x). The last
column is bare ``json.loads`` of the shape's payload against the ordinary
one: where it is itself far above 3x (dense containers), the cost is json
building Python objects, not a check of ours; "strict/json" is strict
``parse_signal`` over bare ``json.loads`` on the same line, our own overhead.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable

from benchmarks._hostile_lines import HOSTILE_LINES, ORDINARY_LINE, payload_of
from benchmarks._timing import per_call
from bernstein_signals import SignalScanner, parse_reply, parse_signal, read_signals

_TARGET = 3.0


def _json_loads(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _calls(line: str) -> dict[str, Callable[[], object]]:
    data = (line + "\n").encode("utf-8", "surrogatepass")
    payload = payload_of(line)
    return {
        "strict": lambda: parse_signal(line),
        "lenient": lambda: parse_signal(line, lenient=True),
        "parse_reply": lambda: parse_reply(payload),
        "read_signals": lambda: list(read_signals(io.BytesIO(data))),
        "json.loads": lambda: _json_loads(payload),
    }


def _best(run: Callable[[], object], repeats: int) -> float:
    run()
    return min(per_call(run, 1) for _ in range(repeats))


def main(quick: bool) -> None:
    size = 1 << (16 if quick else 20)
    repeats = 3 if quick else 7
    base = {name: _best(call, repeats) for name, call in _calls(ORDINARY_LINE(size)).items()}
    names = list(base)
    print(f"line size {size:,} bytes; ratio to an ordinary payload line; target <= {_TARGET:g}x")
    print(f"{'ordinary (ms)':<28}" + "".join(f"{base[n] * 1e3:>13.2f}" for n in names))
    print(f"{'shape':<28}" + "".join(f"{n:>13}" for n in names) + f"{'strict/json':>13}")
    missed = []
    for shape, build in HOSTILE_LINES.items():
        calls = _calls(build(size))
        times = {name: _best(call, repeats) for name, call in calls.items()}
        ratios = {name: times[name] / base[name] for name in names}
        own = times["strict"] / max(times["json.loads"], 1e-9)
        row = "".join(f"{ratios[n]:>12.2f}x" for n in names)
        print(f"{shape:<28}{row}{own:>12.2f}x", flush=True)
        missed += [f"{shape}/{n}" for n in names[:-1] if ratios[n] > _TARGET]
    print(f"over {_TARGET:g}x: {', '.join(missed) if missed else 'none'}")
    _feeds(400_000 if not quick else 40_000)


def _feeds(size: int) -> None:
    """Issue 10 item 10: an unfinished line fed a byte at a time, against one feed of it."""
    data = HOSTILE_LINES["escaped-quotes-deep"](size).encode()
    pieces = [data[i : i + 1] for i in range(len(data))]

    def bytewise() -> None:
        scanner = SignalScanner(max_line_bytes=1 << 30)
        for piece in pieces:
            scanner.feed(piece)
        scanner.close()

    def whole() -> None:
        scanner = SignalScanner(max_line_bytes=1 << 30)
        scanner.feed(data)
        scanner.close()

    one_byte, at_once = _best(bytewise, 3), _best(whole, 3)
    print(
        f"SignalScanner.feed, {len(pieces):,} 1-byte pieces of one unfinished line:"
        f" {one_byte:.3f} s ({one_byte / len(pieces) * 1e9:.0f} ns per feed; one feed of it:"
        f" {at_once * 1e3:.2f} ms)"
    )
