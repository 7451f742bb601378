"""The TypeScript binding's fence (issue 17): its own tests, its types, and the Python fence.

``fence.test.mjs`` and ``fence_sha256.test.mjs`` (node --test, fast-check) hold the
binding's unit and property tests and the shared vectors; ``fence_usage.ts`` keeps the
declarations tight under ``tsc --strict``. Here, through one long-running Node process,
Hypothesis marks in one language and verifies in the other: the same bytes, the same
verdicts on every mutation. An adapter's start-up takes the key from a real inherited
descriptor.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import example, given, reject, settings
from hypothesis import strategies as st

from bernstein_signals import (
    FenceVerdict,
    FenceVerifier,
    SignalKey,
    SignalKind,
    SignalMarker,
    SignalPayloadError,
    failed,
    fence_rules,
    parse_signal,
)
from bernstein_signals._canonical_json import dump_canonical
from bernstein_signals.fence_rules import (
    KEY_EXPOSED,
    KEY_FD_VARIABLE,
    KEY_READ_SECONDS,
    KEY_REFUSED_STATUS,
    KEY_VARIABLE,
    MAX_SEQUENCE,
    MAX_SEQUENCE_STEP,
    REPLAYED_SIGNAL,
)
from bernstein_signals_toolkit.generator.emitters import _typescript_fence
from bernstein_signals_toolkit.generator.emitters._templates import python_runtime_module
from bernstein_signals_toolkit.toolkit_errors import SourceError
from fence_support import socket_holding
from linear_support import assert_linear
from node_oracle_support import NodeOracle
from typescript.node_support import BINDING, HERE, ROOT, environment, node, tool
from typescript.test_typescript_differential import _payloads, _tagged

_KINDS = [kind.value for kind in SignalKind]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("script", ["fence.test.mjs", "fence_sha256.test.mjs"])
def test_node_fence_tests_pass(script: str) -> None:
    tool("tsc")  # the lockfile's tools are installed (fast-check among them)
    result = subprocess.run(
        [node(), "--test", "--test-reporter=tap", str(HERE / script)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=environment(),
        cwd=ROOT,
        check=False,
        timeout=230,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout
    assert "# pass 0" not in result.stdout


@pytest.mark.timeout(180)
@pytest.mark.parametrize("project", ["tsconfig.fence.json", "tsconfig.node.json"])
def test_fence_declarations_type_check_strictly(project: str) -> None:
    """The fence's declarations, and the Node entry's (with Node's own types)."""
    result = subprocess.run(
        [str(tool("tsc")), "-p", str(HERE / project)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        check=False,
        timeout=170,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def oracle() -> Iterator[NodeOracle]:
    running = NodeOracle(node(), HERE / "fence_harness.mjs", env=environment(), cwd=ROOT)
    yield running
    running.close()


def test_the_fence_constants_are_the_python_bindings(oracle: NodeOracle) -> None:
    """fence_rules.js holds every name of fence_rules.__all__, with its value, and no other."""
    found = oracle.ask({"op": "rules"})["rules"]
    assert found == {name: getattr(fence_rules, name) for name in fence_rules.__all__}


def test_a_constant_javascript_cannot_hold_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The emitter writes strings and exact integers only: anything else is a SourceError."""
    real = python_runtime_module("fence_rules")
    target = f"{_typescript_fence.__name__}.python_runtime_module"
    for value in (2**53, 1.5, True, None):
        values = {name: getattr(real, name) for name in real.__all__}
        fake = SimpleNamespace(__all__=real.__all__, **{**values, "MAX_SEQUENCE": value})
        monkeypatch.setattr(target, lambda _name, fake=fake: fake)
        with pytest.raises(SourceError, match="MAX_SEQUENCE"):
            _typescript_fence.fence_rules_files("// header")
    monkeypatch.undo()
    files = _typescript_fence.fence_rules_files("// header")
    assert 'export const MARK_FIELD = "_sig";' in files["fence_rules.js"]
    assert "export declare const MAX_SEQUENCE: 9007199254740991;" in files["fence_rules.d.ts"]


@pytest.fixture(scope="module")
def timing_oracle() -> Iterator[NodeOracle]:
    """A Node process of its own for the timing tests. After the differential tests'
    thousands of random payloads, the shared process measured 24-32x for 10x the input
    on several shapes, the same calls in a fresh process about 10x: what was timed there
    was that process's JIT and heap state, not the fence."""
    running = NodeOracle(node(), HERE / "fence_harness.mjs", env=environment(), cwd=ROOT)
    yield running
    running.close()


def _key_text(run: bytes, secret: bytes) -> str:
    return f"{run.hex()}:{secret.hex()}"


def _python_mark(key: SignalKey, seq: int, kind: str, payload: dict[str, Any] | None) -> str | None:
    marker = SignalMarker(key)
    marker._next = seq  # mark at this sequence number
    try:
        return marker.mark(kind, payload)
    except (ValueError, TypeError):
        return None


def _shown(verdict: FenceVerdict) -> dict[str, Any]:
    """A Python verdict as the harness shows a Node one."""
    signal = verdict.signal
    return {
        "code": verdict.code,
        "problem": verdict.problem,
        "seq": verdict.seq,
        "kind": None if signal is None else str(signal.kind),
        "payload": None if signal is None else dump_canonical(signal.payload),
        "rawLine": None if signal is None else signal.raw_line,
    }


_keys = st.builds(_key_text, st.binary(min_size=8, max_size=8), st.binary(min_size=32, max_size=32))
_TWO_KINDS = st.sampled_from(["COMPLETED", "FAILED"])
_seqs = st.one_of(st.integers(1, 1000), st.integers(MAX_SEQUENCE - 3, MAX_SEQUENCE))


@pytest.mark.timeout(600)
@settings(max_examples=1500)
@given(_keys, _seqs, st.sampled_from(_KINDS), st.none() | _payloads)
@example("0" * 16 + ":" + "f" * 64, MAX_SEQUENCE, "COMPLETED", {"\U0001f600": 1, "\uffff": 2})
@example("0" * 16 + ":" + "f" * 64, 7, "COMPLETED", {"n": 1e21, "z": -0.0, "big": 2**64})
@example("0" * 16 + ":" + "f" * 64, 7, "QUESTION", {"question": "a\u2028b", "_a": 1, "Z": 2})
def test_both_bindings_mark_the_same_bytes_and_verify_each_other(
    oracle: NodeOracle, key_text: str, seq: int, kind: str, payload: dict[str, Any] | None
) -> None:
    key = SignalKey.parse(key_text)
    expected = _python_mark(key, seq, kind, payload)
    tagged = None if payload is None else _tagged(payload)
    found = oracle.ask({"op": "mark", "key": key_text, "seq": seq, "kind": kind, "payload": tagged})
    assert found.get("line") == expected, (payload, found)
    if expected is None:
        assert found["error"] in {"payload-schema", "not-json"}, found
        return
    # Python marked it: Node verifies it; Node's verdict is Python's on the same line.
    answer = oracle.ask(
        {"op": "check", "key": key_text, "allowKinds": None, "lines": [expected.encode().hex()]}
    )
    python = _shown(FenceVerifier(key).check(expected))
    assert answer["verdicts"] == [python]
    assert python["seq"] == seq
    # A fresh verifier takes numbers up to MAX_SEQUENCE_STEP; past it, both say out of sequence.
    assert python["code"] == (None if seq <= MAX_SEQUENCE_STEP else REPLAYED_SIGNAL)


_PUT = st.sampled_from([" ", '"', "0", "\\", ",", "é"])


def _mutations() -> st.SearchStrategy[Any]:
    """How a forger changes a marked line: bytes flipped, cut or put in, kind or mark swapped."""
    return st.one_of(
        st.tuples(st.just("flip"), st.integers(0, 10_000), st.integers(0, 7)),
        st.tuples(st.just("cut"), st.integers(0, 10_000), st.integers(1, 4)),
        st.tuples(st.just("put"), st.integers(0, 10_000), _PUT),
        st.tuples(st.just("kind"), st.sampled_from(_KINDS), st.just(0)),
        st.tuples(st.just("same"), st.just(0), st.just(0)),
    )


def _mutated(line: bytes, how: tuple[str, Any, Any]) -> bytes:
    what, where, detail = how
    if what == "flip":
        index = where % len(line)
        return line[:index] + bytes([line[index] ^ (1 << detail)]) + line[index + 1 :]
    if what == "cut":
        index = where % len(line)
        return line[:index] + line[index + detail :]
    if what == "put":
        index = where % (len(line) + 1)
        return line[:index] + str(detail).encode() + line[index:]
    if what == "kind":
        _, _, rest = line.partition(b" ")
        return b"BERNSTEIN:" + str(where).encode() + (b" " + rest if rest else b"")
    return line


@pytest.mark.timeout(600)
@settings(max_examples=1500)
@given(
    st.tuples(_keys, _keys),
    st.lists(
        st.tuples(st.sampled_from(["COMPLETED", "FAILED"]), _payloads), min_size=1, max_size=4
    ),
    st.lists(st.tuples(st.integers(0, 3), st.booleans(), _mutations()), min_size=1, max_size=6),
    st.none() | st.lists(st.sampled_from(_KINDS), max_size=3),
)
def test_both_verifiers_give_the_same_verdict_on_every_stream(
    oracle: NodeOracle,
    key_texts: tuple[str, str],
    signals: list[tuple[str, dict[str, Any]]],
    plan: list[tuple[int, bool, tuple[str, Any, Any]]],
    allow_kinds: list[str] | None,
) -> None:
    """Marked lines (of this run or another), replayed, reordered and mutated: the same
    code, problem, sequence number and accepted payload from both verifiers, in order."""
    key_text = key_texts[0]
    keys = [SignalKey.parse(text) for text in key_texts]
    markers = [SignalMarker(key) for key in keys]
    try:
        marked = [[m.mark(kind, payload) for kind, payload in signals] for m in markers]
    except SignalPayloadError:  # a drawn FAILED payload its schema refuses: no line to check
        reject()
    stream = [
        _mutated(marked[1 if foreign else 0][index % len(signals)].encode(), how)
        for index, foreign, how in plan
    ]
    python = FenceVerifier(keys[0], allow_kinds)
    expected = [_shown(python.check(line)) for line in stream]
    request = {"op": "check", "key": key_text, "allowKinds": allow_kinds}
    answer = oracle.ask({**request, "lines": [line.hex() for line in stream]})
    assert answer["verdicts"] == expected, stream
    # The allow-list alone, without a key, also agrees.
    alone = FenceVerifier(None, allow_kinds)
    if allow_kinds is not None:
        unkeyed = oracle.ask({**request, "key": None, "lines": [line.hex() for line in stream]})
        assert unkeyed["verdicts"] == [_shown(alone.check(line)) for line in stream]


_TIMING_SHAPES = [
    ("long-string", False, 20_000),
    ("long-string", True, 20_000),
    ("escapes", False, 5_000),
    ("keys-before-mark", False, 2_000),
    ("keys-before-mark", True, 2_000),
    ("big-integers", False, 1_000),
    ("stream", False, 1_000),
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("shape", "forged", "size"), _TIMING_SHAPES)
def test_fence_time_grows_linearly(
    timing_oracle: NodeOracle, shape: str, forged: bool, size: int
) -> None:
    """Verifying a marked or forged line, and the fenced reader over a stream, cost time
    linear in the input: long strings, escapes, keys that sort before the mark (the
    splice's fallback), big integers, many lines."""
    request = {"op": "time", "shape": shape, "forged": forged}
    answer = timing_oracle.ask({**request, "count": 10})
    if shape == "stream":
        assert answer == {"seen": 20}  # 10 accepted, 10 replays reported
    else:
        assert answer["code"] == ("BS601" if forged else None), answer

    def make(count: int) -> Any:
        return lambda: timing_oracle.ask({**request, "count": count})

    assert_linear(make, size, what=f"the TypeScript fence on {shape} x n")


def _start_up(
    env: dict[str, str], key_bytes: bytes | None, *, keep_open: bool = False
) -> subprocess.CompletedProcess[str]:
    """fence_take_key.mjs, with ``key_bytes`` on a socket at descriptor 3 when given (its
    writer closed, unless ``keep_open``)."""
    script = [node(), str(HERE / "fence_take_key.mjs")]
    if key_bytes is None:
        return subprocess.run(
            script,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env={**environment(), **env},
            cwd=ROOT,
            check=False,
            timeout=60,
        )
    reader, writer = socket_holding(key_bytes, close_writer=not keep_open)
    try:
        return subprocess.run(
            ["sh", "-c", 'exec "$@" 3<&0 </dev/null', "sh", *script],
            stdin=reader,
            capture_output=True,
            text=True,
            env={**environment(), **env},
            cwd=ROOT,
            check=False,
            timeout=60,  # the hang this guards against: the writer may still be open here
        )
    finally:
        os.close(reader)
        if writer is not None:
            writer.close()


def _taken(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert result.returncode == 0, result.stderr[-2000:]
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def _refused(result: subprocess.CompletedProcess[str], problem: str) -> None:
    """The process stopped: one line on stderr, one unmarked FAILED on stdout, as Python's."""
    assert result.returncode == KEY_REFUSED_STATUS, result.stderr[-2000:]
    reason = f"no signal key: {problem}"
    assert result.stderr == f"bernstein-signals: {reason}\n"
    assert result.stdout == failed(reason=reason) + "\n"


@pytest.mark.timeout(120)
def test_an_adapter_takes_the_key_and_its_child_inherits_nothing() -> None:
    key = SignalKey.generate()
    secret = key.text().split(":")[1]
    by_fd = _taken(_start_up({KEY_FD_VARIABLE: "3"}, key.text().encode() + b"\n"))
    by_variable = _taken(_start_up({KEY_VARIABLE: key.text()}, None))
    for answer in (by_fd, by_variable):
        assert answer["run"] == key.run
        assert KEY_VARIABLE not in answer["child"]
        assert secret not in json.dumps(answer)
    assert by_fd["descriptor"] == "closed"
    assert by_fd["child"].endswith("child-fd-closed\n")
    bad = _start_up({KEY_VARIABLE: key.text()[:-1] + "g"}, None)
    _refused(bad, f"{KEY_VARIABLE} is not a signal key: expected 16 hex digits, ':', 64 hex digits")
    assert secret[:-1] not in bad.stdout + bad.stderr


@pytest.mark.timeout(200)
def test_the_node_key_read_takes_a_socket_only_and_never_hangs() -> None:
    """readKeyDescriptor against a socket whose writer never closes, and against a pipe."""
    key = SignalKey.generate()
    secret = key.text().split(":")[1]
    more = key.text().encode() + b"\nmore text the reader never needs\n"
    taken = _start_up({KEY_FD_VARIABLE: "3"}, more, keep_open=True)
    assert (_taken(taken)["run"], _taken(taken)["descriptor"]) == (key.run, "closed")
    silent = _start_up({KEY_FD_VARIABLE: "3"}, b"", keep_open=True)
    _refused(
        silent,
        f"{KEY_FD_VARIABLE} names fd 3, which gave no whole key within {KEY_READ_SECONDS} s"
        " (its writer did not close it)",
    )
    endless = _start_up({KEY_FD_VARIABLE: "3"}, b"a" * 4096, keep_open=True)  # no line end
    _refused(
        endless,
        f"the text on fd 3 ({KEY_FD_VARIABLE}) is not a signal key: expected 16 hex digits,"
        " ':', 64 hex digits",
    )
    piped = subprocess.run(  # a pipe on descriptor 3: the shell's stdin, the key on it
        ["sh", "-c", 'exec "$@" 3<&0 </dev/null', "sh", node(), str(HERE / "fence_take_key.mjs")],
        input=key.text() + "\n",
        capture_output=True,
        text=True,
        env={**environment(), KEY_FD_VARIABLE: "3"},
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    _refused(piped, f"{KEY_FD_VARIABLE} names fd 3, a pipe, {KEY_EXPOSED}")
    assert secret not in taken.stdout + silent.stdout + endless.stdout + piped.stdout


_HOSTILE = ROOT / "tests" / "data" / "hostile_signals.txt"
_AGENT = ROOT / "tests" / "adapters" / "fenced_agent.sh"
_FIXED_KEY = SignalKey.parse("7e57ab1e7e57ab1e:" + "5ec2e7" * 10 + "beef")
_CONFORM_WITH_KEY = (
    "import sys\n"
    "from unittest import mock\n"
    "from bernstein_signals import SignalKey\n"
    "from bernstein_signals_toolkit.cli import main\n"
    "mock.patch.object(SignalKey, 'generate', return_value=SignalKey.parse(sys.argv[1])).start()\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


@pytest.mark.timeout(180)
def test_conform_fence_takes_only_the_node_adapters_own_signals(tmp_path: Path) -> None:
    """The proof of issue 17 for a Node adapter: under ``conform --fence`` its agent prints
    a hostile file and replays the adapter's own BLOCKED; every forged line is BS601, the
    replay BS602, and only the adapter's QUESTION, BLOCKED and COMPLETED are signals. The
    run's key (fixed here, so it can be looked for) is in no output and not in the agent."""
    adapter = [
        node(),
        str(HERE / "fence_node_adapter.mjs"),
        str(BINDING),
        str(_AGENT),
        str(_HOSTILE),
    ]
    command = [sys.executable, "-c", _CONFORM_WITH_KEY, _FIXED_KEY.text(), "conform", "--fence"]
    options = ["--format", "json", "--answer-id", "q-1=yes", "--expect-kind", "COMPLETED"]
    result = subprocess.run(
        [*command, *options, "--", *adapter],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
        check=False,
        timeout=170,
    )
    secret = _FIXED_KEY.text().split(":")[1]
    assert secret.encode() not in result.stdout + result.stderr
    report = json.loads(result.stdout)["files"][0]
    hostile = _HOSTILE.read_text(encoding="utf-8").splitlines()
    forged = [number for number, line in enumerate(hostile, 1) if parse_signal(line) is not None]
    replay = 3 + len(hostile)  # QUESTION, BLOCKED, the hostile file, then the replayed BLOCKED
    refused = [(d["line"], d["code"]) for d in report["diagnostics"] if d["code"] >= "BS6"]
    assert refused == [(2 + number, "BS601") for number in forged] + [(replay, "BS602")]
    assert [(s["line"], s["kind"]) for s in report["signals"]] == [
        (1, "QUESTION"),
        (2, "BLOCKED"),
        (replay + 1, "COMPLETED"),
    ]
    assert report["adapter"]["answers"] == [{"line": 1, "in_reply_to": "q-1", "answer": "yes"}]
    assert report["adapter"]["exit_status"] == 0
    assert report["missing_terminal_signal"] == []
    assert result.returncode == 1  # the forged lines are errors
    inherited = (tmp_path / ".sdd" / "agent.txt").read_text(encoding="utf-8")
    assert "fd 3: closed" in inherited
    assert KEY_VARIABLE not in inherited
    assert _FIXED_KEY.run not in inherited
    assert secret not in inherited
