"""Native questions through QuestionTracker, and the reply that reaches the CLI on stdin."""

from __future__ import annotations

import json
from typing import Any

from bernstein_signals import QuestionTracker, SignalKind
from bernstein_signals._native_claude import ClaudeStreamJsonParser
from bernstein_signals._native_codex import CodexJsonParser
from binding.native.native_support import events, lines


def _tracked(parser: ClaudeStreamJsonParser | CodexJsonParser, name: str) -> QuestionTracker:
    """The tracker after the fixture's lines up to (not including) the terminal."""
    tracker = QuestionTracker()
    for line in lines(name):
        signal = parser.stream_signal_parser(line)
        if signal is not None and signal.kind == SignalKind.QUESTION:
            tracker.feed(signal)
    return tracker


def _response(line: str | None) -> dict[str, Any]:
    assert line is not None
    assert "\n" not in line
    value = json.loads(line)
    assert value["type"] == "control_response"
    assert value["response"]["subtype"] == "success"
    response: dict[str, Any] = value["response"]
    return response


def _prompt_input() -> dict[str, Any]:
    request = next(
        e for e in events("claude_permission_prompt.jsonl") if e["type"] == "control_request"
    )
    tool_input: dict[str, Any] = request["request"]["input"]
    return tool_input


def test_a_permission_prompt_allowed_through_the_tracker() -> None:
    parser = ClaudeStreamJsonParser()
    tracker = _tracked(parser, "claude_permission_prompt.jsonl")
    reply = tracker.answer("allow", "req_1_8f2a")
    response = _response(parser.reply_line(reply))
    assert response["request_id"] == "req_1_8f2a"
    assert response["response"] == {"behavior": "allow", "updatedInput": _prompt_input()}
    assert parser.reply_line(reply) is None  # answered once: nothing pending any more


def test_a_permission_prompt_denied() -> None:
    parser = ClaudeStreamJsonParser()
    tracker = _tracked(parser, "claude_permission_prompt.jsonl")
    response = _response(parser.reply_line(tracker.answer("deny", "req_1_8f2a")))
    assert response["response"]["behavior"] == "deny"
    assert response["response"]["message"] == "The operator answered: deny"


def test_ask_user_question_answer_reaches_the_control_request_of_its_tool_use() -> None:
    parser = ClaudeStreamJsonParser()
    tracker = _tracked(parser, "claude_ask_user_question.jsonl")
    (pending,) = tracker.pending
    assert pending.id == "toolu_01Ask000000000000000000b2"  # one QUESTION, not two
    response = _response(parser.reply_line(tracker.answer("Postgres", pending.id)))
    assert response["request_id"] == "req_2_c41d"
    updated = response["response"]["updatedInput"]
    assert updated["answers"] == {"Which database should the migration target?": "Postgres"}
    assert updated["questions"][0]["header"] == "Database"


def test_a_reply_as_an_object_and_unknown_or_malformed_replies() -> None:
    parser = ClaudeStreamJsonParser()
    _tracked(parser, "claude_permission_prompt.jsonl")
    for reply in (
        {"in_reply_to": "req_nope", "answer": "allow"},
        {"in_reply_to": None, "answer": "allow"},
        {"in_reply_to": "req_1_8f2a", "answer": 1},
        "not json",
        '{"in_reply_to": "req_1_8f2a"',
        42,
        None,
    ):
        assert parser.reply_line(reply) is None
    assert parser.reply_line({"in_reply_to": "req_1_8f2a", "answer": "allow"}) is not None


def test_a_cancelled_request_gets_no_reply() -> None:
    parser = ClaudeStreamJsonParser()
    tracker = _tracked(parser, "claude_control_cancel.jsonl")
    assert [q.id for q in tracker.pending] == ["req_3_77e0"]
    assert parser.reply_line(tracker.answer("allow", "req_3_77e0")) is None


def test_an_unanswerable_headless_question_gets_no_reply() -> None:
    parser = ClaudeStreamJsonParser()
    tracker = _tracked(parser, "claude_ask_denied_headless.jsonl")
    (pending,) = tracker.pending
    assert parser.reply_line(tracker.answer("Postgres", pending.id)) is None


def test_codex_questions_are_tracked_but_exec_takes_no_reply() -> None:
    parser = CodexJsonParser()
    tracker = _tracked(parser, "codex_request_user_input.jsonl")
    (pending,) = tracker.pending
    assert pending.id == "call_q7Lk2"
    assert parser.reply_line(tracker.answer("SQLite", pending.id)) is None


def test_pending_requests_are_bounded() -> None:
    parser = ClaudeStreamJsonParser()
    for n in range(1000):
        request = {
            "subtype": "can_use_tool",
            "tool_name": "Bash",
            "input": {"command": f"echo {n}"},
        }
        line = json.dumps({"type": "control_request", "request_id": f"r{n}", "request": request})
        assert parser.stream_signal_parser(line) is not None
    assert parser.reply_line({"in_reply_to": "r0", "answer": "allow"}) is None  # forgotten
    assert parser.reply_line({"in_reply_to": "r999", "answer": "allow"}) is not None


def _ask_events(question: str) -> tuple[str, str]:
    tool_input = {"questions": [{"question": question, "options": [{"label": "yes"}]}]}
    request = {
        "subtype": "can_use_tool",
        "tool_name": "AskUserQuestion",
        "input": tool_input,
        "tool_use_id": "toolu_9",
    }
    control = json.dumps({"type": "control_request", "request_id": "req_9", "request": request})
    block = {"type": "tool_use", "id": "toolu_9", "name": "AskUserQuestion", "input": tool_input}
    assistant = json.dumps({"type": "assistant", "message": {"content": [block]}})
    return control, assistant


def test_ask_user_question_asked_once_whichever_event_comes_first() -> None:
    control, assistant = _ask_events("Ship it?")
    for order, expected_id in (([assistant, control], "toolu_9"), ([control, assistant], "req_9")):
        parser = ClaudeStreamJsonParser()
        asked = list(parser.parse_lines(order))
        assert [(s.kind, s.payload["id"]) for s in asked] == [(SignalKind.QUESTION, expected_id)]
        response = _response(parser.reply_line({"in_reply_to": expected_id, "answer": "yes"}))
        assert response["request_id"] == "req_9"


def test_the_answer_is_keyed_by_the_question_as_the_cli_sent_it() -> None:
    question = "Keep \ud800 this?" + "x" * 10000  # cleaned and cut in the QUESTION, not in the key
    control, _ = _ask_events(question)
    parser = ClaudeStreamJsonParser()
    signal = parser.stream_signal_parser(control)
    assert signal is not None
    assert signal.payload["question"].startswith("Keep \ufffd this?")
    assert len(signal.payload["question"]) < len(question)
    response = _response(parser.reply_line({"in_reply_to": "req_9", "answer": "yes"}))
    assert response["response"]["updatedInput"]["answers"] == {question: "yes"}
