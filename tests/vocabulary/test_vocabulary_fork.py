"""A fork's vocabulary at run time: every command with --vocabulary DIR, through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bernstein_signals as bs
from bernstein_signals_toolkit.generator.sources import packaged_sources
from bernstein_signals_toolkit.toolkit_errors import ToolkitError
from bernstein_signals_toolkit.tools.lsp import assist
from bernstein_signals_toolkit.tools.runtime_vocabulary import built_in, compile_folder
from bernstein_signals_toolkit.tools.validate import conformance_report
from vocabulary.vocabulary_support import FORK_VERSION, make_fork

CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]
GOOD = 'BERNSTEIN:PROGRESS {"percent":40}'
BAD = 'BERNSTEIN:PROGRESS {"percent":140}'


def _run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        input=stdin.decode(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _log(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "run.log"
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def test_validate(fork: Path, tmp_path: Path) -> None:
    good = _log(tmp_path, GOOD, "BERNSTEIN:COMPLETED")
    result = _run("validate", "--vocabulary", str(fork), "--strict", good)
    assert (result.returncode, result.stdout) == (0, "")
    bad = _log(tmp_path, BAD, "BERNSTEIN:COMPLETED")
    result = _run("validate", "--vocabulary", str(fork), "--format", "json", bad)
    assert result.returncode == 1
    (report,) = json.loads(result.stdout)["files"]
    assert report["counts"]["PROGRESS"] == 1
    (diagnostic,) = report["diagnostics"]
    assert diagnostic["code"] == "BS101"
    assert "/percent" in diagnostic["message"]
    assert "[maximum]" in diagnostic["message"]
    # The built-in vocabulary does not know PROGRESS: BS216, a warning, no schema verdict.
    result = _run("validate", good)
    assert result.returncode == 0
    assert "warning[BS216] unknown kind 'PROGRESS'" in result.stdout
    payload = _run(
        "validate", "--vocabulary", str(fork), "--payload", "progress", "-", stdin=b'{"percent":-1}'
    )
    assert payload.returncode == 1
    assert "[minimum]" in payload.stdout


def test_emit(fork: Path) -> None:
    result = _run("emit", "--vocabulary", str(fork), "PROGRESS", "percent:=40")
    assert (result.returncode, result.stdout, result.stderr) == (0, GOOD + "\n", "")
    # KIND is written as the grammar has it; the suggestion comes from the fork's kinds
    result = _run("emit", "--vocabulary", str(fork), "progress", "percent:=40")
    assert (result.returncode, result.stdout) == (2, "")
    assert "did you mean PROGRESS?" in result.stderr
    result = _run("emit", "--vocabulary", str(fork), "PROGRESS", "percent:=140")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "must be at most 100" in result.stderr
    result = _run("emit", "PROGRESS", "percent:=40")
    assert result.returncode == 2
    assert "unknown kind 'PROGRESS'" in result.stderr


def test_parse(fork: Path, tmp_path: Path) -> None:
    log = _log(tmp_path, "plain", GOOD, "BERNSTEIN:COMPLETED")
    result = _run("parse", "--vocabulary", str(fork), log)
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["kind"], r["payload"]) for r in records] == [
        (2, "PROGRESS", {"percent": 40}),
        (3, "COMPLETED", {}),
    ]
    events = _run("parse", "--vocabulary", str(fork), "--format", "cloudevents", log).stdout
    assert json.loads(events.splitlines()[0])["type"] == "dev.bernstein.signal.progress"
    assert [json.loads(line)["kind"] for line in _run("parse", log).stdout.splitlines()] == [
        "COMPLETED"
    ]


def test_conform_and_wrap(fork: Path) -> None:
    adapter = f"printf '%s\\n' '{GOOD}' '{BAD}'"
    result = _run(
        "conform", "--vocabulary", str(fork), "--format", "json", "--", "sh", "-c", adapter
    )
    assert result.returncode == 1
    (report,) = json.loads(result.stdout)["files"]
    assert report["counts"]["PROGRESS"] == 2
    assert sorted(d["code"] for d in report["diagnostics"]) == ["BS101", "BS301"]
    result = _run(
        "conform",
        "--vocabulary",
        str(fork),
        "--",
        "sh",
        "-c",
        f"echo '{GOOD}'; echo BERNSTEIN:COMPLETED",
    )
    assert result.returncode == 0
    assert "BS216" not in result.stdout
    wrapped = _run("wrap", "--vocabulary", str(fork), "--", "sh", "-c", f"echo '{GOOD}'")
    # wrap stamps its line with the version of the vocabulary it runs with: the fork's.
    stamped = f'BERNSTEIN:COMPLETED {{"vocabulary":"{FORK_VERSION}"}}'
    assert (wrapped.returncode, wrapped.stdout) == (0, f"{GOOD}\n{stamped}\n")
    ended = _run(
        "wrap", "--vocabulary", str(fork), "--", "sh", "-c", f"echo '{GOOD}'; echo BERNSTEIN:FAILED"
    )
    assert ended.stdout == f"{GOOD}\nBERNSTEIN:FAILED\n"


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "-"],
        ["emit", "COMPLETED"],
        ["parse", "-"],
        ["conform", "--", "true"],
        ["wrap", "--", "true"],
        ["lsp"],
    ],
)
@pytest.mark.parametrize("breakage", ["missing", "not-json", "no-terminal", "refused-keyword"])
def test_a_bad_folder_is_one_line_and_exit_2(
    command: list[str], breakage: str, tmp_path: Path
) -> None:
    folder = make_fork(tmp_path) if breakage != "missing" else tmp_path / "nowhere"
    if breakage == "not-json":
        (folder / "progress.schema.json").write_text("{")
    elif breakage == "no-terminal":
        for name in ("completed", "failed"):
            (folder / f"{name}.schema.json").unlink()
    elif breakage == "refused-keyword":
        schema = json.loads((folder / "progress.schema.json").read_text())
        schema["unevaluatedProperties"] = False
        (folder / "progress.schema.json").write_text(json.dumps(schema))
    name, *rest = command
    result = _run(name, "--vocabulary", str(folder), *rest)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("bernstein-signals: error: ")
    assert "Traceback" not in result.stderr


def test_compiled_once_per_content_and_isolated(tmp_path: Path) -> None:
    folder = make_fork(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    first = compile_folder(folder)
    assert compile_folder(str(folder)) is first
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # no writes
    assert first.knows("PROGRESS")
    assert first.version == FORK_VERSION
    assert not built_in().knows("PROGRESS")
    assert bs.parse_signal(GOOD) is None  # the installed binding is untouched
    schema = json.loads((folder / "progress.schema.json").read_text())
    schema["properties"]["percent"]["maximum"] = 50
    (folder / "progress.schema.json").write_text(json.dumps(schema))
    second = compile_folder(folder)
    assert second is not first
    assert second.digest != first.digest
    assert second.validate_payload("PROGRESS", {"percent": 60})
    assert not first.validate_payload("PROGRESS", {"percent": 60})


def test_the_built_in_vocabulary_compiles_to_the_same_verdicts() -> None:
    """One code path: the shipped schema folder, compiled, judges lines as the binding does."""
    compiled = compile_folder(packaged_sources().schema_dir)
    shipped = built_in()
    assert (compiled.kinds, compiled.terminal_kinds, compiled.prefix, compiled.version) == (
        shipped.kinds,
        shipped.terminal_kinds,
        shipped.prefix,
        shipped.version,
    )
    corpus = Path(__file__).resolve().parents[1] / "corpus" / "lines"
    for case in sorted(corpus.glob("*.line")):
        line = case.read_bytes().decode("utf-8", "replace").rstrip("\r\n")
        ours = conformance_report([line], vocabulary=compiled).to_dict()
        theirs = conformance_report([line], vocabulary=shipped).to_dict()
        for report in (ours, theirs):  # BS216's message names the folder
            for diagnostic in report["diagnostics"]:
                diagnostic["message"] = diagnostic["message"].replace(
                    f" from {compiled.origin}", ""
                )
        assert ours == theirs, case.name


def test_a_grammar_beside_the_folder_is_used(tmp_path: Path) -> None:
    folder = make_fork(tmp_path)
    grammar = (
        (packaged_sources().grammar).read_text().replace('PREFIX: "BERNSTEIN:"', 'PREFIX: "FORK:"')
    )
    (tmp_path / "grammar").mkdir()
    (tmp_path / "grammar" / "signal.lark").write_text(grammar)
    vocabulary = compile_folder(folder)
    assert vocabulary.prefix == "FORK:"
    report = conformance_report(
        ['FORK:PROGRESS {"percent":140}', "fork:COMPLETED", "FORK:COMPLETED"], vocabulary=vocabulary
    )
    assert [(d.line, d.code) for d in report.diagnostics] == [(1, "BS101"), (2, "BS201")]
    assert report.signal_count == 2
    found = assist.hover("FORK:PROGRESS", 0, 7, shell=False, vocabulary=vocabulary)
    assert found is not None
    assert "How far the run has got" in found.markdown
    typed = assist.completions("FORK:PRO", 0, 8, shell=False, vocabulary=vocabulary)
    assert "PROGRESS" in {item.label for item in typed}
    assert assist.hover("BERNSTEIN:PROGRESS", 0, 12, shell=False, vocabulary=vocabulary) is None


def test_unreadable_folder_is_a_toolkit_error(tmp_path: Path) -> None:
    with pytest.raises(ToolkitError, match="not a schema folder"):
        compile_folder(tmp_path / "nowhere")


def test_odd_entries_in_the_folder_are_never_opened(tmp_path: Path) -> None:
    folder = make_fork(tmp_path)
    os.mkfifo(folder / "pipe.schema")  # would block a reader forever
    (folder / "zero").symlink_to("/dev/zero")  # would never end
    name = os.fsencode(folder) + b"/\xff.schema.json"
    with open(name, "wb") as handle:
        handle.write(b"{")
    result = _run("validate", "--vocabulary", str(folder), "-")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    (folder / "vocabulary.json").unlink()
    (folder / "vocabulary.json").symlink_to("/dev/zero")
    result = _run("validate", "--vocabulary", str(folder), "-")
    assert result.returncode == 2
    assert "vocabulary.json is not a regular file" in result.stderr


def test_a_folder_name_with_a_line_break_or_bad_bytes_stays_in_one_line(tmp_path: Path) -> None:
    root = os.path.join(os.fsencode(tmp_path), b"a\nb\xff")
    os.mkdir(root)
    folder = make_fork(Path(os.fsdecode(root)))
    result = subprocess.run(
        [*CLI, "validate", "--vocabulary", os.fsencode(folder), "-"],
        input=b"BERNSTEIN:NOPE {}\nBERNSTEIN:COMPLETED\n",
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0
    (line,) = result.stdout.decode().splitlines()
    assert "BS216" in line
    assert "a\\x0ab\\xff" in line


def test_the_cache_keeps_the_latest_few_compiled_vocabularies(tmp_path: Path) -> None:
    from bernstein_signals_toolkit.tools import runtime_vocabulary

    folder = make_fork(tmp_path)
    schema = json.loads((folder / "progress.schema.json").read_text())
    seen = []
    for maximum in range(50, 50 + runtime_vocabulary.MAX_COMPILED + 3):
        schema["properties"]["percent"]["maximum"] = maximum
        (folder / "progress.schema.json").write_text(json.dumps(schema))
        vocabulary = compile_folder(folder)
        assert vocabulary.validate_payload("PROGRESS", {"percent": maximum}) == []
        assert vocabulary.validate_payload("PROGRESS", {"percent": maximum + 1}) != []
        seen.append(vocabulary.digest[:32])
    packages = {
        name.partition(".")[0] for name in sys.modules if name.startswith("_bernstein_vocabulary_")
    }
    assert len(packages) <= runtime_vocabulary.MAX_COMPILED
    assert seen[-1] in {package.removeprefix("_bernstein_vocabulary_") for package in packages}
    assert seen[0] not in {package.removeprefix("_bernstein_vocabulary_") for package in packages}


def test_wrap_refuses_a_vocabulary_it_cannot_end_a_run_in(tmp_path: Path) -> None:
    folder = make_fork(tmp_path)
    failed = json.loads((folder / "failed.schema.json").read_text())
    failed["required"] = ["reason", "code"]
    failed["properties"]["code"] = {"type": "integer", "description": "Exit code."}
    failed["examples"] = [{"reason": "exit 1", "code": 1}]
    (folder / "failed.schema.json").write_text(json.dumps(failed))
    marker = tmp_path / "ran"
    result = _run("wrap", "--vocabulary", str(folder), "--", "touch", str(marker))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "wrap ends runs with COMPLETED and FAILED" in result.stderr
    assert not marker.exists()


def test_parse_includes_unknown_kinds_on_request(fork: Path, tmp_path: Path) -> None:
    import jsonschema

    from bernstein_signals_toolkit.tools.commands.parse import RECORD_SCHEMA

    log = _log(tmp_path, GOOD, "BERNSTEIN:NEWER_KIND", "BERNSTEIN:COMPLETED")
    validator = jsonschema.Draft202012Validator(json.loads(RECORD_SCHEMA.read_text()))
    for vocabulary, expected in [
        ([], [("PROGRESS", True), ("NEWER_KIND", True), ("COMPLETED", False)]),
        (
            ["--vocabulary", str(fork)],
            [("PROGRESS", False), ("NEWER_KIND", True), ("COMPLETED", False)],
        ),
    ]:
        result = _run("parse", "--unknown-kinds", "include", *vocabulary, log)
        records = [json.loads(line) for line in result.stdout.splitlines()]
        for record in records:
            validator.validate(record)
        assert [(r["kind"], r.get("unknown_kind", False)) for r in records] == expected
        skipped = _run("parse", *vocabulary, log).stdout.splitlines()
        assert [json.loads(line)["kind"] for line in skipped] == [
            kind for kind, unknown in expected if not unknown
        ]


def _marked(key: bs.SignalKey, seq: int, kind: str, payload: str) -> str:
    """A line marked by hand (the MAC over the canonical payload text), as a fork's binding
    writes it: the built-in marker refuses a kind it does not know."""
    mac = key.mac(str(seq), kind, payload)
    member = f'"_sig":"{key.run}.{seq}.{mac}"'
    return f"BERNSTEIN:{kind} {{{member}{',' + payload[1:] if payload else '}'}"


def test_a_fork_fences_lines_by_its_own_kinds(fork: Path) -> None:
    """Issue 23 item 6: the toolkit's fence judges each line with check(), and a fork's
    check is the fork's: a PROGRESS line its adapter marked counts under the key, where
    the built-in fence sees no signal at all."""
    vocabulary = compile_folder(fork)
    key = bs.SignalKey.generate()
    progress = _marked(key, 1, "PROGRESS", '{"percent":40}')
    completed = _marked(key, 2, "COMPLETED", "")
    assert vocabulary.fence_verifier(key).check(progress).signal is not None
    assert built_in().fence_verifier(key).check(progress) == (None, None, None, None, None)
    report = conformance_report(
        [progress, f"  {completed}", completed, GOOD], vocabulary=vocabulary, key=key
    )
    assert [(seen.line, seen.signal.kind) for seen in report.signals] == [
        (1, "PROGRESS"),
        (3, "COMPLETED"),
    ]
    refused = [(d.line, d.code) for d in report.diagnostics if d.code.startswith("BS6")]
    assert refused == [(4, "BS601")]  # the padded line 2 is no signal line: never fenced
    only = conformance_report(
        [progress, completed], vocabulary=vocabulary, allow_kinds=["COMPLETED"]
    )
    assert [(d.line, d.code) for d in only.diagnostics] == [(1, "BS603")]
