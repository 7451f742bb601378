"""The validator: log corpus, output formats against their schemas, exit codes, streaming."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import VOCABULARY_VERSION
from bernstein_signals.scanning import scan_lines
from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.tools.validate import CODES, Severity, conformance_report
from bernstein_signals_toolkit.tools.validate.formats import escape_data, escape_property
from bernstein_signals_toolkit.tools.validate.lines import LineChecker
from bernstein_signals_toolkit.tools.validate.report import report_from_binary

ROOT = Path(__file__).resolve().parents[3]
LOGS = ROOT / "tests" / "corpus" / "logs"
OUTPUT_SCHEMA = ROOT / "codegen/bernstein_signals_toolkit/tools/validate/output.schema.json"
SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif-schema-2.1.0.json"
LOG_CASES = sorted(path.stem for path in LOGS.glob("*.log"))


def _expected(name: str) -> tuple[list[str], list[str]]:
    options: list[str] = []
    expected = []
    for line in (LOGS / f"{name}.expected").read_text().splitlines():
        if line.startswith("# options:"):
            options += line.removeprefix("# options:").split()
        elif line.strip():
            expected.append(line.strip())
    # A file an option names (--key-file) is beside the logs, wherever the tests run from.
    options = [
        str(LOGS / value) if flag == "--key-file" else value
        for flag, value in zip(["", *options], options, strict=False)
    ]
    return options, expected


def _validate_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    status = main(["validate", "--format", "json", *args])
    return status, json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------------------
# The log corpus
# ---------------------------------------------------------------------------


def test_every_code_has_a_positive_and_a_negative_log() -> None:
    for code in CODES:
        if code.startswith("BS4"):  # live runs only: tests/tools/commands/test_runtime_commands.py
            continue
        if code.startswith("BS5"):  # shell-helper calls in scripts: tests/tools/lsp/test_lsp.py
            continue
        if code == "BS308":  # needs 10,001 questions: tests/hostile/test_tools_memory.py
            continue
        assert (code, "pos") in {tuple(n.split("__")[:2]) for n in LOG_CASES}, code
        assert (code, "neg") in {tuple(n.split("__")[:2]) for n in LOG_CASES}, code


@pytest.mark.parametrize("name", LOG_CASES)
def test_log_corpus(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    options, expected = _expected(name)
    code, polarity, _ = name.split("__")
    _, document = _validate_json([*options, str(LOGS / f"{name}.log")], capsys)
    found = [
        f"{d['line']}:{d['start_column'] + 1} {d['code']}"
        for d in document["files"][0]["diagnostics"]
    ]
    assert found == expected
    codes = {entry.split()[1] for entry in found}
    assert (code in codes) is (polarity == "pos")


@pytest.mark.parametrize("name", LOG_CASES)
def test_api_and_cli_agree_on_the_corpus(name: str) -> None:
    """conformance_report over str lines gives what the binary scanner gives."""
    options, _ = _expected(name)
    at = options.index("--max-line-bytes") + 1 if "--max-line-bytes" in options else 0
    limit = int(options[at]) if at else 1 << 20
    data = (LOGS / f"{name}.log").read_bytes()
    from_binary = report_from_binary(io.BytesIO(data), max_line_bytes=limit)
    from_lines = conformance_report(io.BytesIO(data).readlines(), max_line_bytes=limit)
    assert from_lines.to_dict() == from_binary.to_dict()


# ---------------------------------------------------------------------------
# Columns, messages, suggestions
# ---------------------------------------------------------------------------


def test_payload_errors_point_at_the_value() -> None:
    line = 'BERNSTEIN:QUESTION {"id":"q-1","options":["é","é"],"question":""}'
    _, diagnostics = LineChecker().check(line, 7)
    spans = {d.pointer: line[d.start : d.end] for d in diagnostics}
    assert spans == {"/options": '["é","é"]', "/question": '""'}
    assert all(d.line == 7 and d.code == "BS101" for d in diagnostics)
    assert all("QUESTION" in d.message for d in diagnostics)
    assert any("[uniqueItems]" in d.message for d in diagnostics)


@pytest.mark.parametrize(
    ("line", "replacement"),
    [
        ("bernstein:COMPLETED", "BERNSTEIN:COMPLETED"),
        ('BERNSTEIN:Question {"question":"x"}', 'BERNSTEIN:QUESTION {"question":"x"}'),
        ("BERNSTEIN:COMPLET", "BERNSTEIN:COMPLETED"),
        ("BERNSTEIN:COMPLETED{}", "BERNSTEIN:COMPLETED {}"),
        ('BERNSTEIN:FAILED \t { "reason": "x" }  ', 'BERNSTEIN:FAILED { "reason": "x" }'),
        ("INFO: BERNSTEIN:COMPLETED", "BERNSTEIN:COMPLETED"),
        ('BERNSTEIN:FAILED {\r"reason":"x"}', 'BERNSTEIN:FAILED {"reason":"x"}'),
        ("BERNSTEIN:ZZZZZZ", None),
        ('BERNSTEIN:FAILED {"reason":"x"} trailing', None),
    ],
)
def test_suggested_replacements(line: str, replacement: str | None) -> None:
    signal, diagnostics = LineChecker().check(line, 1)
    assert signal is None
    assert diagnostics
    assert {d.replacement for d in diagnostics} == {replacement}


def test_lenient_mode_accepts_stray_whitespace_as_information() -> None:
    line = '  BERNSTEIN:FAILED   {"reason":"x"}  '
    strict_signal, strict = LineChecker().check(line, 1)
    lenient_signal, lenient = LineChecker(lenient=True).check(line, 1)
    assert strict_signal is None
    assert {d.severity for d in strict} == {Severity.WARNING}
    assert lenient_signal is not None
    assert lenient_signal.payload == {"reason": "x"}
    assert {d.code for d in lenient} == {"BS206", "BS208"}
    assert {d.severity for d in lenient} == {Severity.INFORMATION}


def test_prose_mentioning_the_name_is_quiet() -> None:
    for line in ["Leonard Bernstein wrote it", "see bernstein: the docs", "BERNSTEINIAN"]:
        assert LineChecker().check(line, 1) == (None, [])


# ---------------------------------------------------------------------------
# Outputs and their schemas
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mixed_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "run: 1, ünïcode.log"
    path.write_bytes(b"".join((LOGS / f"{name}.log").read_bytes() for name in LOG_CASES[:40]))
    return path


def test_json_output_and_to_dict_match_the_published_schema(
    mixed_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = json.loads(OUTPUT_SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    status, document = _validate_json([str(mixed_log)], capsys)
    assert status == 1
    jsonschema.Draft202012Validator(schema).validate(document)
    report = conformance_report(mixed_log.read_bytes().split(b"\n"), run_id="r1")
    report_schema = {**schema, "$ref": "#/$defs/report"}
    for key in ("required", "properties", "additionalProperties", "type"):
        report_schema.pop(key)
    jsonschema.Draft202012Validator(report_schema).validate(report.to_dict())
    assert json.loads(json.dumps(report.to_dict())) == report.to_dict()


def test_sarif_output_validates_against_the_oasis_schema(
    mixed_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "--format", "sarif", str(mixed_log)]) == 1
    document = json.loads(capsys.readouterr().out)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(document)
    run = document["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == sorted(CODES)
    assert run["results"]
    assert any("fixes" in result for result in run["results"])
    for result in run["results"]:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"][0]["physicalLocation"]["region"]["startColumn"] >= 1


def test_text_output_is_compiler_style(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "out.log"
    log.write_text("héllo\nBERNSTEIN:COMPLET\n")
    assert main(["validate", str(log)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        f"{log}:2:1: warning[BS301] MissingTerminalSignal: run {log} emitted no terminal"
        " signal (COMPLETED or FAILED)",
        f"{log}:2:11: warning[BS216] unknown kind 'COMPLET'; did you mean 'COMPLETED'?"
        f" (vocabulary {VOCABULARY_VERSION} knows BLOCKED, COMPLETED, FAILED, PLAN_DRAFT,"
        " PLAN_READY, QUESTION); readers of this vocabulary treat the line as plain output",
        "    suggestion: BERNSTEIN:COMPLETED",
    ]
    assert "\033[" not in captured.out
    assert "1 file(s), 0 signal(s): 0 error(s), 2 warning(s)" in captured.err
    assert main(["validate", "--color", "always", str(log)]) == 0
    assert "\033[1;33mwarning" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("value", "data", "prop"),
    [
        ("plain", "plain", "plain"),
        ("100% done", "100%25 done", "100%25 done"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("x: y, z", "x: y, z", "x%3A y%2C z"),
        ("%0A", "%250A", "%250A"),
    ],
)
def test_github_escaping_matches_actions_core(value: str, data: str, prop: str) -> None:
    assert escape_data(value) == data
    assert escape_property(value) == prop


def test_github_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "a,b:c.log"
    log.write_text('BERNSTEIN:QUESTION {"question":""}\n')
    assert main(["validate", "--format", "github", str(log)]) == 1
    first, second = capsys.readouterr().out.splitlines()
    escaped = str(log).replace(":", "%3A").replace(",", "%2C")
    assert first.startswith(f"::warning file={escaped},line=1,col=1,")
    assert f"run {log} emitted no terminal" in first
    assert second.startswith(
        f"::error file={escaped},line=1,col=32,endColumn=34,title=BS101 payload-schema::QUESTION"
    )


# ---------------------------------------------------------------------------
# Options and exit codes
# ---------------------------------------------------------------------------


def _cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "bernstein_signals_toolkit.cli", "validate", *args],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=120,
    )


def test_exit_codes_strict_select_ignore() -> None:
    warning_only = b"BERNSTEIN:COMPLETE\nBERNSTEIN:COMPLETED\n"
    assert _cli("-", stdin=warning_only).returncode == 0
    assert _cli("--strict", stdin=warning_only).returncode == 1
    ignored = _cli("--strict", "--ignore", "kind-not-in-vocabulary", stdin=warning_only)
    assert ignored.returncode == 0
    assert _cli("--strict", "--unknown-kinds", "ignore", stdin=warning_only).returncode == 0
    assert _cli("--unknown-kinds", "error", stdin=warning_only).returncode == 1
    assert _cli("--strict", "--select", "BS1,BS3", stdin=warning_only).returncode == 0
    error = b'BERNSTEIN:BLOCKED {"reason":""}\nBERNSTEIN:COMPLETED\n'
    assert _cli(stdin=error).returncode == 1
    assert _cli("--ignore", "BS101", stdin=error).returncode == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/nonexistent/file.log"], "/nonexistent/file.log: cannot read: No such file"),
        (["--select", "BS9"], "unknown code or prefix 'BS9'"),
        (["--explain", "BS999"], "unknown code 'BS999'"),
        (["--payload", "NOPE", "-"], "unknown kind 'NOPE'"),
        (["--max-line-bytes", "0"], "--max-line-bytes must be between"),
        (["-", "-"], "stdin (-) can be read only once"),
        (["--format", "xml"], "invalid choice: 'xml'"),
    ],
)
def test_usage_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    result = _cli(*args)
    assert result.returncode == 2
    assert result.stdout == b""
    err = result.stderr.decode()
    assert err.count("\n") == 1, err
    assert message in err
    assert "Traceback" not in err


def test_no_partial_output_when_a_later_file_is_missing(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text("BERNSTEIN:COMPLETE\n")
    result = _cli(str(log), str(tmp_path / "missing.log"))
    assert result.returncode == 2
    assert result.stdout == b""


@pytest.mark.parametrize("code", sorted(CODES))
def test_explain_every_code(code: str) -> None:
    result = _cli("--explain", code.lower())
    assert result.returncode == 0
    text = result.stdout.decode()
    assert text.startswith(f"{code} {CODES[code].name} ({CODES[code].severity.value})")
    assert CODES[code].explanation in text


def test_payload_mode(tmp_path: Path) -> None:
    payload = tmp_path / "q.json"
    payload.write_text('{\n  "question": "",\n  "options": []\n}\n')
    result = _cli("--payload", "question", "--format", "json", str(payload))
    assert result.returncode == 1
    diagnostics = json.loads(result.stdout)["files"][0]["diagnostics"]
    assert [(d["line"], d["start_column"], d["pointer"]) for d in diagnostics] == [
        (2, 14, "/question"),
        (3, 13, "/options"),
    ]
    assert _cli("--payload", "COMPLETED", "-", stdin=b"{}").returncode == 0
    assert _cli("--payload", "COMPLETED", "-", stdin=b"[]").returncode == 1


# ---------------------------------------------------------------------------
# Streaming: constant memory, any chunking, any bytes
# ---------------------------------------------------------------------------


class _Chunked(io.RawIOBase):
    """A binary stream that returns data in the given chunk sizes, cycling."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self._data = data
        self._sizes = sizes or [len(data) or 1]
        self._pos = 0
        self._turn = 0

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        step = self._sizes[self._turn % len(self._sizes)]
        self._turn += 1
        chunk = self._data[self._pos : self._pos + step]
        self._pos += len(chunk)
        return chunk

    read = read1


def _reference_lines(data: bytes, needle: bytes, limit: int) -> list[tuple[int, bytes, int]]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    found = []
    for number, line in enumerate(lines, 1):
        # The terminator ("\n" or "\r\n") does not count toward the bound (issue 10 item 15).
        terminated = number < len(lines) or data.endswith(b"\n")
        bare = line[:-1] if terminated and line.endswith(b"\r") else line
        if len(bare) > limit:
            found.append((number, b"", len(bare)))
        elif needle in line.lower():
            found.append((number, bare, 0))
    return found


@settings(max_examples=300)
@given(
    pieces=st.lists(
        st.sampled_from([b"x", b"\n", b"\r\n", b"BERNSTEIN:", b"bernstein", b"\xff", b"yy" * 9]),
        max_size=60,
    ),
    sizes=st.lists(st.integers(min_value=1, max_value=23), max_size=5),
    limit=st.integers(min_value=1, max_value=30),
)
def test_scanner_matches_a_line_split_at_any_chunking(
    pieces: list[bytes], sizes: list[int], limit: int
) -> None:
    data = b"".join(pieces)
    scanned = [
        tuple(s)
        for s in scan_lines(
            _Chunked(data, sizes), b"bernstein", fold_case=True, max_line_bytes=limit
        )
    ]
    assert scanned == _reference_lines(data, b"bernstein", limit)


@settings(max_examples=200)
@given(st.binary(max_size=300) | st.text(max_size=200).map(lambda s: s.encode("utf-8", "replace")))
def test_any_bytes_never_crash_and_both_paths_agree(data: bytes) -> None:
    data = data.replace(b"Z", b"BERNSTEIN:").replace(b"Q", b" {")
    from_binary = report_from_binary(io.BytesIO(data))
    from_lines = conformance_report(io.BytesIO(data).readlines())
    assert from_binary.to_dict() == from_lines.to_dict()


def _huge_stream(megabytes: int) -> Iterator[bytes]:
    yield b'BERNSTEIN:PLAN_DRAFT {"markdown":"' + b"a" * (megabytes << 20) + b'"}\n'


def test_ten_megabyte_line_is_skipped_in_constant_memory() -> None:
    chunk = b"y" * (1 << 20)
    stream = _Chunked(b"BERNSTEIN:COMPLETED\n" + chunk * 10 + b"\nBERNSTEIN:COMPLETED\n", [1 << 16])
    tracemalloc.start()
    report = report_from_binary(stream, max_line_bytes=1 << 20)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    codes = [(d.line, d.code) for d in report.diagnostics]
    assert codes == [(2, "BS002"), (3, "BS303")]
    assert report.lines == 3
    # The stream itself holds 10 MiB; the scanner may add about one line bound.
    assert peak < 4 << 20, peak


def test_stdin_is_read_as_bytes() -> None:
    noise = bytes(range(256)).replace(b"\n", b"")
    result = _cli(stdin=b"\xff\xfeBERNSTEIN:COMPLETED\n" + noise)
    assert result.returncode == 0
    assert b"BS214" in result.stdout or b"BS001" in result.stdout


def test_check_options_and_keywords_are_one_set() -> None:
    """The entry points take CheckOptions or its fields as keywords, with the same result;
    a keyword that is no option is a TypeError, as for any function.
    """
    from bernstein_signals_toolkit.tools.validate.check_options import CheckOptions

    lines = ["BERNSTEIN:COMPLETED  {}", "BERNSTEIN:COMPLETED\t{}", "BERNSTEIN:FAILED"]
    keywords = conformance_report(lines, lenient=True, run_id="r", enabled=frozenset({"BS206"}))
    options = CheckOptions(lenient=True, run_id="r", enabled=frozenset({"BS206"}))
    assert conformance_report(lines, options).to_dict() == keywords.to_dict()
    over = conformance_report(lines, options, lenient=False)
    assert [d.severity for d in over.diagnostics] == [Severity.WARNING]
    assert [d.severity for d in keywords.diagnostics] == [Severity.INFORMATION]
    with pytest.raises(TypeError):
        conformance_report(lines, lenients=True)
    data = "\n".join(lines).encode()
    binary = report_from_binary(io.BytesIO(data), options)
    assert binary.to_dict() == keywords.to_dict()
