"""The fence's test vectors, ``tests/data/fence_vectors.json``: every binding checks these bytes.

This module both writes the file (``python tests/binding/test_fence_vectors.py``)
and checks it: the file must equal a fresh derivation (so it is never stale),
each marked line must match an HMAC computed here from the documented message
(an oracle independent of the marker), and each tampered line must get its code.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from pathlib import Path
from typing import Any

from bernstein_signals import (
    MAC_DOMAIN,
    MARK_FIELD,
    MAX_SEQUENCE,
    MAX_SEQUENCE_STEP,
    SIGNAL_PREFIX,
    FenceVerifier,
    SignalKey,
    SignalMarker,
)
from bernstein_signals._canonical_json import dump_canonical

VECTORS = Path(__file__).resolve().parents[1] / "data" / "fence_vectors.json"

KEY_TEXT = "5f1c0ffee0ddba11:" + hashlib.sha256(b"bernstein-signals fence vectors").hexdigest()
"""The vectors' fixed key (a test key: its secret is public)."""
OTHER_RUN_KEY_TEXT = "a11ce0fba5eba11d:" + hashlib.sha256(b"another run").hexdigest()
SAME_RUN_OTHER_SECRET = "5f1c0ffee0ddba11:" + hashlib.sha256(b"another secret").hexdigest()

_MARKED: list[tuple[str, str, dict[str, Any] | None]] = [
    ("completed, no payload", "COMPLETED", None),
    ("completed, {} (the same signal as no payload)", "COMPLETED", {}),
    ("completed with vocabulary", "COMPLETED", {"vocabulary": "1.1.0"}),
    ("failed, no payload", "FAILED", None),
    ("failed with reason", "FAILED", {"reason": "exit 2"}),
    (
        "question with options and id",
        "QUESTION",
        {"question": "Apply migration?", "options": ["yes", "no"], "id": "q-001"},
    ),
    ("question, non-ASCII", "QUESTION", {"question": "Übernehmen? 日本語 ✓ — ok"}),
    (
        "question with U+2028, U+2029 and U+0085 (escaped on the line)",
        "QUESTION",
        {"question": "one\u2028two\u2029three\x85four"},
    ),
    (
        "question with escapes",
        "QUESTION",
        {"question": 'tab\tquote"backslash\\ nul\x00 bell\x07 del\x7f'},
    ),
    (
        "plan draft",
        "PLAN_DRAFT",
        {"markdown": "# Plan\n- step 1", "path": ".sdd/plans/fix-login.md"},
    ),
    ("plan ready with an extra", "PLAN_READY", {"path": ".sdd/plans/fix-login.md", "steps": 4}),
    (
        "blocked with hint",
        "BLOCKED",
        {"reason": "GITHUB_TOKEN is not set", "hint": "export GITHUB_TOKEN and re-run"},
    ),
    (
        "keys that sort before _sig (digits, upper case, $, _a)",
        "FAILED",
        {"reason": "x", "Zeta": 1, "A": True, "0": None, "$ref": "#", "_a": "first"},
    ),
    (
        "astral and high BMP keys (UTF-16 order)",
        "QUESTION",
        {"question": "q", "\U0001f600": 1, "\ufb01": 2, "é": 3},
    ),
    (
        "floats",
        "FAILED",
        {"reason": "f", "a": 1.5, "b": 1e21, "c": 1e-7, "d": -0.0, "e": 100.0, "f": 0.1},
    ),
    (
        "big integers",
        "FAILED",
        {"reason": "b", "n": 2**64, "m": -(10**30), "s": 9007199254740993},
    ),
    (
        "nested extras (an inner _sig is payload)",
        "QUESTION",
        {"question": "q", "meta": {"b": [1, {"_sig": "inner"}], "a": {"c": None}}, "_x": []},
    ),
    ("blocked, empty hint", "BLOCKED", {"reason": "r", "hint": ""}),
    ("plan ready, nested path", "PLAN_READY", {"path": ".sdd/plans/2026/q4-roadmap.md"}),
]
_LAST: tuple[str, str, dict[str, Any] | None] = (
    "the largest sequence number",
    "COMPLETED",
    {"vocabulary": "1.1.0"},
)


def _mark(key: SignalKey, seq: int, kind: str, payload: dict[str, Any] | None) -> str:
    marker = SignalMarker(key)
    marker._next = seq  # the vectors pin given sequence numbers
    return marker.mark(kind, payload)


def _replace_mark(line: str, mark: str) -> str:
    """``line`` with its mark's value replaced (the rest byte for byte)."""
    start = line.index(f'"{MARK_FIELD}":"') + len(MARK_FIELD) + 4
    end = line.index('"', start)
    return line[:start] + mark + line[end:]


def _mark_of(line: str) -> str:
    start = line.index(f'"{MARK_FIELD}":"') + len(MARK_FIELD) + 4
    return line[start : line.index('"', start)]


def _tampered(key: SignalKey, marked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lines the verifier must refuse: (name, lines accepted first, allow_kinds, line)."""
    line = {case["name"]: case["line"] for case in marked}
    first, second = marked[0]["line"], marked[4]["line"]
    failed = line["failed with reason"]
    question = line["question with options and id"]
    run, seq, mac = _mark_of(failed).split(".")
    flipped_mac = mac[:10] + ("0" if mac[10] != "0" else "1") + mac[11:]
    zero = f"{run}.0.{key.mac('0', 'FAILED', dump_canonical({'reason': 'exit 2'}))}"
    plan = line["plan ready with an extra"]
    cases: list[tuple[str, list[str], list[str] | None, str]] = [
        ("unmarked, no payload", [], None, "BERNSTEIN:COMPLETED"),
        ("unmarked plan", [], None, 'BERNSTEIN:PLAN_READY {"path":".sdd/plans/x.md"}'),
        (
            "marked for another run",
            [],
            None,
            _mark(SignalKey.parse(OTHER_RUN_KEY_TEXT), 1, "COMPLETED", None),
        ),
        (
            "same run, another secret",
            [],
            None,
            _mark(SignalKey.parse(SAME_RUN_OTHER_SECRET), 1, "COMPLETED", None),
        ),
        ("one MAC digit changed", [], None, _replace_mark(failed, f"{run}.{seq}.{flipped_mac}")),
        ("payload changed", [], None, failed.replace("exit 2", "exit 0")),
        ("kind changed", [], None, failed.replace("BERNSTEIN:FAILED", "BERNSTEIN:COMPLETED")),
        ("sequence number changed", [], None, _replace_mark(failed, f"{run}.{int(seq) + 1}.{mac}")),
        ("mark not a string", [], None, 'BERNSTEIN:COMPLETED {"_sig":5}'),
        ("mark in upper case", [], None, _replace_mark(failed, f"{run}.{seq}.{mac.upper()}")),
        ("sequence number 0 (MAC right)", [], None, _replace_mark(failed, zero)),
        (
            "sequence number with a leading zero",
            [],
            None,
            _replace_mark(failed, f"{run}.0{seq}.{mac}"),
        ),
        (
            "members reordered (MAC right, not canonical)",
            [],
            None,
            question.replace('{"_sig"', '{"id":"q-001","_sig"').replace(',"id":"q-001"', ""),
        ),
        (
            "space after a colon (not canonical)",
            [],
            None,
            failed.replace('"reason":"exit 2"', '"reason": "exit 2"'),
        ),
        (
            "escaped non-ASCII (not canonical)",
            [],
            None,
            line["question, non-ASCII"].replace("Ü", "\\u00dc"),
        ),
        (
            "sequence number past the step (MAC right)",
            [],
            None,
            _mark(key, MAX_SEQUENCE_STEP + 1, "COMPLETED", None),
        ),
        (
            "sequence number at the last one (MAC right)",
            [],
            None,
            _mark(key, MAX_SEQUENCE, "COMPLETED", None),
        ),
        ("replayed first line", [first, second], None, first),
        ("the same line twice", [second], None, second),
        ("kind not in the allow-list", [], ["QUESTION", "COMPLETED", "FAILED"], plan),
        ("relayed as unauthenticated (no signal line)", [], None, "[unauthenticated] " + first),
    ]
    out = []
    for name, before, allow_kinds, text in cases:
        verifier = FenceVerifier(key, allow_kinds)
        for earlier in before:
            assert verifier.check(earlier).signal is not None, name
        verdict = verifier.check(text)
        assert verdict.signal is None, name
        reason = None
        if verdict.code == "BS601" and verdict.problem is not None:
            reason = verdict.problem.split(": ", 1)[1]
        out.append(
            {
                "name": name,
                "before": before,
                "allow_kinds": allow_kinds,
                "line": text,
                "code": verdict.code,
                "reason": reason,
                "problem": verdict.problem,
            }
        )
    return out


def build_vectors() -> dict[str, Any]:
    key = SignalKey.parse(KEY_TEXT)
    marker = SignalMarker(key)
    marked: list[dict[str, Any]] = []
    for name, kind, payload in _MARKED:
        line = marker.mark(kind, payload)
        marked.append({"name": name, "kind": kind, "payload": payload, "seq": len(marked) + 1})
        marked[-1].update(payload_text=dump_canonical(payload) if payload else "", line=line)
    name, kind, payload = _LAST
    marked.append(
        {
            "name": name,
            "kind": kind,
            "payload": payload,
            "seq": MAX_SEQUENCE,
            "payload_text": dump_canonical(payload) if payload else "",
            "line": _mark(key, MAX_SEQUENCE, kind, payload),
        }
    )
    return {
        "description": (
            "Fenced-signal test vectors (spec/fenced-signals.md), written by"
            " tests/binding/test_fence_vectors.py: do not edit. 'marked': a binding marking"
            " kind and payload with sequence number seq under key writes line; the MAC message"
            " is MAC_DOMAIN, run, seq, KIND, payload_text joined by newlines. Read the payloads"
            " from payload_text with an exact JSON reader (big integers). 'tampered': a verifier"
            " holding key, after accepting the 'before' lines, with allow_kinds, refuses line"
            " with code (null: not a signal line at all); reason is BS601's."
        ),
        "fence_version": 1,
        "mac_domain": MAC_DOMAIN,
        "key": KEY_TEXT,
        "marked": marked,
        "tampered": _tampered(key, marked),
    }


def _text(vectors: dict[str, Any]) -> str:
    return json.dumps(vectors, ensure_ascii=False, indent=1) + "\n"


def test_vectors_file_is_fresh() -> None:
    """The file equals a fresh derivation: regenerate with this module's ``__main__``."""
    assert VECTORS.read_text(encoding="utf-8") == _text(build_vectors()), (
        "tests/data/fence_vectors.json is stale: run python tests/binding/test_fence_vectors.py"
    )


def _vectors() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(VECTORS.read_text(encoding="utf-8"))
    return loaded


def test_marked_lines_match_an_independent_hmac() -> None:
    """The MAC over the documented message, computed here with hmac alone."""
    vectors = _vectors()
    run, secret = vectors["key"].split(":")
    assert vectors["mac_domain"] == "bernstein-signals fence 1"
    for case in vectors["marked"]:
        message = f"bernstein-signals fence 1\n{run}\n{case['seq']}\n{case['kind']}\n"
        message += case["payload_text"]
        mac = hmac.new(bytes.fromhex(secret), message.encode(), hashlib.sha256).hexdigest()
        line = case["line"]
        assert line.startswith(f"{SIGNAL_PREFIX}{case['kind']} {{"), case["name"]
        members = json.loads(line.split(" ", 1)[1])
        assert members.pop("_sig") == f"{run}.{case['seq']}.{mac}", case["name"]
        assert members == (case["payload"] or {}), case["name"]
        assert case["payload_text"] == (dump_canonical(members) if members else "")
        assert line == f"{SIGNAL_PREFIX}{case['kind']} " + dump_canonical(
            {**members, "_sig": f"{run}.{case['seq']}.{mac}"}
        )


def test_marked_lines_verify_in_order() -> None:
    vectors = _vectors()
    verifier = FenceVerifier(SignalKey.parse(vectors["key"]))
    last = 0
    for case in vectors["marked"]:
        verdict = verifier.check(case["line"])
        if case["seq"] - last > MAX_SEQUENCE_STEP:  # the largest: its MAC is checked above
            assert (verdict.signal, verdict.code) == (None, "BS602"), case["name"]
            assert verdict.problem is not None
            assert "out of sequence" in verdict.problem
            continue
        last = case["seq"]
        assert verdict.signal is not None, (case["name"], verdict.problem)
        assert verdict.seq == case["seq"]
        assert verdict.signal.payload == (case["payload"] or {})
        assert verdict.signal.raw_line == case["line"]


def test_tampered_lines_get_their_codes() -> None:
    vectors = _vectors()
    key = SignalKey.parse(vectors["key"])
    codes = {case["code"] for case in vectors["tampered"]}
    reasons = {case["reason"] for case in vectors["tampered"]}
    assert codes == {"BS601", "BS602", "BS603", None}
    assert reasons == {
        None,
        "not marked",
        "marked for another run",
        "bad mark",
        "not in canonical form",
    }
    for case in vectors["tampered"]:
        verifier = FenceVerifier(key, case["allow_kinds"])
        for line in case["before"]:
            assert verifier.check(line).signal is not None, case["name"]
        verdict = verifier.check(case["line"])
        assert verdict.signal is None, case["name"]
        assert (verdict.code, verdict.problem) == (case["code"], case["problem"]), case["name"]


if __name__ == "__main__":
    VECTORS.write_text(_text(build_vectors()), encoding="utf-8")
    sys.exit(0)
