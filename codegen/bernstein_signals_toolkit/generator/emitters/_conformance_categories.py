"""The conformance kit's closed lists: vector types, line reasons and format errors.

The one table: the emitter writes it into the kit (``categories.json``, the
vector and answer JSON Schemas, the kit README) and the ``conformance`` runner
checks every vector and answer against it, so a category cannot exist in one
place only.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["FORMAT_ERRORS", "KIT_FORMAT", "LINE_REASONS", "VECTOR_TYPES"]

KIT_FORMAT = "bernstein-signals-conformance/1"
"""The vector and answer format's version: a change to either bumps it."""

VECTOR_TYPES: Mapping[str, str] = {
    "line": "read one line (`line` text or `line_base64` bytes; `lenient`) as a signal:"
    " answer `kind` (null: not a signal) and `payload` (its JSON text, or null)",
    "format": "write the canonical line of `kind` and `payload` (JSON text, or null for none):"
    " answer `line`, or `error` with a format error category",
    "payload": "check `payload` (JSON text) against the schema of `kind`: answer `errors`,"
    " each `pointer` and `rule` (empty: valid)",
    "parse-reply": "read `line` as a reply: answer `reply` (the reply's JSON text, or null)",
    "format-reply": "write the reply line of `answer` and `in_reply_to` (a string or null):"
    " answer `line`, or `error` with a format error category",
    "stream": "read the stream `stream_base64` (bytes) with the stream reader: answer `kinds`"
    " (the signals' kinds in order) and `terminal` (whether one of them ends the run); a"
    " stream checker may add `diagnostics`, its codes in order, compared where the vector"
    " has them",
}
"""Vector type -> what the implementation does with it and what it answers."""

LINE_REASONS: Mapping[str, str] = {
    "signal": "a signal line whose payload is valid for its kind",
    "signal-invalid-payload": "a signal line (readers return it) whose payload breaks its schema",
    "lenient-only": "not a signal for a strict reader; a lenient reader takes it",
    "not-a-signal": "plain output for every reader: no prefix at column 0, an unknown kind,"
    " a payload that is not one JSON object on the line, or past a limit",
}
"""Why a line vector expects what it expects (in the vector only; answers carry none)."""

FORMAT_ERRORS: Mapping[str, str] = {
    "unknown-kind": "the kind is not one the vocabulary defines",
    "payload-type": "the payload is not a JSON object (nor absent)",
    "not-json": "the payload cannot be written as JSON on one line: nesting deeper than the"
    " limit, a lone surrogate, a non-finite number, an integer of too many digits",
    "payload-schema": "the payload (for a reply: the reply) breaks its schema",
}
"""Why a writer refuses: the same codes as the TypeScript binding's SignalFormatError."""
