"""Write the kit's corpus vectors from the project's corpora: ``python conformance/from_corpus.py``.

- ``lines-corpus.json``: every ``tests/corpus/lines`` case, read strictly and leniently;
  the expected kind and payload are cut from the line as the grammar says (strict: the
  prefix at column 0, the kind, one space, the payload; lenient: stripped, split at the
  first whitespace), the reason from the file name's verdict (tests/corpus/README.md).
- ``lines-json-test-suite.json``: every JSONTestSuite file inside a payload (as the value
  of ``v``, and as the payload itself when it is an object): ``y_`` a signal, ``n_`` not,
  ``i_`` as the protocol's limits decide (README, "Python binding"). The ``y_`` files
  holding a raw LF are left out: a signal is one line.
- ``streams-corpus.json``: every ``tests/corpus/logs`` stream; the validator's codes
  for it (its ``.expected``, in output order) are ``expected.diagnostics`` when the
  case needs no options, for stream checkers (``conformance/harness/validate.py``).

Each expectation is checked against the Python binding before it is written, so a
case where the grammar cut and the binding disagree stops the build instead of
entering the kit. ``tests/conformance`` fails when the files differ from a fresh build.
"""

from __future__ import annotations

import base64
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

from bernstein_signals import (
    SIGNAL_PREFIX,
    VOCABULARY_VERSION,
    has_terminal_signal,
    parse_signal,
    read_signals,
    validate_payload,
)
from bernstein_signals.scanning import strip_terminator

__all__ = ["build", "main"]

ROOT = Path(__file__).resolve().parents[1]
LINES = ROOT / "tests" / "corpus" / "lines"
LOGS = ROOT / "tests" / "corpus" / "logs"
JSON_TEST_SUITE = ROOT / "tests" / "data" / "JSONTestSuite" / "test_parsing"
VECTORS = ROOT / "conformance" / "vectors"
KIT_FORMAT = "bernstein-signals-conformance/1"
_WHITESPACE = re.compile(r"\s+")


def _document(note: str, vectors: list[dict[str, Any]]) -> str:
    body = {
        "//": note,
        "format": KIT_FORMAT,
        "vocabulary": {"name": "bernstein-stream-signals", "version": VOCABULARY_VERSION},
        "vectors": vectors,
    }
    return json.dumps(body, ensure_ascii=True, indent=1) + "\n"


def _line_input(data: bytes) -> dict[str, str]:
    try:
        return {"line": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"line_base64": base64.b64encode(data).decode("ascii")}


def _cut(text: str, lenient: bool) -> tuple[str, str]:
    """Kind and payload text of a signal line, cut as the grammar (or the lenient reader) does."""
    text = strip_terminator(text) if not lenient else text.strip()
    rest = text[len(SIGNAL_PREFIX) :]
    if lenient:
        parts = _WHITESPACE.split(rest.lstrip(), maxsplit=1)
        return parts[0], parts[1] if len(parts) > 1 else "{}"
    kind, _, payload = rest.partition(" ")
    return kind, payload or "{}"


def _expect(line: bytes, lenient: bool, signal: bool, reason: str, where: str) -> dict[str, Any]:
    expected: dict[str, Any] = {"kind": None, "payload": None, "reason": reason}
    if signal:
        kind, payload = _cut(line.decode("utf-8"), lenient)
        expected.update(kind=kind, payload=payload)
    found = parse_signal(line, lenient=lenient)
    same = (found is None) == (not signal) and (
        found is None
        or (found.kind == expected["kind"] and found.payload == json.loads(expected["payload"]))
    )
    if not same:
        raise SystemExit(f"{where}: the grammar cut and the Python binding disagree")
    return expected


def _corpus_lines() -> list[dict[str, Any]]:
    vectors = []
    for path in sorted(LINES.glob("*.line")):
        verdict = path.name.split("__", 1)[0]
        data = path.read_bytes()
        for lenient in (False, True):
            if verdict == "plain":
                signal, reason = False, "not-a-signal"
            elif verdict == "lenient" and not lenient:
                signal, reason = False, "lenient-only"
            else:
                signal = True
                reason = "signal-invalid-payload" if verdict == "invalid" else "signal"
            mode = "lenient" if lenient else "strict"
            vectors.append(
                {
                    "id": f"corpus/{path.stem}/{mode}",
                    "type": "line",
                    **_line_input(data),
                    "lenient": lenient,
                    "expected": _expect(data, lenient, signal, reason, path.name),
                }
            )
    return vectors


def _suite_lines() -> list[dict[str, Any]]:
    vectors = []
    for path in sorted(JSON_TEST_SUITE.iterdir()):
        content = path.read_bytes()
        if path.name.startswith("y_") and b"\n" in content:
            continue
        lines = {"value": b'BERNSTEIN:COMPLETED {"v":' + content + b"}"}
        if content.startswith(b"{"):
            lines["payload"] = b"BERNSTEIN:COMPLETED " + content
        for place, line in lines.items():
            signal = parse_signal(line) is not None
            if path.name[0] in "yn" and signal != path.name.startswith("y_"):
                raise SystemExit(f"{path.name}: the Python binding gives the wrong verdict")
            reason = "not-a-signal"
            if signal:
                payload = json.loads(line[len("BERNSTEIN:COMPLETED ") :])
                valid = not validate_payload("COMPLETED", payload)
                reason = "signal" if valid else "signal-invalid-payload"
            vectors.append(
                {
                    "id": f"json-test-suite/{path.name}/{place}",
                    "type": "line",
                    **_line_input(line),
                    "lenient": False,
                    "expected": _expect(line, False, signal, reason, path.name),
                }
            )
    return vectors


def _streams() -> list[dict[str, Any]]:
    vectors = []
    for path in sorted(LOGS.glob("*.log")):
        data = path.read_bytes()
        records = list(read_signals(io.BytesIO(data)))
        expected: dict[str, Any] = {
            "kinds": [str(record.signal.kind) for record in records],
            "terminal": has_terminal_signal(record.signal for record in records),
        }
        lines = path.with_suffix(".expected").read_text("utf-8").splitlines()
        if not any(line.startswith("# options:") for line in lines):  # default options only
            expected["diagnostics"] = [line.split()[-1] for line in lines if line]
        vectors.append(
            {
                "id": f"corpus-logs/{path.stem}",
                "type": "stream",
                "stream_base64": base64.b64encode(data).decode("ascii"),
                "expected": expected,
            }
        )
    return vectors


def build() -> dict[str, str]:
    """File name -> text of each corpus vector file."""
    return {
        "lines-corpus.json": _document(
            "Generated by conformance/from_corpus.py from tests/corpus/lines.", _corpus_lines()
        ),
        "lines-json-test-suite.json": _document(
            "Generated by conformance/from_corpus.py from tests/data/JSONTestSuite.",
            _suite_lines(),
        ),
        "streams-corpus.json": _document(
            "Generated by conformance/from_corpus.py from tests/corpus/logs.", _streams()
        ),
    }


def main() -> None:
    for name, text in build().items():
        (VECTORS / name).write_text(text, encoding="utf-8")
        print(f"wrote {VECTORS / name}", file=sys.stderr)


if __name__ == "__main__":
    main()
