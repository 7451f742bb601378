"""Issue 16 item 5: an adapter author writes signals with the binding's typed API.

The user's path: a typed constructor handed to ``emit`` (``emit(question("x?"))``
failed with "unknown signal kind 'BERNSTEIN:QUESTION {...}'"), ``completed(summary=None)``
(wrote ``{"summary":null}``), ``ask`` called as ``question()`` is (keywords), and an
orchestrator answering without an id while only id'd questions wait (the error
named none of them). One way to emit a typed signal in one call: ``emit`` takes a
kind with its payload, or a whole signal (a constructor's line, a StreamSignal);
old calls keep working, and a wrong call says what to pass.
"""

from __future__ import annotations

import inspect
import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bernstein_signals as bs
from bernstein_signals import SignalKind

BINDING = Path(bs.__file__).resolve().parents[1]


def _emitted(*args: object) -> str:
    out = io.StringIO()
    bs.emit(*args, file=out)  # type: ignore[arg-type]
    return out.getvalue()


def test_emit_takes_a_constructors_line() -> None:
    line = bs.question("Apply?", options=["yes", "no"], id="q-1")
    assert _emitted(line) == line + "\n"
    assert _emitted(bs.completed()) == bs.completed() + "\n"
    assert _emitted(bs.format_signal("FAILED", {"reason": "exit 2"})) == (
        'BERNSTEIN:FAILED {"reason":"exit 2"}\n'
    )


def test_emit_takes_a_signal_read_back() -> None:
    line = bs.plan_ready(".sdd/plans/a.md")
    signal = bs.parse_signal(line)
    assert signal is not None
    assert _emitted(signal) == line + "\n"
    # Read back, {} and no JSON give the same payload; the line says which was written.
    assert _emitted(bs.parse_signal("BERNSTEIN:COMPLETED {}")) == "BERNSTEIN:COMPLETED {}\n"
    assert _emitted(bs.parse_signal("BERNSTEIN:COMPLETED")) == "BERNSTEIN:COMPLETED\n"


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
_CANONICAL = st.one_of(
    st.builds(bs.format_signal, st.just("COMPLETED")),
    st.builds(bs.format_signal, st.just("COMPLETED"), st.dictionaries(st.text(max_size=4), _JSON)),
    st.builds(bs.completed, summary=st.none() | st.text(min_size=1, max_size=8)),
    st.builds(bs.question, st.text(min_size=1, max_size=8).filter(str.strip)),
    st.builds(bs.failed, reason=st.text(min_size=1, max_size=8).filter(str.strip)),
)


@settings(max_examples=200, deadline=None)
@given(_CANONICAL, st.sampled_from(["", "\n", "\r\n"]))
def test_emit_writes_a_canonical_line_byte_for_byte(line: str, terminator: str) -> None:
    """As a str or UTF-8 bytes line, or read back strictly or leniently: the same bytes."""
    given = line + terminator
    for signal in (
        given,
        given.encode(),
        bs.parse_signal(given),
        bs.parse_signal(given, lenient=True),
    ):
        assert _emitted(signal) == line + "\n", signal


@pytest.mark.parametrize(
    ("given", "written"),
    [
        ('BERNSTEIN:FAILED {"reason": "x"}', 'BERNSTEIN:FAILED {"reason":"x"}'),
        ("BERNSTEIN:COMPLETED { }", "BERNSTEIN:COMPLETED {}"),
        ('BERNSTEIN:COMPLETED {"b":1,"a":2.0}', 'BERNSTEIN:COMPLETED {"a":2,"b":1}'),
    ],
)
def test_emit_writes_the_canonical_line_of_a_line_that_is_not(given: str, written: str) -> None:
    assert _emitted(given) == _emitted(given.encode()) == written + "\n"
    assert _emitted(bs.parse_signal(given)) == written + "\n"


def test_emit_refuses_bytes_that_are_not_utf8_saying_so() -> None:
    out = io.StringIO()
    with pytest.raises(ValueError, match="not UTF-8 \\(byte 28\\)"):
        bs.emit(b'BERNSTEIN:FAILED {"reason":"\xff"}', file=out)
    assert out.getvalue() == ""


def test_the_old_calls_still_work() -> None:
    assert _emitted(SignalKind.QUESTION, {"question": "Go?"}) == (
        'BERNSTEIN:QUESTION {"question":"Go?"}\n'
    )
    assert _emitted("COMPLETED") == "BERNSTEIN:COMPLETED\n"


def test_a_whole_signal_is_still_checked_and_made_canonical() -> None:
    assert _emitted('BERNSTEIN:FAILED {"vocabulary":"1.1.0","reason":"x"}') == (
        'BERNSTEIN:FAILED {"reason":"x","vocabulary":"1.1.0"}\n'
    )
    with pytest.raises(bs.SignalPayloadError, match="PLAN_READY"):
        _emitted('BERNSTEIN:PLAN_READY {"path":"../etc/passwd"}')


@pytest.mark.parametrize(
    ("args", "error", "says"),
    [
        ((bs.question("x?"), {"id": "q"}), TypeError, "a whole signal already holds its payload"),
        ((bs.parse_signal("BERNSTEIN:FAILED"), {}), TypeError, "already holds its payload"),
        ((bs.question,), ValueError, r"call the constructor: emit\(question\(\.\.\.\)\)"),
        (("question",), ValueError, "a kind is a SignalKind or one of BLOCKED, COMPLETED"),
        (("BERNSTEIN:QUESTION {x}",), ValueError, "is not a signal line of this vocabulary"),
        (("BERNSTEIN:PROGRESS {}",), ValueError, r"emit\(question\(\.\.\.\)\)"),
        (
            (bs.parse_signal("BERNSTEIN:PROGRESS", unknown_kinds=True),),
            ValueError,
            "write its raw_line to forward it",
        ),
        ((SignalKind.COMPLETED, ["a"]), TypeError, "a signal payload is a dict, not list"),
    ],
)
def test_a_wrong_call_says_what_to_pass_and_writes_nothing(
    args: tuple[object, ...], error: type[Exception], says: str
) -> None:
    out = io.StringIO()
    with pytest.raises(error, match=says) as caught:
        bs.emit(*args, file=out)  # type: ignore[arg-type]
    assert out.getvalue() == ""
    assert "\n" not in str(caught.value)
    assert len(str(caught.value)) < 400


def test_format_signal_given_a_line_says_it_is_one() -> None:
    with pytest.raises(ValueError, match="this is a whole signal line, which emit"):
        bs.format_signal(bs.question("x?"))


def test_ask_takes_options_and_id_as_question_does() -> None:
    keyword_only = inspect.Parameter.KEYWORD_ONLY
    for function in (bs.ask, bs.question):
        parameters = inspect.signature(function).parameters
        assert parameters["options"].kind is keyword_only, function
        assert parameters["id"].kind is keyword_only, function
    replies = io.StringIO('{"in_reply_to":"q-1","answer":"yes"}\n')
    out = io.StringIO()
    answer = bs.ask("Apply?", options=["yes", "no"], id="q-1", stdin=replies, stdout=out)
    assert answer == "yes"
    assert out.getvalue() == bs.question("Apply?", options=["yes", "no"], id="q-1") + "\n"


def test_ask_keeps_the_positional_form_of_earlier_versions() -> None:
    """Back-compat: adapters written as ask(q, options, id) keep running unchanged."""
    replies = io.StringIO('{"in_reply_to":"q-1","answer":"no"}\n')
    out = io.StringIO()
    answer = bs.ask("Apply?", ["yes", "no"], "q-1", stdin=replies, stdout=out)  # type: ignore[call-arg]
    assert answer == "no"
    assert out.getvalue() == bs.question("Apply?", options=["yes", "no"], id="q-1") + "\n"


@pytest.mark.parametrize(
    ("args", "keywords", "says"),
    [
        (
            ("Q?", ["a"], "q", "extra"),
            {},
            r"takes one positional argument, the question;"
            r" pass options=\.\.\. and id=\.\.\. as keywords",
        ),
        (("Q?", ["a"]), {"options": ["b"]}, "got options both by position and as a keyword"),
    ],
)
def test_ask_refuses_a_muddled_call_before_asking(
    args: tuple[object, ...], keywords: dict[str, object], says: str
) -> None:
    out = io.StringIO()
    with pytest.raises(TypeError, match=says):
        bs.ask(*args, stdin=io.StringIO(""), stdout=out, **keywords)  # type: ignore[arg-type]
    assert out.getvalue() == ""


def _tracker(*questions: str) -> bs.QuestionTracker:
    tracker = bs.QuestionTracker()
    for line in questions:
        signal = bs.parse_signal(line)
        assert signal is not None
        tracker.feed(signal)
    return tracker


def test_answering_without_an_id_names_the_ids_that_wait() -> None:
    tracker = _tracker(bs.question("Apply?", id="q-1"), bs.question("Branch?", id="q-2"))
    with pytest.raises(bs.UnknownQuestion) as caught:
        tracker.answer("yes")
    message = str(caught.value)
    assert "no question without an id is waiting" in message
    assert "'q-1', 'q-2'" in message
    assert "question_id=" in message
    with pytest.raises(bs.UnknownQuestion, match=r"'q-9' was never asked; waiting by id: 'q-1'"):
        tracker.answer("yes", "q-9")
    assert tracker.answer("yes", "q-1") == bs.format_reply("yes", "q-1")


def test_the_ids_named_are_bounded() -> None:
    long_id = "q" * 10_000
    tracker = _tracker(*(bs.question("?", id=f"{long_id}{n}") for n in range(1_000)))
    with pytest.raises(bs.UnknownQuestion) as caught:
        tracker.answer("yes")
    message = str(caught.value)
    assert "and 995 more" in message
    assert len(message) < 1_000


def test_waiting_questions_without_an_id_are_counted_beside_the_ids() -> None:
    tracker = _tracker(bs.question("First?"), bs.question("Apply?", id="q-1"))
    with pytest.raises(bs.UnknownQuestion, match=r"waiting: 1 without an id, and by id 'q-1'"):
        tracker.answer("x", "q-7")
    with pytest.raises(bs.UnknownQuestion, match="nothing is waiting"):
        bs.QuestionTracker().answer("x")


_ADAPTER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    from bernstein_signals import ask, completed, emit, plan_draft, question

    emit(plan_draft("# Plan\\n- step 1", path=".sdd/plans/a.md"))
    emit(question("Heads up?", id="q-0"))
    answer = ask("Apply?", options=["yes", "no"], id="q-1", timeout=30)
    emit(completed(summary=None, answer=answer))
    """
)


@pytest.mark.timeout(60)
def test_an_adapter_and_its_orchestrator_round_trip() -> None:
    """The user's adapter, written as the README shows, against a QuestionTracker."""
    with subprocess.Popen(
        [sys.executable, "-c", _ADAPTER, str(BINDING)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as adapter:
        assert adapter.stdin is not None
        assert adapter.stdout is not None
        tracker = bs.QuestionTracker()
        kinds = []
        for record in bs.read_signals(adapter.stdout):
            kinds.append(record.signal.kind)
            tracker.feed(record.signal)
            if record.signal.payload.get("id") == "q-1":
                with pytest.raises(bs.UnknownQuestion, match="'q-0', 'q-1'"):
                    tracker.answer("yes")  # the user's mistake: no id
                adapter.stdin.write((tracker.answer("yes", "q-1") + "\n").encode())
                adapter.stdin.flush()
            if record.signal.is_terminal:
                final = record.signal
        adapter.stdin.close()
        assert adapter.wait() == 0, adapter.stderr.read()  # type: ignore[union-attr]
    assert kinds == ["PLAN_DRAFT", "QUESTION", "QUESTION", "COMPLETED"]
    assert final.payload == {"answer": "yes", "vocabulary": bs.VOCABULARY_VERSION}
    assert "null" not in final.raw_line
