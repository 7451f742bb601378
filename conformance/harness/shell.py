"""The shell helpers' conformance harness, for format vectors: each becomes one helper call.

Run it as ``bernstein-signals conformance --type format -- python
conformance/harness/shell.py``. Every format vector is routed to one call:

- a payload the kind's typed helper can say (every member a field of the kind,
  each a string or a list of strings, the version stamp the library's own) goes
  to that helper (``bernstein_question TEXT --options a --options b``), which
  checks it against the kind's schema and writes the canonical line; no
  payload goes there too (it checks ``{}``), except for the kinds whose helper
  stamps a version, which write no payload only through ``bernstein_emit``;
- any other goes to ``bernstein_emit --known KIND :=PAYLOAD``, the payload's
  JSON text as it is: ``--known`` refuses a kind the library does not know,
  ``:=`` alone refuses a payload that is not an object, checks the JSON and
  writes it in canonical form, and checks the JSON type of every field the
  kind's schema declares (``{"reason": 1}`` for FAILED). Its other rules
  (lengths, patterns, required fields) only the typed helpers check, so a
  payload that breaks one of them beside a value the typed helper cannot say
  would be written: no vector is such a payload.

A helper's refusal is mapped to the vector's error category by its message,
with :data:`ERRORS` (the helper's words, not the expected answers).
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

from bernstein_signals import (
    COMPLETED_VOCABULARY,
    FAILED_VOCABULARY,
    VOCABULARY_VERSION,
    SignalKind,
)
from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.model import Vocabulary

LIBRARY = Path(__file__).resolve().parents[2] / "generated" / "shell" / "bernstein-signals.sh"
STAMPS = {"COMPLETED": COMPLETED_VOCABULARY, "FAILED": FAILED_VOCABULARY}
"""The field each kind's helper fills with the library's version itself."""
ERRORS = (
    ("significant digits: the shell helpers cannot round it", None),
    ("where doubles lose digits: the shell helpers cannot round it", None),
    ("bernstein_emit: KIND must be ALL-CAPS", "unknown-kind"),
    ("bernstein_emit: unknown kind ", "unknown-kind"),
    ("bernstein_emit: := gives the payload, which must be a JSON object", "payload-type"),
    ("bernstein_emit: field ", "payload-schema"),
    ("bernstein_emit: := ", "not-json"),
)
"""Words of bernstein_emit's message -> the format error category, the first that
the message holds. None: a double the helpers cannot round (more than 15 significant
digits, or near the subnormal range), which the kit's categories have no name for:
answered unsupported. A typed helper's refusal (status 2) is always payload-schema:
it checks nothing else."""
_KINDS = frozenset(kind.value for kind in SignalKind)
_TIMEOUT = 20


@cache
def _vocabulary() -> Vocabulary:
    root = LIBRARY.parents[2]
    return load_vocabulary(root / "schema", root / "grammar" / "signal.lark")


def _says(value: object, array: bool) -> bool:
    """Whether a typed helper's arguments can say the value: a string, or a list of them."""
    if isinstance(value, list):
        return array and bool(value) and all(isinstance(item, str) for item in value)
    return isinstance(value, str)


def _typed_call(kind: str, payload: object) -> list[str] | None:
    """The typed helper's call for the payload, or None when its arguments cannot say it."""
    if kind not in _KINDS:
        return None
    document = _vocabulary().kind(kind)
    if payload is None:
        return None if kind in STAMPS else [f"bernstein_{document.snake}"]
    if not isinstance(payload, dict):
        return None
    properties = {prop.name: prop for prop in document.properties}
    if not all(
        key in properties and _says(value, properties[key].is_array)
        for key, value in payload.items()
    ):
        return None
    text = json.dumps(payload, ensure_ascii=False)
    if "\0" in text or any(0xD800 <= ord(char) <= 0xDFFF for char in text):
        return None  # a shell argument holds neither: the JSON escape goes through :=
    stamp = STAMPS.get(kind)
    if stamp is not None and payload.get(stamp) != VOCABULARY_VERSION:
        return None
    args = [f"bernstein_{document.snake}"]
    rest = {key: value for key, value in payload.items() if key != stamp}
    args += [rest.pop(name) for name in document.required if name in rest]
    for key, value in rest.items():
        for item in value if isinstance(value, list) else [value]:
            args += [f"--{key}", item]
    return args


def _call(kind: str, text: str | None) -> list[str]:
    typed = _typed_call(kind, None if text is None else json.loads(text))
    if typed is not None:
        return typed
    return ["bernstein_emit", "--known", kind, *([] if text is None else [f":={text}"])]


def _refusal(call: list[str], stderr: str) -> dict[str, Any]:
    if call[0] != "bernstein_emit":
        return {"error": "payload-schema"}
    for words, category in ERRORS:
        if words in stderr:
            return {"error": category} if category else {"unsupported": stderr.strip()}
    return {"unsupported": f"a message the harness does not know: {stderr[:200]!r}"}


def _answer(vector: dict[str, Any]) -> dict[str, Any]:
    if vector["type"] != "format":
        return {"unsupported": "the shell helpers only write lines"}
    call = _call(vector["kind"], vector["payload"])
    done = subprocess.run(
        ["bash", "-c", f'. "{LIBRARY}" && "$@"', "bash", *call],
        input=b"",
        capture_output=True,
        timeout=_TIMEOUT,
        check=False,
    )
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode == 2:
        return _refusal(call, stderr)
    if done.returncode != 0 or stderr:
        return {"unsupported": f"the helper exited {done.returncode}: {stderr[:200]!r}"}
    return {"line": done.stdout.decode("utf-8").removesuffix("\n")}


def main() -> None:
    for request in sys.stdin:
        vector = json.loads(request)
        answer = {"id": vector["id"], **_answer(vector)}
        sys.stdout.write(json.dumps(answer, ensure_ascii=True) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
