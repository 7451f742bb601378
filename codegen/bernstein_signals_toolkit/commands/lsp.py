"""``lsp``: the language server, over stdio."""

from __future__ import annotations

import argparse

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--stdio",
        action="store_true",
        help="accepted for editors that pass it; stdio is the only transport",
    )


def run(args: argparse.Namespace) -> int:
    try:
        from ..lsp.server import serve
    except ImportError as exc:  # pygls is an optional dependency
        from ..errors import UsageError

        raise UsageError(
            f"the language server needs pygls ({exc.name} is missing):"
            " pip install 'bernstein-signals[lsp]'"
        ) from None
    serve()
    return 0
