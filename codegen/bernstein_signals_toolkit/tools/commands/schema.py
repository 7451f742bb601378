"""``schema``: print a kind's JSON Schema, or write a catalog for editors."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.model import SchemaDocument, Vocabulary
from bernstein_signals_toolkit.generator.output_folder import write_files
from bernstein_signals_toolkit.generator.sources import packaged_sources
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ._arguments import output_folder, path_errors

__all__ = ["configure", "run"]

CATALOG_FILE = "catalog.json"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "kind",
        nargs="?",
        metavar="KIND",
        help="a kind (any case) or 'reply'; without it, list the schemas",
    )
    parser.add_argument(
        "--catalog",
        type=Path,
        metavar="DIR",
        help="copy every schema into DIR and write DIR/catalog.json for editors",
    )


def _documents(vocabulary: Vocabulary) -> dict[str, SchemaDocument]:
    documents: dict[str, SchemaDocument] = {kind.name: kind for kind in vocabulary.kinds}
    documents["REPLY"] = vocabulary.reply
    return documents


def _catalog(vocabulary: Vocabulary, schema_dir: Path, out: Path) -> Path:
    """Write the schemas and ``catalog.json`` into ``out``, never through a symlink there."""
    files: dict[str, bytes] = {}
    entries = []
    for name, document in sorted(_documents(vocabulary).items()):
        files[document.file_name] = (schema_dir / document.file_name).read_bytes()
        entries.append(
            {
                "name": f"bernstein-signals {name}",
                "description": document.description,
                "fileMatch": [f"*.{name.lower()}.json"],
                "url": f"./{document.file_name}",
            }
        )
    catalog = {
        "$schema": "https://json.schemastore.org/schema-catalog.json",
        "version": 1,
        "schemas": entries,
    }
    files[CATALOG_FILE] = (json.dumps(catalog, indent=2, ensure_ascii=False) + "\n").encode()
    write_files(out, files)
    return out / CATALOG_FILE


def run(args: argparse.Namespace) -> int:
    sources = packaged_sources()
    vocabulary = load_vocabulary(sources.schema_dir, sources.grammar)
    documents = _documents(vocabulary)
    if args.catalog is not None:
        if args.kind is not None:
            raise UsageError("--catalog writes every schema; give no KIND")
        output_folder("--catalog", args.catalog)
        with path_errors("--catalog", args.catalog):
            catalog = _catalog(vocabulary, sources.schema_dir, args.catalog)
        print(catalog)
        return 0
    if args.kind is None:
        for name, document in sorted(documents.items()):
            print(f"{name:<12} {document.file_name:<26} {document.schema_id}")
        return 0
    chosen = documents.get(args.kind.upper())
    if chosen is None:
        raise UsageError(f"unknown kind {args.kind!r} (known: {', '.join(sorted(documents))})")
    print((sources.schema_dir / chosen.file_name).read_text(encoding="utf-8"), end="")
    return 0
