"""The ``conformance`` runner: its judging, its harness handling and its exit statuses."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bernstein_signals_toolkit.generator.emitters._conformance_categories import FORMAT_ERRORS
from bernstein_signals_toolkit.tools.commands._conformance_harness import MAX_RESTARTS
from bernstein_signals_toolkit.tools.commands._conformance_vectors import (
    Vector,
    judge,
    load_vectors,
    request_of,
)
from conformance.conformance_support import (
    CLI,
    HARNESSES,
    KIT_VECTORS,
    PYTHON_HARNESS,
    conformance,
    write_vectors,
)

_SPEC = importlib.util.spec_from_file_location("_python_harness", HARNESSES / "python.py")
assert _SPEC is not None
assert _SPEC.loader is not None
PYTHON = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(PYTHON)

LINE: dict[str, Any] = {
    "id": "one",
    "type": "line",
    "line": "BERNSTEIN:COMPLETED",
    "lenient": False,
    "expected": {"kind": "COMPLETED", "payload": "{}", "reason": "signal"},
}
OTHER: dict[str, Any] = {
    **LINE,
    "id": "two",
    "line": "plain",
    "expected": {"kind": None, "payload": None, "reason": "not-a-signal"},
}


def _script(body: str) -> list[str]:
    """A harness: ``body`` runs for each request line, with ``vector`` and ``say(answer)``."""
    program = (
        "import json, sys, os, time\n"
        "def say(answer):\n"
        "    sys.stdout.write(json.dumps(answer) + '\\n'); sys.stdout.flush()\n"
        "for request in sys.stdin:\n"
        "    vector = json.loads(request)\n"
        + "".join(f"    {line}\n" for line in body.splitlines())
    )
    return [sys.executable, "-c", program]


def _mutated(vector: Vector, answer: dict[str, Any]) -> dict[str, Any]:
    """The answer changed in the one way the vector's type makes wrong."""
    wrong = dict(answer)
    if vector.type == "line":
        if answer["payload"] is None:
            wrong["kind"] = "COMPLETED"
        else:
            payload = json.loads(answer["payload"])
            wrong["payload"] = json.dumps({**payload, "zz_mutant": 1})
    elif vector.type in ("format", "format-reply"):
        if "line" in answer:
            wrong["line"] = answer["line"] + " "
        else:
            others = [error for error in FORMAT_ERRORS if error != answer["error"]]
            wrong["error"] = others[0]
    elif vector.type == "payload":
        wrong["errors"] = [*answer["errors"], {"pointer": "/zz", "rule": "type"}]
    elif vector.type == "parse-reply":
        wrong["reply"] = "{}" if answer["reply"] is None else None
    else:
        wrong["terminal"] = not answer["terminal"]
    return wrong


def test_every_kit_vector_passes_the_reference_and_fails_a_wrong_answer() -> None:
    """A vector that no answer could fail would prove nothing."""
    vectors = load_vectors(KIT_VECTORS)
    assert len(vectors) > 700
    for vector in vectors:
        answer = {"id": vector.id, **PYTHON._ANSWER[vector.type](dict(vector.request))}
        assert judge(vector, answer) is None, vector.id
        assert judge(vector, _mutated(vector, answer)) is not None, vector.id
        assert judge(vector, {**answer, "id": vector.id + "x"}) is not None


def test_the_harness_is_sent_no_expectation() -> None:
    for vector in load_vectors(KIT_VECTORS):
        assert "expected" not in vector.request
        assert "note" not in vector.request
    assert request_of({"id": "a", "expected": {}, "note": "n", "line": ""}) == {
        "id": "a",
        "line": "",
    }


@pytest.mark.parametrize(
    ("expected", "answered", "equal"),
    [
        ("1", "1.0", True),
        ("9007199254740993", "9007199254740992", False),
        ("9007199254740993", "9007199254740993", True),
        ("true", "1", False),
        ("0", "false", False),
        ("[1,2]", "[2,1]", False),
        ('{"a":1,"b":2}', '{"b":2,"a":1}', True),
        ('{"a":1}', '{"a":1,"b":null}', False),
        ("null", "null", True),
        ("1e400", "1e400", True),
    ],
)
def test_payloads_compare_as_json_values(expected: str, answered: str, equal: bool) -> None:
    vector = Vector(
        "v", "line", {}, {"kind": "COMPLETED", "payload": expected, "reason": "signal"}, "t"
    )
    verdict = judge(vector, {"id": "v", "kind": "COMPLETED", "payload": answered})
    assert (verdict is None) == equal, verdict


def test_a_wrong_harness_fails_with_each_vector_named(tmp_path: Path) -> None:
    folder = write_vectors(tmp_path, [LINE, OTHER])
    status, out, err = conformance(
        "--vectors",
        str(folder),
        "--",
        *_script("say({'id': vector['id'], 'kind': None, 'payload': None})"),
    )
    assert (status, err) == (1, "")
    assert out.splitlines() == [
        'FAIL one: kind null, expected "COMPLETED"',
        "2 vectors: 1 passed, 1 failed, 0 known failures, 0 listed but passing, 0 unsupported",
    ]


def test_known_failures_pass_only_while_they_fail(tmp_path: Path) -> None:
    folder = write_vectors(tmp_path / "v", [LINE, OTHER])
    wrong = _script("say({'id': vector['id'], 'kind': None, 'payload': None})")
    known = tmp_path / "known.toml"
    known.write_text('["one"]\nreason = "reads no signal"\n', encoding="utf-8")
    status, out, _ = conformance(
        "--vectors", str(folder), "--known-failures", str(known), "--", *wrong
    )
    assert status == 0, out
    assert "KNOWN one:" in out
    status, out, _ = conformance(
        "--vectors", str(folder), "--known-failures", str(known), "--", *PYTHON_HARNESS
    )
    assert status == 1
    assert "FIXED one: listed as a known failure (reads no signal) but passes" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('["nope"]\nreason = "x"\n', "'nope' is no vector id"),
        ('["one"]\n', "'one' needs a reason"),
        ("not toml [", "not TOML"),
        (None, "not a regular file"),
    ],
)
def test_a_bad_known_failures_file_is_one_line(
    tmp_path: Path, content: str | None, message: str
) -> None:
    folder = write_vectors(tmp_path / "v", [LINE])
    known = tmp_path / "known.toml"
    if content is None:
        os.mkfifo(known)
    else:
        known.write_text(content, encoding="utf-8")
    status, out, err = conformance(
        "--vectors", str(folder), "--known-failures", str(known), "--", *PYTHON_HARNESS
    )
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert message in err


@pytest.mark.timeout(60)
def test_a_harness_that_dies_or_hangs_fails_that_vector_and_is_restarted(tmp_path: Path) -> None:
    vectors = [LINE, {**OTHER, "id": "dies"}, {**OTHER, "id": "hangs"}, {**OTHER, "id": "junk"}]
    folder = write_vectors(tmp_path, [*vectors, {**LINE, "id": "last"}])
    body = (
        "if vector['id'] == 'dies': os._exit(3)\n"
        "if vector['id'] == 'hangs': time.sleep(30)\n"
        "if vector['id'] == 'junk': print('not json', flush=True); continue\n"
        "say({'id': vector['id'], **({'kind': None, 'payload': None} if 'plain' == vector['line']"
        " else {'kind': 'COMPLETED', 'payload': '{}'})})"
    )
    status, out, _ = conformance("--timeout", "1", "--vectors", str(folder), "--", *_script(body))
    assert status == 1
    assert out.splitlines() == [
        "FAIL dies: the harness exited (exit 3)",
        "FAIL hangs: no answer within 1 s",
        "FAIL junk: the answer is not one line of JSON: 'not json'",
        "5 vectors: 2 passed, 3 failed, 0 known failures, 0 listed but passing, 0 unsupported",
    ]


@pytest.mark.timeout(60)
def test_a_harness_that_keeps_dying_stops_the_run(tmp_path: Path) -> None:
    folder = write_vectors(
        tmp_path, [{**LINE, "id": f"v{number}"} for number in range(MAX_RESTARTS + 2)]
    )
    status, out, err = conformance("--vectors", str(folder), "--", sys.executable, "-c", "pass")
    assert (status, out) == (2, "")
    assert f"the harness failed {MAX_RESTARTS} vectors in a row" in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--", "no-such-harness-command"], "no-such-harness-command: command not found"),
        ([], "no command given"),
        (["--timeout", "0", "--", "true"], "--timeout must be more than 0"),
        (["--vectors", "/nonexistent", "--", "true"], "--vectors /nonexistent: No such file"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], message: str) -> None:
    status, out, err = conformance(*args)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert message in err


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("{", "not a JSON vector file"),
        ('{"format": "other/1", "vectors": []}', '"format" must be'),
        (
            '{"format": "bernstein-signals-conformance/1", "vectors": {}}',
            '"vectors" must be a list',
        ),
        (
            '{"format": "bernstein-signals-conformance/1", "vectors": [{"id": "a", "type": "x"}]}',
            "type must be one of",
        ),
        (
            '{"format": "bernstein-signals-conformance/1", "vectors": [{"id": "a", "type": "line",'
            ' "expected": {"kind": null, "payload": "{", "reason": "signal"}}]}',
            "'expected' of a line vector must hold",
        ),
        (
            '{"format": "bernstein-signals-conformance/1", "vectors": [{"id": "a",'
            ' "type": "format", "expected": {"error": "made-up"}}]}',
            "'expected' of a format vector must hold",
        ),
    ],
)
def test_a_bad_vector_file_is_one_line(tmp_path: Path, document: str, message: str) -> None:
    (tmp_path / "bad.json").write_text(document, encoding="utf-8")
    status, out, err = conformance("--vectors", str(tmp_path), "--", *PYTHON_HARNESS)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert message in err


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    write_vectors(tmp_path, [LINE], "a.json")
    write_vectors(tmp_path, [LINE], "b.json")
    status, _, err = conformance("--vectors", str(tmp_path), "--", *PYTHON_HARNESS)
    assert status == 2
    assert "vector id 'one' also in" in err


_ANSWERS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    answer=st.fixed_dictionaries(
        {"id": st.sampled_from(["v", "w"])},
        optional=dict.fromkeys(
            ("kind", "payload", "line", "error", "errors", "reply", "kinds", "terminal"), _ANSWERS
        ),
    ),
    kind=st.sampled_from(["line", "format", "payload", "parse-reply", "format-reply", "stream"]),
)
def test_judge_never_raises_on_any_answer(answer: dict[str, Any], kind: str) -> None:
    expectations: dict[str, dict[str, Any]] = {
        "line": {"kind": "COMPLETED", "payload": "{}", "reason": "signal"},
        "format": {"error": "not-json"},
        "payload": {"errors": [{"pointer": "", "rule": "type"}]},
        "parse-reply": {"reply": None},
        "format-reply": {"line": "{}"},
        "stream": {"kinds": [], "terminal": False},
    }
    expected = expectations[kind]
    verdict = judge(Vector("v", kind, {}, expected, "t"), answer)
    assert verdict is None or "\n" not in verdict


@pytest.mark.timeout(60)
def test_per_vector_runs_a_harness_that_reads_all_of_stdin(tmp_path: Path) -> None:
    folder = write_vectors(tmp_path, [OTHER, {**OTHER, "id": "three"}])
    once = [
        sys.executable,
        "-c",
        "import json, sys; vector = json.loads(sys.stdin.read());"
        " print(json.dumps({'id': vector['id'], 'kind': None, 'payload': None}))",
    ]
    status, out, _ = conformance("--per-vector", "--vectors", str(folder), "--", *once)
    assert (status, out.splitlines()[-1]) == (
        0,
        "2 vectors: 2 passed, 0 failed, 0 known failures, 0 listed but passing, 0 unsupported",
    )
    # The same harness waits for the end of stdin forever when it is kept running.
    status, out, _ = conformance("--timeout", "1", "--vectors", str(folder), "--", *once)
    assert status == 1
    assert "FAIL two: no answer within 1 s" in out


def test_stream_diagnostics_are_compared_when_the_answer_gives_them() -> None:
    expected = {"kinds": ["COMPLETED"], "terminal": True, "diagnostics": ["BS301", "BS101"]}
    vector = Vector("s", "stream", {}, expected, "t")
    answer = {"id": "s", "kinds": ["COMPLETED"], "terminal": True}
    assert judge(vector, answer) is None
    assert judge(vector, {**answer, "diagnostics": ["BS301", "BS101"]}) is None
    verdict = judge(vector, {**answer, "diagnostics": ["BS101", "BS301"]})
    assert verdict == 'diagnostics ["BS101", "BS301"], expected ["BS301", "BS101"]'


@pytest.mark.timeout(60)
def test_an_interrupt_reaches_the_harness_and_ends_the_run(tmp_path: Path) -> None:
    folder = write_vectors(tmp_path / "v", [LINE, {**LINE, "id": "two"}])
    started = tmp_path / "started"
    quiet = "import signal; signal.signal(signal.SIGINT, signal.SIG_DFL)"  # no traceback
    body = f"{quiet}\nopen({str(started)!r}, 'w').close()\ntime.sleep(30)"
    runner = subprocess.Popen(
        [*CLI, "--vectors", str(folder), "--", *_script(body)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    runner.send_signal(signal.SIGINT)
    out, err = runner.communicate(timeout=30)
    assert runner.returncode == 128 + signal.SIGINT
    assert out == b""
    assert err.decode().splitlines() == ["bernstein-signals: error: interrupted by SIGINT"]


@pytest.mark.timeout(60)
def test_a_fifo_among_the_vector_files_is_refused_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    status, out, err = conformance("--vectors", str(tmp_path), "--", *PYTHON_HARNESS)
    assert (status, out) == (2, "")
    assert "pipe.json: not a regular file" in err


def test_an_answer_nested_past_the_recursion_limit_fails_without_raising() -> None:
    deep = "[" * 5000 + "]" * 5000
    vector = Vector("v", "line", {}, {"kind": "X", "payload": "[]", "reason": "signal"}, "t")
    verdict = judge(vector, {"id": "v", "kind": "X", "payload": deep})
    assert verdict is not None
    assert verdict.endswith(": not JSON text")
    nested = "[" * (sys.getrecursionlimit() - 60) + "]" * (sys.getrecursionlimit() - 60)
    vector = Vector("v", "line", {}, {"kind": "X", "payload": nested, "reason": "signal"}, "t")
    assert judge(vector, {"id": "v", "kind": "X", "payload": nested}) is None
    other = nested.replace("[]", "[1]")
    verdict = judge(vector, {"id": "v", "kind": "X", "payload": other})
    assert verdict is not None
    assert verdict.endswith(": a different value")
