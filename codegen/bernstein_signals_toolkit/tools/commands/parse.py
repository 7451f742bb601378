"""``parse``: the signals of a stream as JSON Lines, one flushed line per signal.

``jsonl`` records (the default) follow ``parse.schema.json`` next to this
module: input, line, kind, payload and the raw line (and ``input_uri``, the
exact name percent-encoded, when the input's name is not UTF-8). Lines of a
kind the vocabulary does not know are plain output, as for every reader;
``--unknown-kinds include`` writes them too, marked ``"unknown_kind": true``. ``cloudevents`` writes
CloudEvents 1.0 JSON (structured mode), one event per line: type
``dev.bernstein.signal.<kind>``, ``source`` from ``--source`` or naming the
input, ``id`` the line number (prefixed with the input's position when one
``--source`` covers several inputs), ``data`` the payload. ``time`` appears
only with ``--timestamps``, so the output is deterministic by default.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bernstein_signals import SignalRecord, UnknownKindRecord
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..validate.formats import display_name, file_uri
from . import _arguments
from ._inputs import add_vocabulary_argument, check_readable, opened, vocabulary_of

__all__ = ["RECORD_SCHEMA", "configure", "run"]

RECORD_SCHEMA = Path(__file__).resolve().with_name("parse.schema.json")
"""The JSON Schema of one ``--format jsonl`` record."""
EVENT_TYPE_PREFIX = "dev.bernstein.signal."
STDIN_SOURCE = "stdin:"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files to read; - or nothing reads stdin"
    )
    parser.add_argument(
        "--format",
        choices=("jsonl", "cloudevents"),
        default="jsonl",
        help="jsonl records (default) or CloudEvents 1.0 JSON, one per line",
    )
    parser.add_argument(
        "--source",
        type=_arguments.text,
        metavar="URI",
        help="the CloudEvents source (default: the input's path, or stdin:)",
    )
    parser.add_argument(
        "--timestamps",
        action="store_true",
        help="add the time each signal was read (makes the output non-deterministic)",
    )
    add_vocabulary_argument(parser)
    parser.add_argument(
        "--unknown-kinds",
        choices=("skip", "include"),
        default="skip",
        help="well-formed lines of kinds the vocabulary does not know: skip them as readers"
        ' do (default), or include them (jsonl records get "unknown_kind": true)',
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _input_fields(path: str) -> dict[str, str]:
    """The input's name as JSON can hold it: text, plus the exact URI when it is not UTF-8."""
    name = display_name(path)
    if name == path:
        return {"input": path}
    return {"input": name, "input_uri": file_uri(path)}


def _record(
    fields: dict[str, str], record: SignalRecord | UnknownKindRecord, *, known: bool
) -> dict[str, Any]:
    document = {
        **fields,
        "line": record.line_no,
        "kind": str(record.signal.kind),
        "payload": record.signal.payload,
        "raw_line": record.signal.raw_line,
    }
    if not known:
        document["unknown_kind"] = True
    return document


def _event(source: str, event_id: str, record: SignalRecord | UnknownKindRecord) -> dict[str, Any]:
    return {
        "specversion": "1.0",
        "type": EVENT_TYPE_PREFIX + str(record.signal.kind).lower(),
        "source": source,
        "id": event_id,
        "datacontenttype": "application/json",
        "data": record.signal.payload,
    }


def _default_source(path: str) -> str:
    return STDIN_SOURCE if path == "-" else quote(os.fsencode(path))


def run(args: argparse.Namespace) -> int:
    paths: list[str] = args.paths or ["-"]
    if paths.count("-") > 1:
        raise UsageError("stdin (-) can be read only once")
    if args.source is not None and not args.source.strip():
        raise UsageError("--source must not be empty")
    check_readable(paths)
    vocabulary = vocabulary_of(args)
    shared_source = args.source is not None and len(paths) > 1
    out = sys.stdout
    for index, path in enumerate(paths, 1):
        source = args.source or _default_source(path)
        id_prefix = f"{index}:" if shared_source else ""
        fields = _input_fields(path)
        with opened(path) as stream:
            try:
                unknown_kinds = args.unknown_kinds == "include"
                for record in vocabulary.read_signals(stream, unknown_kinds=unknown_kinds):
                    if args.format == "cloudevents":
                        document = _event(source, f"{id_prefix}{record.line_no}", record)
                    else:
                        known = vocabulary.knows(str(record.signal.kind))
                        document = _record(fields, record, known=known)
                    if args.timestamps:
                        document["time"] = _now()
                    out.write(json.dumps(document, ensure_ascii=False) + "\n")
                    out.flush()
            except OSError as exc:
                raise UsageError(
                    f"{display_name(path)}: read error: {exc.strerror or exc}"
                ) from None
    return 0
