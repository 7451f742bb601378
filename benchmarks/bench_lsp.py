"""The language server on a 100,000-line log: time to diagnostics, and hover while it works.

Hover round trips on a small document are timed while the server is idle,
then while it analyses the big log (opened just before). The ratio shows how
much the analysis (in a worker thread) delays other requests.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client

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


def main(quick: bool = False) -> None:
    asyncio.run(_run(10_000 if quick else 100_000, 20))


if __name__ == "__main__":
    main()
