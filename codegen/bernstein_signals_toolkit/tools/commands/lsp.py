"""``lsp``: the language server, over stdio."""

from __future__ import annotations

import argparse

from ._inputs import add_vocabulary_argument, vocabulary_of

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--stdio",
        action="store_true",
        help="accepted for editors that pass it; stdio is the only transport",
    )
    add_vocabulary_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        from ..lsp.server import serve
    except ImportError as exc:  # pygls is an optional dependency
        from bernstein_signals_toolkit.toolkit_errors import UsageError

        raise UsageError(
            f"the language server needs pygls ({exc.name} is missing):"
            " pip install 'bernstein-signals[lsp]'"
        ) from None
    if args.vocabulary is not None:
        vocabulary_of(args)  # a folder that does not compile is a usage error before serving
    serve(args.vocabulary)
    return 0
