"""Issue 12 §2: rename each role-bearing field; the regenerated runtime still does the round-trip.

The binding is generated from a copy of schema/ with one field renamed and
driven in a fresh interpreter: ask() against a reply stream, QuestionTracker,
read_plan, the native mappers' FAILED reason, the stamped terminal lines; wrap
with the renamed vocabulary writes its FAILED with the renamed reason.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.roles import ROLES, role_field
from generator.roles.roles_support import copy_sources, generate, rename_field, role_fields

_ROUND_TRIP = r"""
import io, json, os, sys
sys.path.insert(0, sys.argv[1])
import bernstein_signals as b
from bernstein_signals import fields as f

constant, renamed, workdir = sys.argv[2], sys.argv[3], sys.argv[4]
assert getattr(f, constant) == renamed, (constant, getattr(f, constant), renamed)

# ask(): the QUESTION it writes, and the reply it picks out of the stream.
asked, notes = io.StringIO(), io.StringIO()
replies = io.StringIO(
    b.format_reply("no", "other") + "\n" + b.format_reply("yes", "q-1") + "\n"
)
assert b.ask("Apply?", ["yes", "no"], "q-1", stdin=replies, stdout=asked, stderr=notes) == "yes"
assert "other" in notes.getvalue()
signal = b.parse_signal(asked.getvalue())
assert signal is not None and signal.kind == b.SignalKind.QUESTION
assert signal.payload == {
    f.QUESTION_TEXT: "Apply?", f.QUESTION_OPTIONS: ["yes", "no"], f.QUESTION_ID: "q-1"
}, signal.payload

# QuestionTracker: what it reads from the QUESTION and the reply it writes.
tracker = b.QuestionTracker()
pending = tracker.feed(signal)
assert (pending.question, pending.options, pending.id) == ("Apply?", ("yes", "no"), "q-1")
reply = json.loads(tracker.answer("yes", "q-1"))
assert reply == {f.REPLY_IN_REPLY_TO: "q-1", f.REPLY_ANSWER: "yes"}, reply
assert b.parse_reply(json.dumps(reply)) == reply

# Plan handoff.
os.makedirs(os.path.join(workdir, ".sdd"), exist_ok=True)
with open(os.path.join(workdir, ".sdd", "plan.md"), "w", encoding="utf-8") as handle:
    handle.write("# Plan\n")
ready = b.parse_signal(b.plan_ready(".sdd/plan.md"))
assert ready is not None and ready.payload == {f.PLAN_READY_PATH: ".sdd/plan.md"}
assert b.read_plan(workdir, ready) == "# Plan\n"
draft = b.parse_signal(b.plan_draft("# Plan"))
assert draft is not None and draft.payload == {f.PLAN_DRAFT_MARKDOWN: "# Plan"}

# FAILED's reason from a native mapper, and the stamped terminals.
event = json.dumps({"type": "turn.failed", "error": {"message": "boom"}})
mapped = [s for s in b.CodexJsonParser().parse_lines([event]) if s.kind == b.SignalKind.FAILED]
assert mapped and mapped[0].payload.get(f.FAILED_REASON) == "boom", mapped
b.format_signal(mapped[0].kind, mapped[0].payload)
completed = b.parse_signal(b.completed())
assert completed is not None
assert completed.payload == {f.COMPLETED_VOCABULARY: b.VOCABULARY_VERSION}, completed.payload
failed = b.parse_signal(b.failed(**{f.FAILED_REASON: "exit 1"}))
assert failed is not None
assert failed.payload == {
    f.FAILED_REASON: "exit 1", f.FAILED_VOCABULARY: b.VOCABULARY_VERSION
}, failed.payload
unstamped = b.parse_signal(b.completed(**{f.COMPLETED_VOCABULARY: None}))
assert unstamped is not None and unstamped.payload == {}, unstamped
print("ok")
"""

_CASES = role_fields()


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    ("document", "role", "field"), _CASES, ids=[f"{d}.{f}" for d, _, f in _CASES]
)
def test_a_renamed_role_field_still_round_trips(
    tmp_path: Path, document: str, role: str, field: str
) -> None:
    assert _renamed_round_trip(tmp_path, document, role, field, f"{field}_renamed")


_NAMES = st.from_regex(r"\A[a-z][a-z0-9_]{0,10}\Z")


@pytest.mark.timeout(900)
@settings(max_examples=20, deadline=None)
@given(case=st.sampled_from(_CASES), name=_NAMES)
def test_any_new_name_round_trips_or_is_refused(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[str, str, str], name: str
) -> None:
    """Either the regenerated runtime works with the new name, or generate says why in a line."""
    document, role, field = case
    taken = {prop for _, _, prop in _CASES} | {"question", "options", "id", "path", "reason"}
    assume(name not in taken)
    worked = _renamed_round_trip(tmp_path_factory.mktemp("rename"), document, role, field, name)
    event("round trip" if worked else "refused")


def _renamed_round_trip(tmp_path: Path, document: str, role: str, field: str, new: str) -> bool:
    """Rename ``field`` to ``new`` and drive the regenerated runtime; False if generate refused."""
    schema, grammar = copy_sources(tmp_path / "src")
    rename_field(schema, document, field, new)
    result = generate(schema, grammar, tmp_path / "out")
    if result.returncode == 2:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr
        assert not (tmp_path / "out").exists()
        return False
    assert result.returncode == 0, result.stderr
    constant = next(r.constant for r in ROLES if r.document == document and r.name == role)
    run = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            _ROUND_TRIP,
            str(tmp_path / "out" / "python"),
            constant,
            new,
            str(tmp_path / "work"),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout == "ok\n"
    if role in {"failure-reason", "vocabulary-version"}:
        _check_wrap(schema, tmp_path, document, role, new)
    _check_shell(schema, grammar, tmp_path)
    return True


_SHELL_ROUND_TRIP = r"""
. "$LIB"
if [ "$1" = guard ]; then
  bernstein_guard
  exit 3
fi
replies='{"'$REPLY_TO'":"other","'$ANSWER'":"no"}
{"'$REPLY_TO'":"q-1","'$ANSWER'":"yes"}'
printf '%s\n' "$replies" | {
  bernstein_ask 'Apply?' --"$OPTIONS" yes --"$OPTIONS" no --"$QUESTION_ID" q-1 || exit 9
  printf 'answer=%s\n' "$BERNSTEIN_ANSWER"
}
bernstein_failed --"$REASON" 'exit 2'
bernstein_completed
"""


def _check_shell(schema: Path, grammar: Path, tmp_path: Path) -> None:
    """bernstein_ask, bernstein_failed, bernstein_completed and bernstein_guard in bash."""
    vocabulary = load_vocabulary(schema, grammar)

    def field(document: str, role: str) -> str:
        name = role_field(vocabulary, document, role)
        assert name is not None
        return name

    environment = {
        "LIB": str(tmp_path / "out" / "shell" / "bernstein-signals.sh"),
        "REPLY_TO": field("reply", "reply-to"),
        "ANSWER": field("reply", "reply-answer"),
        "OPTIONS": field("QUESTION", "question-options"),
        "QUESTION_ID": field("QUESTION", "question-id"),
        "REASON": field("FAILED", "failure-reason"),
        "PATH": "/usr/bin:/bin",
    }

    def bash(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", _SHELL_ROUND_TRIP, "bash", *args],
            env=environment,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    def payload(line: str, kind: str) -> object:
        head, _, body = line.partition(" ")
        assert head == f"BERNSTEIN:{kind}", line
        return json.loads(body)

    run = bash()
    assert run.returncode == 0, run.stderr
    asked, answer, failed, completed = run.stdout.splitlines()
    assert answer == "answer=yes"
    assert "skipping a reply to question" in run.stderr
    assert payload(asked, "QUESTION") == {
        field("QUESTION", "question-text"): "Apply?",
        environment["OPTIONS"]: ["yes", "no"],
        environment["QUESTION_ID"]: "q-1",
    }
    failed_stamp = field("FAILED", "vocabulary-version")
    version = vocabulary.version
    assert payload(failed, "FAILED") == {environment["REASON"]: "exit 2", failed_stamp: version}
    assert payload(completed, "COMPLETED") == {field("COMPLETED", "vocabulary-version"): version}
    guarded = bash("guard")
    assert guarded.returncode == 3, guarded.stderr
    assert payload(guarded.stdout.strip(), "FAILED") == {
        environment["REASON"]: "exit 3",
        failed_stamp: version,
    }


def _check_wrap(schema: Path, tmp_path: Path, document: str, role: str, renamed: str) -> None:
    """wrap --vocabulary writes its own terminal with the renamed fields."""
    status = 3 if document == "FAILED" else 0
    wrapped = subprocess.run(
        [
            *(sys.executable, "-m", "bernstein_signals_toolkit.cli", "wrap"),
            *("--vocabulary", str(schema), "--"),
            *(sys.executable, "-c", f"raise SystemExit({status})"),
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert wrapped.returncode == status, wrapped.stderr
    kind, _, payload = wrapped.stdout.strip().partition(" ")
    assert kind == f"BERNSTEIN:{document}"
    value = json.loads(payload)
    version = json.loads((schema / "vocabulary.json").read_text(encoding="utf-8"))["version"]
    if role == "failure-reason":
        assert value[renamed] == "exit 3"
    else:
        assert value[renamed] == version
