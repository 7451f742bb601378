"""The standing guard, binding half: every public name meets hostile input.

Every name in ``bernstein_signals.__all__`` is either driven here by
Hypothesis with hostile inputs (random bytes and text, huge lines, deep and
self-referential nesting, invalid UTF-8, NUL, lone surrogates, wrong types),
checking that it returns or raises only what its docstring documents, or is
listed in ``_NO_INPUT`` with the reason it takes none. A new public name with
neither fails :func:`test_every_public_name_has_a_hostile_driver`.
"""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import bernstein_signals as bs
from binding import test_fence_hostile as _fence_hostile

# ---------------------------------------------------------------------------
# Hostile values
# ---------------------------------------------------------------------------


def _deep(depth: int, kind: type) -> object:
    value: object = [] if kind is list else {}
    for _ in range(depth):
        value = [value] if kind is list else {"a": value}
    return value


def _self_referential(kind: type) -> object:
    if kind is list:
        loop: list[object] = []
        loop.append(loop)
        return loop
    cycle: dict[str, object] = {}
    cycle["a"] = cycle
    return cycle


class _Opaque:
    """A hostile value Hypothesis shows by name: printing a 100,000-deep list recurses."""

    def __init__(self, name: str, value: object) -> None:
        self.name, self.value = name, value

    def __repr__(self) -> str:
        return f"<{self.name}>"


def _unwrap(value: object) -> object:
    """The hostile value itself, also inside a drawn dict or list (one level)."""
    if isinstance(value, _Opaque):
        return value.value
    if isinstance(value, dict):
        return {key: _unwrap(item) for key, item in value.items()}
    if isinstance(value, list) and any(isinstance(item, _Opaque) for item in value):
        return [_unwrap(item) for item in value]
    return value


_SPECIAL_VALUES: list[object] = [
    _deep(100_000, list),
    _deep(3_000, dict),
    _deep(65, list),
    _self_referential(list),
    _self_referential(dict),
    float("nan"),
    float("inf"),
    10**5000,
    "\ud800",
    "a\x00b",
    "x\u2028y",
    b"\xff",
    object(),
    {1: "int key"},
    {"s": {1, 2}},
    ("tuple", ["in", "it"]),
]

_SPECIALS = [_Opaque(f"special-{index}", value) for index, value in enumerate(_SPECIAL_VALUES)]

_TEXT = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
    st.sampled_from(["", "\x00", "\r\n", "\u2028", "é", "\ufeff", "x" * 70_000]),
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    _TEXT,
    st.binary(max_size=20),
)
_JSONISH = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)
_VALUES = st.one_of(_JSONISH, st.sampled_from(_SPECIALS))
_JSON_ONLY = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _TEXT),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)
_PAYLOADS = st.one_of(
    st.dictionaries(
        st.sampled_from(
            [
                "question",
                "options",
                "id",
                "reason",
                "hint",
                "path",
                "markdown",
                "answer",
                "in_reply_to",
                "x",
            ]
        ),
        _VALUES,
    ),
    _VALUES,
)
_KINDS = st.one_of(st.sampled_from([k.value for k in bs.SignalKind]), _VALUES)


def _shape_line(name: str, size: int) -> str:
    return HOSTILE_LINES[name](size)


_LINES_TEXT = st.one_of(
    _TEXT,
    st.builds(
        lambda kind, rest: f"BERNSTEIN:{kind}{rest}",
        st.sampled_from([k.value for k in bs.SignalKind] + ["", "x"]),
        _TEXT,
    ),
    st.builds(_shape_line, st.sampled_from(sorted(HOSTILE_LINES)), st.integers(1, 5000)),
    st.binary().map(lambda raw: raw.decode("utf-8", "surrogateescape")),
)
_LINES = st.one_of(_LINES_TEXT, _VALUES)
_BYTES = st.one_of(
    st.binary(),
    _LINES_TEXT.map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.lists(_LINES_TEXT, max_size=6).map(
        lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass")
    ),
)

_GUARD = settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _raises_only(call: Callable[[], object], *allowed: type[BaseException]) -> object:
    """The call's result, or None when it raised one of ``allowed``; anything else fails."""
    try:
        return call()
    except allowed:
        return None


# ---------------------------------------------------------------------------
# Drivers: one per public name that takes input
# ---------------------------------------------------------------------------


def _drive_parse_signal() -> None:
    @_GUARD
    @given(line=_LINES, lenient=st.booleans())
    def run(line: object, lenient: bool) -> None:
        line = _unwrap(line)
        signal = bs.parse_signal(line, lenient=lenient)
        if signal is not None:  # whatever parses can be written again, on one line
            assert "\n" not in bs.format_signal(signal.kind, signal.payload, validate=False)

    run()


def _drive_iter_signals() -> None:
    @_GUARD
    @given(lines=st.lists(_LINES, max_size=8), lenient=st.booleans())
    def run(lines: list[object], lenient: bool) -> None:
        lines = [_unwrap(line) for line in lines]
        assert all(isinstance(s, bs.StreamSignal) for s in bs.iter_signals(lines, lenient=lenient))

    run()


def _drive_parse_reply() -> None:
    @_GUARD
    @given(line=_LINES)
    def run(line: object) -> None:
        line = _unwrap(line)
        reply = bs.parse_reply(line)
        if reply is not None:
            assert bs.parse_reply(bs.format_reply(reply["answer"], reply["in_reply_to"])) == reply

    run()


def _drive_validate_payload() -> None:
    @_GUARD
    @given(kind=_KINDS, payload=_PAYLOADS)
    def run(kind: object, payload: object) -> None:
        kind, payload = _unwrap(kind), _unwrap(payload)
        result = _raises_only(lambda: bs.validate_payload(kind, payload), ValueError)  # type: ignore[arg-type]
        if result is None:  # only an unknown kind may raise
            assert not (isinstance(kind, str) and kind in bs.SignalKind.__members__)
        else:
            assert isinstance(result, list)

    run()


def _drive_validate_reply() -> None:
    @_GUARD
    @given(payload=_PAYLOADS)
    def run(payload: object) -> None:
        payload = _unwrap(payload)
        assert isinstance(bs.validate_reply(payload), list)

    run()


def _check_format(kind: object, payload: object, validate: bool) -> None:
    try:
        line = bs.format_signal(kind, payload, validate=validate)  # type: ignore[arg-type]
    except TypeError:
        assert payload is not None
        assert not isinstance(payload, dict)
        return
    except ValueError:
        return
    assert isinstance(payload, dict | None)
    parsed = bs.parse_signal(line)
    assert parsed is not None, line[:200]
    assert parsed.raw_line == line


def _drive_format_signal() -> None:
    @_GUARD
    @given(kind=_KINDS, payload=_PAYLOADS, validate=st.booleans())
    def run(kind: object, payload: object, validate: bool) -> None:
        kind, payload = _unwrap(kind), _unwrap(payload)
        _check_format(kind, payload, validate)

    run()


def _drive_emit() -> None:
    @_GUARD
    @given(kind=_KINDS, payload=_PAYLOADS)
    def run(kind: object, payload: object) -> None:
        kind, payload = _unwrap(kind), _unwrap(payload)
        out = io.StringIO()
        written = _raises_only(lambda: bs.emit(kind, payload, file=out), TypeError, ValueError)  # type: ignore[arg-type]
        del written
        text = out.getvalue()
        assert text == "" or (text.endswith("\n") and text.count("\n") == 1)

    run()


def _drive_format_reply() -> None:
    @_GUARD
    @given(answer=_VALUES, in_reply_to=_VALUES)
    def run(answer: object, in_reply_to: object) -> None:
        answer, in_reply_to = _unwrap(answer), _unwrap(in_reply_to)
        line = _raises_only(lambda: bs.format_reply(answer, in_reply_to), ValueError)  # type: ignore[arg-type]
        if line is not None:
            assert bs.parse_reply(line) == {"answer": answer, "in_reply_to": in_reply_to}

    run()


def _constructor_driver(name: str) -> Callable[[], None]:
    constructor = getattr(bs, name)

    def drive() -> None:
        @_GUARD
        @given(first=_VALUES, extras=st.dictionaries(st.sampled_from(["x", "y"]), _VALUES))
        def run(first: object, extras: dict[str, object]) -> None:
            first, extras = _unwrap(first), {k: _unwrap(v) for k, v in extras.items()}
            args = () if name in ("completed", "failed") else (first,)
            if name == "failed":
                extras = {**extras, "reason": first}
            line = _raises_only(lambda: constructor(*args, **extras), ValueError)
            if line is not None:
                assert bs.parse_signal(line) is not None

        run()

    return drive


def _drive_read_signals() -> None:
    @_GUARD
    @given(data=_BYTES, limit=st.integers(1, 1 << 20))
    def run(data: bytes, limit: int) -> None:
        records = list(bs.read_signals(io.BytesIO(data), max_line_bytes=limit))
        assert all(len(r.raw) <= limit for r in records)

    run()


def _drive_aread_signals() -> None:
    async def collect(data: bytes, limit: int) -> list[bs.SignalRecord]:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        return [r async for r in bs.aread_signals(reader, max_line_bytes=limit)]

    @settings(_GUARD, max_examples=40)
    @given(data=_BYTES, limit=st.integers(1, 1 << 20))
    def run(data: bytes, limit: int) -> None:
        expected = list(bs.read_signals(io.BytesIO(data), max_line_bytes=limit))
        assert asyncio.run(collect(data, limit)) == expected

    run()


def _drive_signal_scanner() -> None:
    @_GUARD
    @given(data=_BYTES, cut=st.integers(1, 50), limit=st.integers(-2, 200))
    def run(data: bytes, cut: int, limit: int) -> None:
        if limit < 1:
            with pytest.raises(ValueError, match="max_line_bytes"):
                bs.SignalScanner(max_line_bytes=limit)
            return
        scanner = bs.SignalScanner(max_line_bytes=limit)
        for start in range(0, len(data), cut):
            scanner.feed(data[start : start + cut])
        scanner.close()

    run()


def _drive_line_scanner() -> None:
    @_GUARD
    @given(
        data=_BYTES,
        needle=st.binary(max_size=4),
        fold=st.booleans(),
        start=st.booleans(),
        limit=st.integers(-1, 100),
    )
    def run(data: bytes, needle: bytes, fold: bool, start: bool, limit: int) -> None:
        def make() -> bs.LineScanner:
            return bs.LineScanner(needle, fold_case=fold, at_line_start=start, max_line_bytes=limit)

        scanner = _raises_only(make, ValueError)
        if scanner is None:
            assert not needle or b"\n" in needle or limit < 1
            return
        assert isinstance(scanner, bs.LineScanner)
        scanner.feed(data)
        scanner.close()

    run()


def _drive_scan_lines() -> None:
    @_GUARD
    @given(data=_BYTES, needle=st.binary(min_size=1, max_size=4).filter(lambda n: b"\n" not in n))
    def run(data: bytes, needle: bytes) -> None:
        list(bs.scan_lines(io.BytesIO(data), needle.lower(), fold_case=True, max_line_bytes=64))

    run()


def _drive_read_chunks() -> None:
    @_GUARD
    @given(data=_BYTES, size=st.integers(1, 100))
    def run(data: bytes, size: int) -> None:
        assert b"".join(bs.read_chunks(io.BytesIO(data), size)) == data

    run()


def _drive_strip_terminator() -> None:
    @_GUARD
    @given(text=_LINES_TEXT, data=_BYTES)
    def run(text: str, data: bytes) -> None:
        # One "\n" or "\r\n" goes, only at the end: what every reader drops.
        assert bs.strip_terminator(text + "\r\n") == text
        assert bs.strip_terminator(text + "\n") == text.removesuffix("\r")
        assert bs.strip_terminator(data + b"\r\n") == data
        assert bs.strip_terminator(data + b"\n") == data.removesuffix(b"\r")
        kept = bs.strip_terminator(text)
        assert text in (kept, kept + "\n", kept + "\r\n")
        raw = bs.strip_terminator(data)
        assert data in (raw, raw + b"\n", raw + b"\r\n")

    run()


def _drive_terminal() -> None:
    @_GUARD
    @given(lines=st.lists(_LINES, max_size=8))
    def run(lines: list[object]) -> None:
        lines = [_unwrap(line) for line in lines]
        warning = bs.check_terminal_signal(lines, run_id="r")
        terminal = bs.has_terminal_signal(bs.iter_signals(lines))
        assert (warning is None) == terminal

    run()


def _drive_native(parser_class: type[bs.SignalParser]) -> Callable[[], None]:
    events = st.fixed_dictionaries(
        {"type": st.sampled_from(["result", "turn.completed", "turn.failed", "error", "x"])},
        optional={
            "session_id": _TEXT,
            "is_error": st.one_of(st.booleans(), _JSON_ONLY),
            "subtype": _TEXT,
            "error": st.one_of(_TEXT, st.fixed_dictionaries({"message": _TEXT}), _JSON_ONLY),
            "errors": st.lists(st.one_of(_TEXT, st.fixed_dictionaries({"message": _TEXT}))),
            "result": _TEXT,
            "message": _TEXT,
        },
    )

    def encode(event: dict[str, Any]) -> str:
        import json

        return json.dumps(event, ensure_ascii=True)  # lone surrogates travel as escapes

    def drive() -> None:
        @_GUARD
        @given(line=st.one_of(events.map(encode), _LINES))
        @example(line='{"type":"result","session_id":"\\ud800","is_error":true,"result":"\\udfff"}')
        @example(line='{"type":"turn.failed","error":{"message":"\\ud800x"}}')
        @example(line='{"type":"result","n":' + "1" * 5000 + "}")
        def run(line: object) -> None:
            line = _unwrap(line)
            signal = parser_class().stream_signal_parser(line)  # type: ignore[arg-type]
            if signal is not None:  # every mapped signal is formattable: the class fix
                native = not signal.raw_line.startswith(bs.SIGNAL_PREFIX)
                bs.format_signal(signal.kind, signal.payload, validate=native)
            assert all(
                isinstance(s, bs.StreamSignal)
                for s in parser_class().parse_lines([line] if isinstance(line, str) else [])
            )

        run()

    return drive


def _drive_question_tracker() -> None:
    @_GUARD
    @given(
        lines=st.lists(_LINES, max_size=6),
        answers=st.lists(st.tuples(_VALUES, st.one_of(st.none(), _TEXT)), max_size=4),
        enforce=st.booleans(),
    )
    def run(lines: list[object], answers: list[tuple[object, str | None]], enforce: bool) -> None:
        lines = [_unwrap(line) for line in lines]
        answers = [(_unwrap(text), question_id) for text, question_id in answers]
        tracker = bs.QuestionTracker(enforce_options=enforce)
        for signal in bs.iter_signals(lines):
            _raises_only(lambda s=signal: tracker.feed(s), bs.QuestionIdInUse)  # type: ignore[misc]
        for text, question_id in answers:
            _raises_only(lambda t=text, q=question_id: tracker.answer(t, q), ValueError)  # type: ignore[misc]
        assert isinstance(tracker.pending, tuple)

    run()


def _drive_ask() -> None:
    @_GUARD
    @given(
        question=_VALUES,
        options=st.one_of(st.none(), st.lists(_TEXT, max_size=3)),
        id_=st.one_of(st.none(), _TEXT),
        replies=_BYTES,
        binary=st.booleans(),
    )
    def run(
        question: object, options: list[str] | None, id_: str | None, replies: bytes, binary: bool
    ) -> None:
        question = _unwrap(question)
        stdin: Any = (
            io.BytesIO(replies)
            if binary
            else io.StringIO(replies.decode("utf-8", "surrogateescape"))
        )
        out, notes = io.StringIO(), io.StringIO()
        answer = _raises_only(
            lambda: bs.ask(
                question,  # type: ignore[arg-type]
                options=options,
                id=id_,
                stdin=stdin,
                stdout=out,
                stderr=notes,
            ),
            bs.QuestionAborted,
            ValueError,
        )
        assert answer is None or isinstance(answer, str)
        assert all(line.startswith("bernstein-signals: ") for line in notes.getvalue().splitlines())

    run()


def _drive_plans() -> None:
    workdir = Path(os.environ.get("PYTEST_HOSTILE_TMP", "/tmp"))

    @_GUARD
    @given(path=st.one_of(_TEXT.map(lambda t: ".sdd/" + t), _VALUES))
    def run(path: object) -> None:
        path = _unwrap(path)
        _raises_only(lambda: bs.resolve_plan_path(workdir, path), bs.PlanPathError, OSError)
        signal = bs.StreamSignal(bs.SignalKind.PLAN_READY, {"path": path}, "BERNSTEIN:PLAN_READY")
        _raises_only(lambda: bs.read_plan(workdir, signal), ValueError, OSError)

    run()


_DRIVERS: dict[str, Callable[[], None]] = {
    "parse_signal": _drive_parse_signal,
    "iter_signals": _drive_iter_signals,
    "parse_reply": _drive_parse_reply,
    "validate_payload": _drive_validate_payload,
    "validate_reply": _drive_validate_reply,
    "format_signal": _drive_format_signal,
    "emit": _drive_emit,
    "format_reply": _drive_format_reply,
    **{
        name: _constructor_driver(name)
        for name in ("blocked", "completed", "failed", "plan_draft", "plan_ready", "question")
    },
    "read_signals": _drive_read_signals,
    "aread_signals": _drive_aread_signals,
    "SignalScanner": _drive_signal_scanner,
    "LineScanner": _drive_line_scanner,
    "scan_lines": _drive_scan_lines,
    "read_chunks": _drive_read_chunks,
    "strip_terminator": _drive_strip_terminator,
    "check_terminal_signal": _drive_terminal,
    "has_terminal_signal": _drive_terminal,
    "SignalParser": _drive_native(bs.SignalParser),
    "ClaudeStreamJsonParser": _drive_native(bs.ClaudeStreamJsonParser),
    "CodexJsonParser": _drive_native(bs.CodexJsonParser),
    "QuestionTracker": _drive_question_tracker,
    "ask": _drive_ask,
    "read_plan": _drive_plans,
    "resolve_plan_path": _drive_plans,
    # The fence's drivers live beside its other tests; each is a Hypothesis test.
    "FenceVerifier": _fence_hostile.test_verifier_check_never_raises,
    "SignalMarker": _fence_hostile.test_marker_raises_only_what_format_signal_raises,
    "SignalKey": _fence_hostile.test_key_and_verifier_construction_raise_only_type_and_value_errors,
    "take_process_key": _fence_hostile.test_take_process_key_never_raises,
    "key_handover": (
        _fence_hostile.test_the_key_handover_raises_only_documented_errors_and_leaks_no_descriptor
    ),
    "popen_with_key": (
        _fence_hostile.test_the_key_handover_raises_only_documented_errors_and_leaks_no_descriptor
    ),
}

_NO_INPUT: dict[str, str] = {
    **dict.fromkeys(
        (
            "DEFAULT_MAX_LINE_BYTES",
            "DEFAULT_MAX_PLAN_BYTES",
            "MAX_INTEGER_DIGITS",
            "MAX_NESTING_DEPTH",
            "PLAN_DIR",
            "READ_CHUNK_BYTES",
            "SIGNAL_PREFIX",
            "TERMINAL_SIGNAL_KINDS",
            "VOCABULARY_VERSION",
            *bs.fence_rules.__all__,
        ),
        "a constant",
    ),
    "process_key": "takes no argument: the key take_process_key took, or None",
    "protect_process": "takes no argument: sets this process's dumpable flag",
    # the field names the runtime reads by role: generated, one per role
    **dict.fromkeys(bs.fields.__all__, "a constant: a field name the vocabulary gives a role"),
    **dict.fromkeys(
        (
            "AnySignal",
            "AsyncReadable",
            "Readable",
            "BlockedPayload",
            "CompletedPayload",
            "FailedPayload",
            "PlanDraftPayload",
            "PlanReadyPayload",
            "QuestionPayload",
            "Reply",
            "SignalPayload",
        ),
        "a type for annotations only",
    ),
    **dict.fromkeys(
        (
            "FenceVerdict",
            "KeyHandover",
            "PayloadError",
            "PendingQuestion",
            "ScannedLine",
            "SignalRecord",
            "StreamSignal",
            "SignalKind",
            "UnknownKindRecord",
            "UnknownKindSignal",
        ),
        "a record: stores the fields a reader or check built",
    ),
    **dict.fromkeys(
        (
            "AnswerNotAnOption",
            "MissingTerminalSignal",
            "PlanPathError",
            "QuestionAborted",
            "QuestionError",
            "QuestionIdInUse",
            "QuestionTimeout",
            "SignalPayloadError",
            "UnknownQuestion",
        ),
        "an exception the binding raises",
    ),
}


def test_every_public_name_has_a_hostile_driver() -> None:
    public = set(bs.__all__)
    covered = set(_DRIVERS) | set(_NO_INPUT)
    assert not public - covered, (
        f"public names without a hostile-input driver: {sorted(public - covered)}"
    )
    assert not covered - public, (
        f"drivers for names that are not public: {sorted(covered - public)}"
    )
    assert not set(_DRIVERS) & set(_NO_INPUT)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(_DRIVERS))
def test_public_name_survives_hostile_input(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".sdd").mkdir()
    (tmp_path / ".sdd" / "plan.md").write_text("# plan", encoding="utf-8")
    monkeypatch.setenv("PYTEST_HOSTILE_TMP", str(tmp_path))
    _DRIVERS[name]()


@pytest.mark.parametrize(
    "payload",
    [[], (), "x", b"x", 1, 1.5, True, {"a"}, frozenset(), io.StringIO(), _self_referential(list)],
    ids=lambda value: type(value).__name__,
)
def test_a_payload_that_is_not_a_dict_raises_the_documented_type_error(payload: object) -> None:
    """format_signal's docstring and the README say TypeError; emit writes nothing."""
    for kind in ("COMPLETED", "QUESTION"):
        for validate in (True, False):
            with pytest.raises(TypeError, match="a signal payload is a dict"):
                bs.format_signal(kind, payload, validate=validate)  # type: ignore[arg-type]
    out = io.StringIO()
    with pytest.raises(TypeError):
        bs.emit("COMPLETED", payload, file=out)  # type: ignore[arg-type]
    assert out.getvalue() == ""


def test_a_mapping_that_is_not_a_dict_is_refused_too() -> None:
    from types import MappingProxyType

    with pytest.raises(TypeError, match="not mappingproxy"):
        bs.format_signal("COMPLETED", MappingProxyType({}))  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", [[], {}, None, 1, "completed", "BERNSTEIN:COMPLETED"])
def test_an_unknown_or_unhashable_kind_is_a_value_error(kind: object) -> None:
    with pytest.raises(ValueError, match="unknown signal kind"):
        bs.format_signal(kind, {})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown signal kind"):
        bs.validate_payload(kind, {})  # type: ignore[arg-type]
