"""The Python binding's conformance harness: one vector a line on stdin, one answer a line out.

Run it as ``bernstein-signals conformance -- python conformance/harness/python.py``.
It reads payloads with integers exact (Python's ``json`` does), and answers
payloads as JSON text (``json.dumps``), so no digit is lost on the way back.
"""

from __future__ import annotations

import base64
import io
import json
import sys
from collections.abc import Callable
from typing import Any

from bernstein_signals import (
    SignalKind,
    SignalPayloadError,
    format_reply,
    format_signal,
    has_terminal_signal,
    parse_reply,
    parse_signal,
    read_signals,
    validate_payload,
)


def _payload(text: str | None) -> Any:
    return None if text is None else json.loads(text)


_KINDS = frozenset(kind.value for kind in SignalKind)


def _error(exc: Exception, kind: object = None) -> str:
    """The kit's format error category for what the binding raised."""
    if isinstance(exc, SignalPayloadError):
        return "payload-schema"
    if isinstance(exc, TypeError):
        return "payload-type"
    return "not-json" if kind is None or kind in _KINDS else "unknown-kind"


def _line(vector: dict[str, Any]) -> dict[str, Any]:
    line: str | bytes = (
        base64.b64decode(vector["line_base64"]) if "line_base64" in vector else vector["line"]
    )
    signal = parse_signal(line, lenient=vector.get("lenient", False))
    if signal is None:
        return {"kind": None, "payload": None}
    return {"kind": str(signal.kind), "payload": json.dumps(signal.payload)}


def _format(vector: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"line": format_signal(vector["kind"], _payload(vector["payload"]))}
    except (TypeError, ValueError) as exc:
        return {"error": _error(exc, vector["kind"])}


def _check(vector: dict[str, Any]) -> dict[str, Any]:
    errors = validate_payload(vector["kind"], _payload(vector["payload"]))
    return {"errors": [{"pointer": e.pointer, "rule": e.rule} for e in errors]}


def _parse_reply(vector: dict[str, Any]) -> dict[str, Any]:
    reply = parse_reply(vector["line"])
    return {"reply": None if reply is None else json.dumps(dict(reply))}


def _format_reply(vector: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"line": format_reply(vector["answer"], vector["in_reply_to"])}
    except (TypeError, ValueError) as exc:
        return {"error": _error(exc)}


def _stream(vector: dict[str, Any]) -> dict[str, Any]:
    records = list(read_signals(io.BytesIO(base64.b64decode(vector["stream_base64"]))))
    return {
        "kinds": [str(record.signal.kind) for record in records],
        "terminal": has_terminal_signal(record.signal for record in records),
    }


_ANSWER: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "line": _line,
    "format": _format,
    "payload": _check,
    "parse-reply": _parse_reply,
    "format-reply": _format_reply,
    "stream": _stream,
}


def main() -> None:
    for request in sys.stdin:
        vector = json.loads(request)
        answer = {"id": vector["id"], **_ANSWER[vector["type"]](vector)}
        sys.stdout.write(json.dumps(answer, ensure_ascii=True) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
