"""A fenced adapter of any vocabulary: it marks its lines itself, with no binding's marker.

Usage: fence_vocabulary_adapter.py PROGRAM, a JSON object: ``prefix`` (the
vocabulary's, e.g. ``ACME:``), ``lines`` and ``exit`` (its status). Each line
is ``["mark", KIND, PAYLOAD]`` (a line marked with the run's key, as the
spec's mark is defined: the HMAC covers the kind and the payload, never the
prefix) or ``["raw", TEXT]`` (printed as it is, with ``\\r`` kept). In a TEXT
or a payload's string, ``{key}``, ``{secret}`` and ``{SECRET}`` become the
run's key text, its secret and the secret in upper case, ``{escaped}`` the
secret with its first character as a JSON ``\\u`` escape: a misbehaving
adapter that prints its key. ``bernstein_signals`` takes the key at import,
however it was handed over.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import bernstein_signals  # noqa: F401  # takes the run's key at import
from bernstein_signals.fence import process_key


def _canonical(value: dict[str, Any]) -> str:
    """The canonical JSON of a payload of ASCII keys (sorted, no blanks)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main(program: dict[str, Any]) -> int:
    key = process_key()
    if key is None:
        print("fence_vocabulary_adapter: no key was handed over", file=sys.stderr)
        return 99
    secret = key.text().partition(":")[2]
    holes = {
        "{key}": key.text(),
        "{secret}": secret,
        "{SECRET}": secret.upper(),
        "{escaped}": f"\\u{ord(secret[0]):04x}{secret[1:]}",
    }

    def fill(text: str) -> str:
        for hole, value in holes.items():
            text = text.replace(hole, value)
        return text

    prefix = program["prefix"]
    out = sys.stdout.buffer
    seq = 0
    for line in program["lines"]:
        if line[0] == "raw":
            out.write(fill(line[1]).encode("utf-8") + b"\n")
            continue
        _, kind, payload = line
        payload = {name: fill(v) if isinstance(v, str) else v for name, v in payload.items()}
        seq += 1
        text = _canonical(payload) if payload else ""
        mark = f"{key.run}.{seq}.{key.mac(str(seq), kind, text)}"
        out.write(f"{prefix}{kind} {_canonical({**payload, '_sig': mark})}\n".encode())
    out.flush()
    return int(program["exit"])


if __name__ == "__main__":
    sys.exit(main(json.loads(sys.argv[1])))
