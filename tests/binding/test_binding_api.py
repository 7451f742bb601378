"""The bernstein_signals API contract, case by case."""

from __future__ import annotations

import dataclasses
import io
import json
import keyword
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bernstein_signals as bs
from bernstein_signals import SignalKind, SignalPayloadError, StreamSignal

PACKAGE_ROOT = Path(bs.__file__).resolve().parents[1]


class _Odd(str):
    """A str subclass whose methods lie: the parser must not call them."""

    def startswith(self, *args: object) -> bool:
        raise RuntimeError("called")

    def strip(self, *args: object) -> str:
        raise RuntimeError("called")


@pytest.mark.parametrize("value", [None, 1, ["BERNSTEIN:COMPLETED"], object(), 1.5])
def test_parse_signal_reads_what_is_no_line_as_plain_output(value: object) -> None:
    """Parsers never raise on what a stream holds; only str and bytes are lines."""
    assert bs.parse_signal(value) is None
    assert bs.parse_signal(value, lenient=True) is None
    assert bs.parse_reply(value) is None
    assert list(bs.iter_signals([value, "BERNSTEIN:FAILED"])) == [
        bs.parse_signal("BERNSTEIN:FAILED")
    ]


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview])
def test_bytes_lines_parse_as_their_utf8_text(wrap: type) -> None:
    line = 'BERNSTEIN:QUESTION {"question":"café?"}\r\n'
    signal = bs.parse_signal(wrap(line.encode()))
    assert signal == bs.parse_signal(line)
    assert type(signal.raw_line) is str  # type: ignore[union-attr]
    assert bs.parse_signal(wrap(b'BERNSTEIN:COMPLETED {"x":"\xff"}')) is None  # not UTF-8: plain
    assert bs.parse_signal(wrap(b"  BERNSTEIN:COMPLETED "), lenient=True) is not None


def test_str_subclasses_parse_as_their_text() -> None:
    signal = bs.parse_signal(_Odd("BERNSTEIN:COMPLETED {}"))
    assert signal == StreamSignal(SignalKind.COMPLETED, {}, "BERNSTEIN:COMPLETED {}")
    assert type(signal.raw_line) is str
    assert bs.parse_signal(_Odd("  BERNSTEIN:FAILED "), lenient=True) is not None
    assert [s.kind for s in bs.iter_signals([_Odd("BERNSTEIN:FAILED"), 3, b"x"])] == ["FAILED"]


def test_stream_signal_is_frozen_hashable_and_knows_terminal_kinds() -> None:
    signal = bs.parse_signal('BERNSTEIN:QUESTION {"question":"?"}\n')
    assert signal is not None
    assert signal.raw_line == 'BERNSTEIN:QUESTION {"question":"?"}'
    assert not signal.is_terminal
    with pytest.raises(dataclasses.FrozenInstanceError):
        signal.kind = SignalKind.FAILED  # type: ignore[misc]
    assert len({signal, bs.parse_signal('BERNSTEIN:QUESTION {"question":"?"}')}) == 1
    assert all(bs.parse_signal(f"BERNSTEIN:{k}").is_terminal for k in ("COMPLETED", "FAILED"))  # type: ignore[union-attr]


def test_strict_and_lenient_modes() -> None:
    spaced = '  BERNSTEIN:  QUESTION \t {"question":"?"}  \r\n'
    assert bs.parse_signal(spaced) is None
    lenient = bs.parse_signal(spaced, lenient=True)
    assert lenient is not None
    assert lenient.payload == {"question": "?"}
    assert lenient.raw_line == spaced.strip()
    for glued in ("BERNSTEIN:COMPLETED{}", "BERNSTEIN:COMPLETED{} "):
        assert bs.parse_signal(glued) is None
        assert bs.parse_signal(glued, lenient=True) is None
    # JSON strictness is the same in both modes.
    for payload in ('{"a":NaN}', '{"a":1e400}', '{"a":"\\udfff"}', '{"a":\n1}', "[]"):
        assert bs.parse_signal(f"BERNSTEIN:COMPLETED {payload}", lenient=True) is None
    assert bs.parse_signal("BERNSTEIN:", lenient=True) is None
    assert bs.parse_signal("BERNSTEIN:   ", lenient=True) is None


def test_payload_failing_its_schema_still_parses() -> None:
    signal = bs.parse_signal('BERNSTEIN:QUESTION {"question":""}')
    assert signal is not None
    assert bs.validate_payload(signal.kind, signal.payload)


def test_format_signal_canonical_form() -> None:
    assert bs.format_signal(SignalKind.COMPLETED) == "BERNSTEIN:COMPLETED"
    assert bs.format_signal("COMPLETED", {}) == "BERNSTEIN:COMPLETED {}"
    text = 'é/\u2028\x85\u2029\x7f\x1f"\\'
    assert bs.format_signal("FAILED", {"z": 1, "reason": text, "Z": [True]}) == (
        'BERNSTEIN:FAILED {"Z":[true],"reason":"é/\\u2028\\u0085\\u2029\x7f\\u001f\\"\\\\","z":1}'
    )
    # Keys sort by UTF-16 code unit (spec/canonical-form.md), as in every binding.
    assert bs.format_signal(
        "COMPLETED", {"é": 1, "z": 2, "Z": 3, "\U0001f600": 4, "\uffff": 5}
    ) == ('BERNSTEIN:COMPLETED {"Z":3,"z":2,"é":1,"\U0001f600":4,"\uffff":5}')


def _nested(depth: int) -> dict[str, object]:
    payload: dict[str, object] = {}
    for _ in range(depth - 1):
        payload = {"a": payload}
    return payload


def _cycle() -> dict[str, object]:
    payload: dict[str, object] = {}
    payload["self"] = payload
    return payload


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ([], TypeError),
        ("{}", TypeError),
        ({"a": float("nan")}, ValueError),
        ({"a": float("inf")}, ValueError),
        ({"a": object()}, ValueError),
        ({1: "a"}, ValueError),
        ({"a": [{None: 1}]}, ValueError),
        ({"a": "\ud800"}, ValueError),
        ({"\udc00": 1}, ValueError),
        ({"a": 10**5000}, ValueError),
        (_nested(bs.MAX_NESTING_DEPTH + 1), ValueError),
        (_cycle(), ValueError),
    ],
)
def test_format_signal_refuses_what_a_line_cannot_carry(payload: object, error: type) -> None:
    with pytest.raises(error):
        bs.format_signal("COMPLETED", payload, validate=False)  # type: ignore[arg-type]


def test_nesting_bound_is_the_same_for_formatter_and_parser() -> None:
    line = bs.format_signal("COMPLETED", _nested(bs.MAX_NESTING_DEPTH))
    assert bs.parse_signal(line) is not None


def test_format_signal_kind_and_schema_errors() -> None:
    with pytest.raises(ValueError, match="unknown signal kind"):
        bs.format_signal("DONE")
    with pytest.raises(SignalPayloadError) as caught:
        bs.format_signal(SignalKind.PLAN_READY, {"path": "../etc/passwd"})
    message = str(caught.value)
    assert "PLAN_READY" in message
    assert "/path" in message
    assert "[pattern]" in message
    assert "never be sent outside .sdd/" in message
    assert isinstance(caught.value, ValueError)
    assert [(e.pointer, e.rule) for e in caught.value.errors] == [("/path", "pattern")]
    with pytest.raises(SignalPayloadError, match="/question"):
        bs.format_signal(SignalKind.QUESTION)  # no payload reads as {}, which lacks the question
    assert bs.format_signal("PLAN_READY", {"path": "../x"}, validate=False)


def test_constructors_build_canonical_lines() -> None:
    assert bs.question("Apply?", options=["yes", "no"], id="q-1") == (
        'BERNSTEIN:QUESTION {"id":"q-1","options":["yes","no"],"question":"Apply?"}'
    )
    stamp = f'"vocabulary":"{bs.VOCABULARY_VERSION}"'  # the terminals say their version
    assert bs.completed() == f"BERNSTEIN:COMPLETED {{{stamp}}}"
    assert bs.completed(vocabulary=None) == "BERNSTEIN:COMPLETED"
    assert bs.completed(summary="ok", tokens=3) == (
        f'BERNSTEIN:COMPLETED {{"summary":"ok","tokens":3,{stamp}}}'
    )
    assert bs.failed(vocabulary=None) == "BERNSTEIN:FAILED"
    assert bs.failed(reason="exit 2") == f'BERNSTEIN:FAILED {{"reason":"exit 2",{stamp}}}'
    assert bs.blocked("no token", hint=None) == 'BERNSTEIN:BLOCKED {"reason":"no token"}'
    assert bs.plan_draft("# Plan\n", path=".sdd/p.md") == (
        'BERNSTEIN:PLAN_DRAFT {"markdown":"# Plan\\n","path":".sdd/p.md"}'
    )
    assert bs.plan_ready(".sdd/p.md") == 'BERNSTEIN:PLAN_READY {"path":".sdd/p.md"}'
    with pytest.raises(SignalPayloadError):
        bs.question("")
    assert "must not be empty" in (bs.question.__doc__ or "")


class _Recorder(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def write(self, text: str) -> int:
        self.calls.append(f"write:{text}")
        return super().write(text)

    def flush(self) -> None:
        self.calls.append("flush")


def test_emit_writes_once_then_flushes() -> None:
    out = _Recorder()
    bs.emit("QUESTION", {"question": "Go?"}, file=out)
    assert out.calls == ['write:BERNSTEIN:QUESTION {"question":"Go?"}\n', "flush"]


def test_emit_defaults_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    bs.emit(SignalKind.COMPLETED)
    assert capsys.readouterr().out == "BERNSTEIN:COMPLETED\n"


def test_iter_signals_and_terminal_checks() -> None:
    lines = ["building\n", 'BERNSTEIN:QUESTION {"question":"?"}\n', "BERNSTEIN:nope\n"]
    assert [s.kind for s in bs.iter_signals(lines)] == [SignalKind.QUESTION]
    assert not bs.has_terminal_signal(bs.iter_signals(lines))
    warning = bs.check_terminal_signal(lines, run_id="run-7")
    assert isinstance(warning, bs.MissingTerminalSignal)
    assert isinstance(warning, RuntimeWarning)
    assert "run-7" in str(warning)
    assert bs.check_terminal_signal([*lines, "BERNSTEIN:FAILED\n"], run_id="run-7") is None
    lenient = ["  BERNSTEIN:COMPLETED  \n"]
    assert not list(bs.iter_signals(lenient))
    assert [s.kind for s in bs.iter_signals(lenient, lenient=True)] == [SignalKind.COMPLETED]


def test_reply_round_trip() -> None:
    line = bs.format_reply("yes", "q-1")
    assert line == '{"answer":"yes","in_reply_to":"q-1"}'
    assert bs.parse_reply(line + "\n") == {"answer": "yes", "in_reply_to": "q-1"}
    assert bs.format_reply("main") == '{"answer":"main","in_reply_to":null}'
    assert bs.format_reply("a\u2028b") == '{"answer":"a\\u2028b","in_reply_to":null}'
    with pytest.raises(SignalPayloadError, match="in_reply_to"):
        bs.format_reply("yes", "")
    for bad in ('{"answer":"y"}', '{"answer":"y","in_reply_to":null,"x":1}', "[]", "", "{"):
        assert bs.parse_reply(bad) is None


_BLOCKER = """
import sys
BLOCKED = {"jsonschema", "lark", "pydantic", "hypothesis", "bernstein_signals_toolkit"}
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked: {name}")
sys.meta_path.insert(0, Blocker())
sys.path.insert(0, sys.argv[1])
import bernstein_signals as bs
line = bs.question("Go?", options=["y", "n"])
assert bs.parse_signal(line).payload["options"] == ["y", "n"]
assert bs.validate_payload("PLAN_READY", {"path": "/x"})
foreign = {name.split(".")[0] for name in sys.modules} - {*sys.stdlib_module_names, "__main__"}
assert foreign == {"bernstein_signals"}, foreign
print("ok")
"""


def test_runtime_needs_only_the_standard_library() -> None:
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _BLOCKER, str(PACKAGE_ROOT)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert (result.returncode, result.stdout.strip()) == (0, "ok"), result.stderr


# -- unknown kinds (opt-in) -----------------------------------------------------


def test_unknown_kinds_are_plain_output_by_default_and_str_kinds_on_request() -> None:
    line = 'BERNSTEIN:PROGRESS {"percent":5}\n'
    assert bs.parse_signal(line) is None
    assert bs.parse_signal(line, lenient=True) is None
    signal = bs.parse_signal(line, unknown_kinds=True)
    assert signal == bs.UnknownKindSignal("PROGRESS", {"percent": 5}, line.rstrip("\n"))
    assert type(signal.kind) is str
    assert not signal.is_terminal
    bare = bs.parse_signal("BERNSTEIN:PROGRESS", unknown_kinds=True)
    assert bare == bs.UnknownKindSignal("PROGRESS", {}, "BERNSTEIN:PROGRESS")
    spaced = bs.parse_signal("  BERNSTEIN: PROGRESS  {} ", lenient=True, unknown_kinds=True)
    assert spaced == bs.UnknownKindSignal("PROGRESS", {}, "BERNSTEIN: PROGRESS  {}")
    # Known kinds stay StreamSignal, with the enum member.
    known = bs.parse_signal("BERNSTEIN:FAILED", unknown_kinds=True)
    assert type(known) is StreamSignal
    assert known.kind is SignalKind.FAILED
    assert known.is_terminal
    lines = ["x", "BERNSTEIN:PROGRESS", b"BERNSTEIN:COMPLETED", 3]
    assert [s.kind for s in bs.iter_signals(lines)] == ["COMPLETED"]
    assert [s.kind for s in bs.iter_signals(lines, unknown_kinds=True)] == ["PROGRESS", "COMPLETED"]


@pytest.mark.parametrize(
    "line",
    [
        "BERNSTEIN:progress {}",  # not the grammar's KIND token
        "BERNSTEIN:PRO-GRESS",
        "BERNSTEIN:1ABC",
        "BERNSTEIN:",
        "BERNSTEIN:PROGRESS  {}",  # strict: one space
        "BERNSTEIN:PROGRESS {'a':1}",
        "BERNSTEIN:PROGRESS []",
        "BERNSTEIN:PROGRESS {} x",
        "BERNSTEIN:PROGRESS{}",
    ],
)
def test_unknown_kinds_still_follow_the_grammar(line: str) -> None:
    assert bs.parse_signal(line, unknown_kinds=True) is None


def test_the_unknown_kind_token_is_the_grammars_kind() -> None:
    from bernstein_signals import parsing
    from bernstein_signals_toolkit.generator.load import load_grammar
    from bernstein_signals_toolkit.generator.sources import packaged_sources

    grammar, _ = load_grammar(packaged_sources().grammar)
    assert parsing._KIND_TOKEN.pattern == grammar.kind_pattern


@given(
    kind=st.from_regex(r"[A-Z][A-Z0-9_]{0,30}", fullmatch=True),
    payload=st.dictionaries(
        st.text(max_size=5),
        st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=10),
        max_size=4,
    ),
    lenient=st.booleans(),
)
def test_unknown_kinds_property(kind: str, payload: dict[str, object], lenient: bool) -> None:
    """Any grammatical kind parses with the opt-in, exactly as a known kind would."""
    line = bs.format_signal(SignalKind.COMPLETED, payload).replace("COMPLETED", kind, 1)
    signal = bs.parse_signal(line, lenient=lenient, unknown_kinds=True)
    assert signal is not None
    assert signal.kind == kind
    assert signal.payload == payload
    known = kind in set(SignalKind)
    assert isinstance(signal, StreamSignal if known else bs.UnknownKindSignal)
    assert (bs.parse_signal(line, lenient=lenient) is not None) is known


# -- typed constructors: None means left out, for fields and extras -------------------

_SCHEMAS = {
    path.name.removesuffix(".schema.json").upper(): json.loads(path.read_text(encoding="utf-8"))
    for path in (Path(__file__).resolve().parents[2] / "schema").glob("*.schema.json")
    if path.name != "reply.schema.json"
}
_ABSENT = object()
"""A parameter the call leaves out."""
_EXTRA_VALUES = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8)


def _example_values(schema: dict[str, Any], field: str) -> list[object]:
    """The field's non-null values in the schema's own examples: valid by construction."""
    return [example[field] for example in schema["examples"] if example.get(field) is not None]


@st.composite
def _constructor_calls(draw: st.DrawFn) -> tuple[SignalKind, dict[str, object], dict[str, object]]:
    """A kind, keyword arguments for its constructor, and the payload they must give."""
    kind = draw(st.sampled_from(sorted(SignalKind)))
    schema = _SCHEMAS[kind.value]
    arguments: dict[str, object] = {}
    payload: dict[str, object] = {}
    for field in schema.get("properties", {}):
        values = _example_values(schema, field)
        if field in schema.get("required", []):
            arguments[field] = payload[field] = draw(st.sampled_from(values))
            continue
        value = draw(st.sampled_from([_ABSENT, None, *values]))
        if value is _ABSENT:
            if field == "vocabulary":  # the version role: stamped unless passed
                payload[field] = bs.VOCABULARY_VERSION
            continue
        arguments[field] = value
        if value is not None:
            payload[field] = value
    if schema.get("additionalProperties", True) is not False:
        names = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(
            lambda name: name not in schema.get("properties", {}) and not keyword.iskeyword(name)
        )
        extras = draw(st.dictionaries(names, _EXTRA_VALUES, max_size=4))
        arguments.update(extras)
        payload.update({name: value for name, value in extras.items() if value is not None})
    return kind, arguments, payload


@given(call=_constructor_calls())
def test_every_constructor_leaves_out_what_is_none(
    call: tuple[SignalKind, dict[str, object], dict[str, object]],
) -> None:
    """A field or extra passed as None is absent from the line, which parses back to the
    payload the arguments describe (the docstrings' promise, for every kind)."""
    kind, arguments, payload = call
    constructor = getattr(bs, kind.value.lower())
    line = constructor(**arguments)
    signal = bs.parse_signal(line)
    assert signal is not None, line
    assert signal.kind is kind
    assert signal.payload == payload
    assert None not in signal.payload.values()
    assert line == bs.format_signal(kind, payload or None)
    assert "A field or extra left at None is omitted" in (constructor.__doc__ or "")


def test_the_users_none_summary_is_left_out() -> None:
    """Issue 16 item 5: completed(summary=None) wrote {"summary":null}."""
    assert bs.completed(summary=None) == bs.completed()
    assert bs.completed(summary=None, vocabulary=None) == "BERNSTEIN:COMPLETED"
    assert "null" not in bs.failed(reason=None, stderr_tail=None)
