"""The shell helpers' conformance harness, for format vectors: each becomes one helper call.

Run it as ``bernstein-signals conformance --type format --allow-unsupported --
python conformance/harness/shell.py``. A payload whose members are all fields of
the kind with string or string-list values goes to the kind's typed helper
(``bernstein_question TEXT --options a --options b``), which checks it and writes
the canonical line; no payload, or string extras, go to ``bernstein_emit KIND
key=value...``. Anything else is answered ``unsupported`` with the reason,
because shell arguments cannot say it: values that are not strings reach the
helpers only as ``key:=JSON``, which is copied verbatim (README, shell
helpers); a shell argument cannot hold U+0000 nor a lone surrogate; and
``bernstein_emit`` writes kinds newer than the library, so it never refuses one.
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
_KINDS = frozenset(kind.value for kind in SignalKind)
_TIMEOUT = 20


def _items(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else [value]


def _arguments(kind: str, payload: object) -> list[str] | str:
    """The helper call (function and arguments) for the payload, or why there is none."""
    if kind not in _KINDS:
        return "bernstein_emit writes kinds newer than the library: it refuses none"
    document = _vocabulary().kind(kind)
    if payload is None:  # the typed helper checks {} and writes no payload, unless it stamps
        return ["bernstein_emit", kind] if kind in STAMPS else [f"bernstein_{document.snake}"]
    if not isinstance(payload, dict):
        return "a payload that is not an object cannot be given as arguments"
    items = [item for value in payload.values() for item in _items(value)]
    if not all(isinstance(item, str) for item in items) or [] in payload.values():
        return "a value that is not a string reaches the helpers only as key:=JSON, copied verbatim"
    text = "".join([*payload, *(str(item) for item in items)])
    if "\0" in text or any(0xD800 <= ord(char) <= 0xDFFF for char in text):
        return "a shell argument cannot hold U+0000 nor a lone surrogate"
    typed = set(payload) <= {prop.name for prop in document.properties}
    stamp = STAMPS.get(kind)
    if typed and (stamp is None or payload.get(stamp) == VOCABULARY_VERSION):
        args = [f"bernstein_{document.snake}"]
        rest = {key: value for key, value in payload.items() if key != stamp}
        args += [rest.pop(name) for name in document.required if name in rest]
        for key, value in rest.items():
            for item in _items(value):
                args += [f"--{key}", str(item)]
        return args
    if not payload:
        return "bernstein_emit writes no payload for no fields: an empty object has no call"
    if any(isinstance(value, list) for value in payload.values()):
        return "a list extra reaches bernstein_emit only as key:=JSON, copied verbatim"
    return ["bernstein_emit", kind, *(f"{key}={value}" for key, value in payload.items())]


@cache
def _vocabulary() -> Vocabulary:
    root = LIBRARY.parents[2]
    return load_vocabulary(root / "schema", root / "grammar" / "signal.lark")


def _answer(vector: dict[str, Any]) -> dict[str, Any]:
    if vector["type"] != "format":
        return {"unsupported": "the shell helpers only write lines"}
    text = vector["payload"]
    call = _arguments(vector["kind"], None if text is None else json.loads(text))
    if isinstance(call, str):
        return {"unsupported": call}
    script = f'. "{LIBRARY}" && "$@"'
    done = subprocess.run(
        ["bash", "-c", script, "bash", *call],
        input=b"",
        capture_output=True,
        timeout=_TIMEOUT,
        check=False,
    )
    if done.returncode == 2 and call[0] != "bernstein_emit":
        return {"error": "payload-schema"}
    if done.returncode != 0:
        return {"unsupported": f"the helper exited {done.returncode}: {done.stderr[:200]!r}"}
    return {"line": done.stdout.decode("utf-8").removesuffix("\n")}


def main() -> None:
    for request in sys.stdin:
        vector = json.loads(request)
        answer = {"id": vector["id"], **_answer(vector)}
        sys.stdout.write(json.dumps(answer, ensure_ascii=True) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
