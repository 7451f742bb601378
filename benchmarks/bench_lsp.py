"""The language server on a 100,000-line log, and its analysis on hostile lines.

1. Hover round trips on a small document are timed while the server is idle,
   then while it analyses the big log (opened just before). The ratio shows
   how much the analysis (in a worker thread) delays other requests.
2. Hostile lines (issue 10 item 2): every shape of benchmarks/_hostile_lines.py
   at 1 MiB as a log document through ``analyse``, ``hover`` (around the
   middle) and ``completions`` (at the end), and at 64 KiB inside a shell
   script (``printf '%s\n' LINE``) through the same calls and
   ``rewrite_as_helper``; each as a ratio to an ordinary payload line of the
   same size in the same run, target at most 3x.
3. Near-miss documents (issue 23 item 8): a 1.5 MB log of 100,000 lines of one
   diagnostic each and a 200,000-line log of two each, opened in the server;
   the time from didOpen to publishDiagnostics, how many diagnostics it holds
   and the notification's size in JSON (the cap: ``maxDiagnostics``).
"""

from __future__ import annotations

import asyncio
import json
import shlex
import statistics
import sys
import time
from collections.abc import Callable

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client

from benchmarks._hostile_lines import HOSTILE_LINES, ORDINARY_LINE
from benchmarks._timing import per_call
from bernstein_signals_toolkit.tools.lsp import analysis, assist

SERVER = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "lsp"]


def _log(lines: int) -> str:
    rows = [f"2026-12-02T13:00:00Z INFO worker[{n % 8}] step {n} done" for n in range(lines)]
    for n in range(0, lines, 50):  # 2% signals, a few of them near-misses
        rows[n] = f'BERNSTEIN:QUESTION {{"question":"Go?","id":"q-{n}"}}'
    for n in range(25, lines, 1000):
        rows[n] = "BERNSTEIN:COMPLETE"
    rows[-1] = "BERNSTEIN:COMPLETED"
    return "\n".join(rows) + "\n"


async def _hover(client: LanguageClient, uri: str) -> float:
    start = time.perf_counter()
    await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 12))
    )
    return time.perf_counter() - start


async def _run(lines: int, samples: int) -> None:
    client = make_test_lsp_client()
    await client.start_io(*SERVER)
    await client.initialize_session(
        lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    small, big = "file:///small.log", "file:///big.log"
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(small, "plaintext", 1, "BERNSTEIN:COMPLETED\n")
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    idle = [await _hover(client, small) for _ in range(samples)]

    text = _log(lines)
    opened = time.perf_counter()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(big, "plaintext", 1, text))
    )
    published = asyncio.ensure_future(
        client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    )
    busy: list[float] = []
    while not published.done():
        busy.append(await _hover(client, small))
    params = await published
    took = time.perf_counter() - opened
    await client.shutdown_session()

    print(
        f"log: {lines:,} lines, {len(text):,} characters; {len(params.diagnostics):,}"
        f" diagnostics published {took:.2f}s after didOpen ({lines / took:,.0f} lines/s)"
    )
    print(
        f"hover while idle     median {statistics.median(idle) * 1e3:7.2f} ms"
        f"   max {max(idle) * 1e3:7.2f} ms   ({len(idle)} requests)"
    )
    if busy:
        print(
            f"hover while analysing median {statistics.median(busy) * 1e3:7.2f} ms"
            f"   max {max(busy) * 1e3:7.2f} ms   ({len(busy)} requests answered meanwhile)"
        )
        ratio = statistics.median(busy) / statistics.median(idle)
        print(f"ratio (median busy / median idle): {ratio:.1f}x")


_NEAR_MISSES = {
    "1.5 MB, 100,000 lines": ("BERNSTEIN:DONE", 100_000),  # BS216 each
    "200,000 lines": ("bernstein:completed", 200_000),  # BS201 and BS203 each
}


async def _near_misses(quick: bool) -> None:
    client = make_test_lsp_client()
    await client.start_io(*SERVER)
    await client.initialize_session(
        lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    print("near-miss documents: didOpen to publishDiagnostics")
    for number, (title, (line, count)) in enumerate(_NEAR_MISSES.items()):
        text = (line + "\n") * (count // 10 if quick else count)
        uri = f"file:///near-miss-{number}.log"
        opened = time.perf_counter()
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "plaintext", 1, text))
        )
        params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        took = time.perf_counter() - opened
        body = client.protocol._converter.unstructure(params)
        size = len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())
        print(
            f"{title:<24} {len(text):>11,} bytes  {took:7.2f} s  {len(params.diagnostics):>9,}"
            f" diagnostics  {size:>12,} bytes of JSON",
            flush=True,
        )
    await client.shutdown_session()


_TARGET = 3.0
_SETTINGS = analysis.Settings(max_line_bytes=1 << 30)


def _log_calls(line: str) -> dict[str, Callable[[], object]]:
    middle = len(line) // 2

    def hover_middle() -> None:
        for column in range(middle, middle + 24):
            assist.hover(line, 0, column, shell=False)

    return {
        "analyse": lambda: analysis.analyse(line, shell=False, settings=_SETTINGS),
        "hover": hover_middle,
        "complete": lambda: assist.completions(line, 0, len(line), shell=False),
    }


def _script_calls(line: str) -> dict[str, Callable[[], object]]:
    script = f"printf '%s\\n' {shlex.quote(line)}"
    return {
        "analyse": lambda: analysis.analyse(script, shell=True, settings=_SETTINGS),
        "hover": lambda: assist.hover(script, 0, len(script) // 2, shell=True),
        "complete": lambda: assist.completions(script, 0, len(script) - 1, shell=True),
        "rewrite": lambda: analysis.rewrite_as_helper(script, 0),
    }


def _best(run: Callable[[], object], repeats: int) -> float:
    run()
    return min(per_call(run, 1) for _ in range(repeats))


def _hostile(
    title: str, size: int, calls: Callable[[str], dict[str, Callable[[], object]]], repeats: int
) -> None:
    base = {name: _best(call, repeats) for name, call in calls(ORDINARY_LINE(size)).items()}
    names = list(base)
    print(f"{title}, lines of {size:,} bytes; ratio to an ordinary payload line; target <= 3x")
    print(f"{'ordinary (ms)':<28}" + "".join(f"{base[n] * 1e3:>12.2f}" for n in names))
    print(f"{'shape':<28}" + "".join(f"{n:>12}" for n in names))
    missed = []
    for shape, build in HOSTILE_LINES.items():
        ratios = {
            name: _best(call, repeats) / base[name] for name, call in calls(build(size)).items()
        }
        print(f"{shape:<28}" + "".join(f"{ratios[n]:>11.2f}x" for n in names), flush=True)
        missed += [f"{shape}/{n}" for n in names if ratios[n] > _TARGET]
    print(f"over {_TARGET:g}x: {', '.join(missed) if missed else 'none'}")


def main(quick: bool = False) -> None:
    asyncio.run(_run(10_000 if quick else 100_000, 20))
    asyncio.run(_near_misses(quick))
    repeats = 3 if quick else 5
    _hostile("log documents", 1 << (16 if quick else 20), _log_calls, repeats)
    _hostile("shell scripts", 1 << (13 if quick else 16), _script_calls, repeats)


if __name__ == "__main__":
    main()
