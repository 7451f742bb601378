"""A stream checker's conformance harness: the toolkit's validator, on stream vectors.

Run it as ``bernstein-signals conformance --type stream -- python
conformance/harness/validate.py``. Each stream goes through ``bernstein-signals
validate --format json`` (default options, in this process), whose diagnostic
codes, in output order, are the answer's ``diagnostics``; the kinds and the terminal verdict come
from the Python binding's stream reader, which the validator reads with.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from bernstein_signals import has_terminal_signal, read_signals
from bernstein_signals_toolkit import cli


def _diagnostics(data: bytes) -> list[str]:
    """The codes ``validate --format json`` reports for the stream, in output order."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stream.log"
        path.write_bytes(data)
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
        with contextlib.redirect_stdout(out):
            status = cli.main(["validate", "--format", "json", str(path)])
        out.flush()
    if status not in (0, 1):
        raise RuntimeError(f"validate exited {status}")
    report = json.loads(raw.getvalue())
    return [d["code"] for f in report["files"] for d in f["diagnostics"]]


def _answer(vector: dict[str, Any]) -> dict[str, Any]:
    if vector["type"] != "stream":
        return {"unsupported": "a stream checker reads streams only"}
    data = base64.b64decode(vector["stream_base64"])
    records = list(read_signals(io.BytesIO(data)))
    return {
        "kinds": [str(record.signal.kind) for record in records],
        "terminal": has_terminal_signal(record.signal for record in records),
        "diagnostics": _diagnostics(data),
    }


def main() -> None:
    for request in sys.stdin:
        vector = json.loads(request)
        answer = {"id": vector["id"], **_answer(vector)}
        sys.stdout.write(json.dumps(answer, ensure_ascii=True) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
