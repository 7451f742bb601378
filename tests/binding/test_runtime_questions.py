"""The question round-trip: QuestionTracker (orchestrator side) and ask (adapter side)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap

import pytest

from bernstein_signals import (
    AnswerNotAnOption,
    QuestionAborted,
    QuestionIdInUse,
    QuestionTimeout,
    QuestionTracker,
    StreamSignal,
    UnknownQuestion,
    ask,
    completed,
    parse_signal,
    question,
)


def _signal(line: str) -> StreamSignal:
    signal = parse_signal(line)
    assert signal is not None
    return signal


def test_tracker_matches_by_id_and_first_in_first_out() -> None:
    tracker = QuestionTracker()
    tracker.feed(_signal(question("Branch?")))
    tracker.feed(_signal(question("Apply?", options=["yes", "no"], id="q-1")))
    tracker.feed(_signal(question("Reviewer?")))
    assert tracker.feed(_signal(completed())) is None
    assert [p.question for p in tracker.pending] == ["Apply?", "Branch?", "Reviewer?"]
    assert json.loads(tracker.answer("main")) == {"in_reply_to": None, "answer": "main"}
    assert json.loads(tracker.answer("yes", "q-1")) == {"in_reply_to": "q-1", "answer": "yes"}
    assert json.loads(tracker.answer("ann")) == {"in_reply_to": None, "answer": "ann"}
    assert tracker.pending == ()


def test_tracker_refuses_with_precise_errors() -> None:
    tracker = QuestionTracker()
    with pytest.raises(UnknownQuestion, match="no question without an id"):
        tracker.answer("x")
    with pytest.raises(UnknownQuestion, match="'q-9' was never asked"):
        tracker.answer("x", "q-9")
    tracker.feed(_signal(question("Apply?", options=["yes", "no"], id="q-1")))
    with pytest.raises(QuestionIdInUse, match="'q-1' is already waiting"):
        tracker.feed(_signal(question("Again?", id="q-1")))
    with pytest.raises(AnswerNotAnOption, match=r"'maybe' to 'Apply\?' is not one of"):
        tracker.answer("maybe", "q-1")
    tracker.answer("no", "q-1")
    with pytest.raises(UnknownQuestion, match="'q-1' was already answered"):
        tracker.answer("yes", "q-1")
    assert isinstance(UnknownQuestion("x"), ValueError)
    # Once answered, the id may be asked again.
    tracker.feed(_signal(question("Again?", id="q-1")))
    assert json.loads(tracker.answer("sure", "q-1"))["answer"] == "sure"


def test_tracker_can_accept_answers_outside_options() -> None:
    tracker = QuestionTracker(enforce_options=False)
    tracker.feed(_signal(question("Apply?", options=["yes", "no"], id="q-1")))
    assert json.loads(tracker.answer("later", "q-1"))["answer"] == "later"


def test_ask_emits_skips_other_replies_with_a_note_and_returns_the_answer() -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    replies = io.StringIO(
        '{"answer":"main","in_reply_to":null}\nnot json\n{"answer":"yes","in_reply_to":"q-1"}\n'
    )
    answer = ask(
        "Apply?", options=["yes", "no"], id="q-1", stdin=replies, stdout=stdout, stderr=stderr
    )
    assert answer == "yes"
    assert stdout.getvalue() == (
        'BERNSTEIN:QUESTION {"id":"q-1","options":["yes","no"],"question":"Apply?"}\n'
    )
    notes = stderr.getvalue().splitlines()
    assert len(notes) == 2
    assert "skipped a reply to question None" in notes[0]
    assert "not a reply" in notes[1]


def test_ask_on_a_pipe_leaves_later_replies_unread() -> None:
    read_end, write_end = os.pipe()
    os.write(
        write_end, b'{"answer":"yes","in_reply_to":"q-1"}\r\n{"answer":"main","in_reply_to":null}\n'
    )
    with os.fdopen(read_end, "rb", buffering=0) as stdin:
        out = io.StringIO()
        assert ask("Apply?", id="q-1", stdin=stdin, stdout=out, timeout=30) == "yes"
        assert ask("Branch?", stdin=stdin, stdout=out, timeout=30) == "main"
        os.close(write_end)
        with pytest.raises(QuestionAborted, match="stdin closed before a reply to 'Third\\?'"):
            ask("Third?", stdin=stdin, stdout=out, timeout=30)


def test_ask_times_out_on_a_real_pipe() -> None:
    """A child process that never answers: the timeout must fire while blocked on the pipe."""
    script = textwrap.dedent(
        """
        import sys
        from bernstein_signals import QuestionTimeout, ask
        try:
            ask("Anyone?", timeout=0.5)
        except QuestionTimeout as exc:
            print("timeout:", exc, file=sys.stderr)
            sys.exit(7)
        """
    )
    read_end, write_end = os.pipe()  # kept open, never written: a hanging orchestrator
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=read_end,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(read_end)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
        os.close(write_end)
    assert process.returncode == 7, err
    assert out == b'BERNSTEIN:QUESTION {"question":"Anyone?"}\n'
    assert b"timeout: no reply to 'Anyone?' in time" in err
    assert issubclass(QuestionTimeout, TimeoutError)
    assert issubclass(QuestionAborted, EOFError)


def test_ask_refuses_an_invalid_question() -> None:
    with pytest.raises(ValueError, match="question"):
        ask("", stdin=io.StringIO(""), stdout=io.StringIO())
