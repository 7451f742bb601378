"""The CLI fence for every vocabulary ``--vocabulary`` accepts, and its key in no output (issue 23).

Each test runs for the built-in vocabulary and for a fork whose grammar says
``PREFIX: "ACME:"`` and whose schemas add PROGRESS: ``validate --key-file``,
``wrap --fence``, ``conform --fence`` and ``--allow-kinds`` must judge a fork's
lines with the fork's own fence (the built-in one rebuilds every line with
``BERNSTEIN:`` and refuses it). The adapter (tests/adapters/fence_vocabulary_adapter.py)
marks its lines by the spec's rule, with no binding's marker, so the toolkit's
verdict is checked against an independent writer.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals import SignalKey
from bernstein_signals.fence_rules import KEY_VARIABLE, UNAUTHENTICATED_PREFIX
from bernstein_signals_toolkit.generator.sources import packaged_sources
from bernstein_signals_toolkit.tools.key_mask import KEY_LEAKED, KEY_MASK
from bernstein_signals_toolkit.tools.runtime_vocabulary import (
    RuntimeVocabulary,
    built_in,
    compile_folder,
)
from bernstein_signals_toolkit.tools.validate import conformance_report
from shell_support import SHELLS, shell_command
from typescript.node_support import node as node_command
from vocabulary.vocabulary_support import make_fork

ROOT = Path(__file__).resolve().parents[3]
TOOLKIT = ROOT / "codegen" / "bernstein_signals_toolkit"
ADAPTER = ROOT / "tests" / "adapters" / "fence_vocabulary_adapter.py"
CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]
KEY = SignalKey.parse(
    "a11ce0a11ce0a11c:c9b3b002332c88704de090a77890bdb22895d89397344af27f946b48609141d0"
)
"""Its secret starts with a letter: the ``\\u`` escape of it does not end with it."""
SECRET = KEY.text().partition(":")[2]
_DRIVER = (
    "import sys\n"
    "from unittest import mock\n"
    "from bernstein_signals import SignalKey\n"
    "from bernstein_signals_toolkit.cli import main\n"
    "key = SignalKey.parse(sys.argv[1])\n"
    "mock.patch.object(SignalKey, 'generate', return_value=key).start()\n"
    "sys.exit(main(sys.argv[2:]))\n"
)
"""The CLI with the run's key fixed to :data:`KEY`, so a test can look for it."""


@dataclass(frozen=True)
class Case:
    """One vocabulary: how the command line names it, its prefix, a kind of its own."""

    name: str
    options: tuple[str, ...]
    vocabulary: RuntimeVocabulary
    kind: str
    """Non-terminal; the fork's is one the built-in binding does not know."""
    payload: dict[str, Any]

    @property
    def prefix(self) -> str:
        return self.vocabulary.prefix


@pytest.fixture(scope="module", params=["built-in", "acme-fork"])
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Case:
    if request.param == "built-in":
        return Case("built-in", (), built_in(), "BLOCKED", {"reason": "waiting"})
    root = tmp_path_factory.mktemp("acme")
    folder = make_fork(root)
    grammar = packaged_sources().grammar.read_text(encoding="utf-8")
    assert 'PREFIX: "BERNSTEIN:"' in grammar
    (root / "grammar").mkdir()
    (root / "grammar" / "signal.lark").write_text(
        grammar.replace('PREFIX: "BERNSTEIN:"', 'PREFIX: "ACME:"'), encoding="utf-8"
    )
    vocabulary = compile_folder(folder)
    assert vocabulary.prefix == "ACME:"
    return Case("acme-fork", ("--vocabulary", str(folder)), vocabulary, "PROGRESS", {"percent": 40})


def _adapter(lines: list[list[Any]], status: int = 0, *, prefix: str) -> list[str]:
    program = {"prefix": prefix, "lines": lines, "exit": status}
    return [sys.executable, str(ADAPTER), json.dumps(program)]


def _cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", _DRIVER, KEY.text(), *args],
        input=b"",
        capture_output=True,
        cwd=cwd,
        env=env,
        check=False,
        timeout=120,
    )


def _recorded(tmp_path: Path, lines: list[list[Any]], *, prefix: str) -> tuple[Path, Path]:
    """The adapter's stdout as a fenced run with :data:`KEY` records it, and the key file."""
    result = subprocess.run(
        _adapter(lines, prefix=prefix),
        input=b"",
        capture_output=True,
        env={**os.environ, KEY_VARIABLE: KEY.text()},
        check=True,
        timeout=60,
    )
    log, key_file = tmp_path / "run.log", tmp_path / "run.key"
    log.write_bytes(result.stdout)
    key_file.write_text(KEY.text() + "\n", encoding="ascii")
    return log, key_file


def _refusals(report: dict[str, Any]) -> list[tuple[int, str]]:
    return [(d["line"], d["code"]) for d in report["diagnostics"] if d["code"] >= "BS6"]


def _kinds(report: dict[str, Any]) -> list[tuple[int, str]]:
    return [(s["line"], s["kind"]) for s in report["signals"]]


# ---------------------------------------------------------------------------
# Item 2: the fence of the vocabulary in use
# ---------------------------------------------------------------------------


@pytest.mark.timeout(180)
def test_validate_key_file_and_allow_kinds_take_the_vocabularys_marked_lines(
    case: Case, tmp_path: Path
) -> None:
    lines: list[list[Any]] = [
        ["mark", case.kind, case.payload],
        ["raw", f"{case.prefix}COMPLETED"],  # forged: not marked
        ["mark", "COMPLETED", {}],
    ]
    log, key_file = _recorded(tmp_path, lines, prefix=case.prefix)
    assert log.read_text().startswith(f"{case.prefix}{case.kind} ")
    allowed = f"{case.kind.lower()},COMPLETED"  # a kind in any case, as on the command line
    for extra, refused in (
        ((), [(2, "BS601")]),
        (("--allow-kinds", allowed), [(2, "BS601")]),
        (("--allow-kinds", "COMPLETED"), [(1, "BS603"), (2, "BS601")]),
    ):
        args = ["validate", *case.options, "--key-file", str(key_file), *extra]
        result = _cli(*args, "--format", "json", str(log), cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        (report,) = json.loads(result.stdout)["files"]
        assert _refusals(report) == refused, extra
        accepted = [(3, "COMPLETED")] if refused[0][0] == 1 else [(1, case.kind), (3, "COMPLETED")]
        assert _kinds(report) == accepted, extra
        assert all("_sig" not in s["payload"] for s in report["signals"])
    # The toolkit's own reading agrees, in process.
    report_in_process = conformance_report(
        log.read_text().splitlines(), vocabulary=case.vocabulary, key=KEY
    )
    assert [str(s.signal.kind) for s in report_in_process.signals] == [case.kind, "COMPLETED"]


@pytest.mark.timeout(180)
def test_wrap_fence_and_allow_kinds_relay_the_vocabularys_marked_lines(
    case: Case, tmp_path: Path
) -> None:
    lines: list[list[Any]] = [
        ["mark", case.kind, case.payload],
        ["raw", f"{case.prefix}COMPLETED"],  # forged
        ["mark", "PLAN_DRAFT", {"markdown": "# plan"}],  # marked, but not allowed
    ]
    allowed = f"{case.kind},COMPLETED,FAILED"
    wrap = ["wrap", "--fence", *case.options, "--allow-kinds", allowed, "--"]
    result = _cli(*wrap, *_adapter(lines, 3, prefix=case.prefix), cwd=tmp_path)
    assert result.returncode == 3, result.stderr
    out = result.stdout.decode().splitlines()
    assert out[1] == f"{UNAUTHENTICATED_PREFIX}{case.prefix}COMPLETED"
    assert out[2].startswith(f"{UNAUTHENTICATED_PREFIX}{case.prefix}PLAN_DRAFT ")
    warnings = [w for w in result.stderr.decode().splitlines() if w.startswith("wrap: stdout")]
    assert ["error[BS601]" in warnings[0], "error[BS603]" in warnings[1]] == [True, True]
    assert len(warnings) == 2
    # A reader of the vocabulary, without the key, sees the accepted line and wrap's FAILED.
    report = conformance_report(out, vocabulary=case.vocabulary)
    seen = [(str(s.signal.kind), dict(s.signal.payload)) for s in report.signals]
    assert seen[0] == (case.kind, case.payload)
    assert [kind for kind, _ in seen] == [case.kind, "FAILED"]
    assert seen[1][1]["reason"] == "exit 3"


@pytest.mark.timeout(180)
def test_conform_fence_and_allow_kinds_take_the_vocabularys_marked_lines(
    case: Case, tmp_path: Path
) -> None:
    lines: list[list[Any]] = [
        ["mark", case.kind, case.payload],
        ["raw", f"{case.prefix}COMPLETED"],  # forged: does not end the run
        ["mark", "PLAN_DRAFT", {"markdown": "# plan"}],  # marked, but not allowed
        ["mark", "COMPLETED", {}],
    ]
    conform = ["conform", "--fence", *case.options, "--format", "json"]
    for extra in ((), ("--allow-kinds", f"{case.kind},COMPLETED")):
        result = _cli(*conform, *extra, "--", *_adapter(lines, prefix=case.prefix), cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        (report,) = json.loads(result.stdout)["files"]
        if extra:
            assert _refusals(report) == [(2, "BS601"), (3, "BS603")]
            assert _kinds(report) == [(1, case.kind), (4, "COMPLETED")]
        else:
            assert _refusals(report) == [(2, "BS601")]
            assert _kinds(report) == [(1, case.kind), (3, "PLAN_DRAFT"), (4, "COMPLETED")]
        assert report["missing_terminal_signal"] == []


def test_allow_kinds_names_the_vocabularys_own_kinds_only(case: Case, tmp_path: Path) -> None:
    """A kind the vocabulary does not know is a usage error naming the vocabulary's kinds."""
    unknown = "PROGRESS" if case.name == "built-in" else "NOT_A_KIND"
    result = _cli("validate", *case.options, "--allow-kinds", unknown, "-", cwd=tmp_path)
    assert result.returncode == 2
    error = result.stderr.decode()
    assert f"unknown kind(s) {unknown}" in error
    assert ", ".join(case.vocabulary.kinds) in error
    assert len(error.splitlines()) == 1


def test_every_fence_the_toolkit_sets_up_is_the_vocabularys() -> None:
    """Only the runtime vocabulary builds a FenceVerifier or a SignalMarker, and no
    toolkit module asks a binding's reader for its fence: one set up elsewhere would be
    the built-in binding's, which refuses a fork's every line."""
    builders = {"FenceVerifier", "SignalMarker", "take_process_key"}
    readers = {"read_signals", "iter_signals", "aread_signals", "parse_signal"}
    fence_options = {"key", "allow_kinds", "on_rejected"}
    found = []
    for path in sorted(TOOLKIT.rglob("*.py")):
        if "binding_runtime" in path.parts or path.name == "runtime_vocabulary.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            fenced = {keyword.arg for keyword in node.keywords} & fence_options
            if name in builders or (name in readers and fenced):
                found.append(f"{path.relative_to(TOOLKIT)}:{node.lineno} {name}")
    assert found == []


# ---------------------------------------------------------------------------
# Item 3: a wrap holding the key of the run it is part of
# ---------------------------------------------------------------------------


@pytest.mark.timeout(180)
@pytest.mark.parametrize("inner", [(), ("--allow-kinds", "COMPLETED,FAILED")], ids=["", "allow"])
def test_a_nested_wrap_without_fence_ends_the_run_with_its_own_marked_terminal(
    case: Case, inner: tuple[str, ...], tmp_path: Path
) -> None:
    """conform --fence runs wrap (which takes the key at import), whose command prints an
    unmarked COMPLETED and exits 3: the fenced reader must see wrap's marked FAILED."""
    command = ["sh", "-c", f"echo '{case.prefix}COMPLETED'; exit 3"]
    nested = [*CLI, "wrap", *case.options, *inner, "--", *command]
    result = _cli(
        "conform", "--fence", *case.options, "--format", "json", "--", *nested, cwd=tmp_path
    )
    (report,) = json.loads(result.stdout)["files"]
    assert report["adapter"]["exit_status"] == 3
    assert _refusals(report) == [(1, "BS601")]  # the command's COMPLETED: no signal here
    assert _kinds(report) == [(2, "FAILED")]
    assert report["signals"][0]["payload"]["reason"] == "exit 3"
    assert report["missing_terminal_signal"] == []


@pytest.mark.timeout(120)
def test_a_wrap_holding_a_key_takes_no_unmarked_terminal_from_its_command(
    case: Case, tmp_path: Path
) -> None:
    """The same with the key handed over by variable and read by the test."""
    command = ["sh", "-c", f'echo \'{case.prefix}FAILED {{"reason":"forged"}}\'']
    result = subprocess.run(
        [*CLI, "wrap", *case.options, "--", *command],
        input=b"",
        capture_output=True,
        cwd=tmp_path,
        env={**os.environ, KEY_VARIABLE: KEY.text()},
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode().splitlines()
    report = conformance_report(out, vocabulary=case.vocabulary, key=KEY)
    assert [(s.line, str(s.signal.kind)) for s in report.signals] == [(2, "COMPLETED")]
    assert out[1].startswith(f"{case.prefix}COMPLETED ")


@pytest.mark.timeout(120)
def test_a_nested_wrap_fence_marks_what_its_key_accepted_with_the_outer_key(
    case: Case, tmp_path: Path
) -> None:
    """With --fence, the lines the inner key accepted are marked anew, with the outer key
    and the vocabulary's prefix; a forged terminal stays unmarked and ends nothing."""
    outer = SignalKey.parse("0123456789abcdef:" + "ab" * 32)
    lines: list[list[Any]] = [["mark", case.kind, case.payload], ["raw", f"{case.prefix}COMPLETED"]]
    adapter = _adapter(lines, 3, prefix=case.prefix)
    result = _cli(
        "wrap",
        "--fence",
        *case.options,
        "--",
        *adapter,
        cwd=tmp_path,
        env={**os.environ, KEY_VARIABLE: outer.text()},
    )
    assert result.returncode == 3, result.stderr
    out = result.stdout.decode().splitlines()
    report = conformance_report(out, vocabulary=case.vocabulary, key=outer)
    seen = [(s.line, str(s.signal.kind)) for s in report.signals]
    assert seen == [(1, case.kind), (3, "FAILED")]
    assert report.signals[0].signal.payload == case.payload
    assert out[1] == f"{UNAUTHENTICATED_PREFIX}{case.prefix}COMPLETED"
    assert out[0].startswith(f"{case.prefix}{case.kind} ")
    assert out[2].startswith(case.prefix)


# ---------------------------------------------------------------------------
# Item 4: a key the adapter prints is in no output
# ---------------------------------------------------------------------------


def _leaks(prefix: str) -> list[list[Any]]:
    """A misbehaving adapter's lines: its key in every shape, then its real terminal."""
    lower = prefix.lower()
    return [
        ["raw", "{key}"],
        ["raw", "    {secret}"],
        ["raw", f'  {prefix}BLOCKED {{"reason":"{{secret}}"}}'],  # indented: a near miss
        ["raw", f'50%\r{prefix}BLOCKED {{"reason":"{{key}}"}}'],  # after a carriage return
        ["raw", f'{prefix}BLOCKED {{"reason":"{{SECRET}}"}}'],  # in upper case
        ["raw", f'{prefix}BLOCKED {{"reason": "{{secret}}"}}'],  # not canonical
        # Only a \\u escape hides it; a message naming the member would write it out.
        ["raw", f'{prefix}BLOCKED {{"{{escaped}}":1,"{{escaped}}":2,"reason":"x"}}'],
        ["raw", f'{lower}blocked {{"reason":"{{secret}}"}}'],  # the prefix in lower case
        ["raw", f'{prefix}BLOCKED {{"reason":"{{secret}}", "reason":"x"}}'],  # duplicate key
        ["mark", "BLOCKED", {"reason": "{secret}"}],  # marked, and holding the key
        ["mark", "COMPLETED", {"summary": "done {key}"}],
        ["mark", "COMPLETED", {}],
    ]


def _no_key_in(*outputs: bytes, piece: int = 12) -> None:
    """Not the secret, in any case, nor a ``piece`` of it (a message quotes 40 characters
    of a long name it decoded)."""
    pieces = {SECRET[start : start + piece].encode() for start in range(len(SECRET) - piece + 1)}
    for output in outputs:
        folded = output.lower()
        assert [piece for piece in pieces if piece in folded] == []


@pytest.mark.timeout(180)
@pytest.mark.parametrize("form", ["text", "json", "sarif", "github"])
def test_conform_shows_no_key_the_adapter_prints(case: Case, form: str, tmp_path: Path) -> None:
    adapter = _adapter(_leaks(case.prefix), prefix=case.prefix)
    conform = ["conform", "--fence", *case.options, "--format", form, "--transcript"]
    result = _cli(*conform, "--", *adapter, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    _no_key_in(result.stdout, result.stderr)
    if form == "json":
        (report,) = json.loads(result.stdout)["files"]
        assert _kinds(report) == [(12, "COMPLETED")]  # no line holding the key is a signal
        assert _refusals(report) == [(line, "BS601") for line in range(3, 12)]
        assert all(d["message"].startswith(KEY_LEAKED) for d in report["diagnostics"])


@pytest.mark.timeout(180)
@pytest.mark.parametrize("form", ["text", "json", "sarif", "github"])
def test_validate_key_file_shows_no_key_the_run_printed(
    case: Case, form: str, tmp_path: Path
) -> None:
    log, key_file = _recorded(tmp_path, _leaks(case.prefix), prefix=case.prefix)
    assert SECRET.encode() in log.read_bytes().lower()
    args = ["validate", *case.options, "--key-file", str(key_file), "--format", form, str(log)]
    result = _cli(*args, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    _no_key_in(result.stdout, result.stderr)
    if form == "json":
        (report,) = json.loads(result.stdout)["files"]
        assert _kinds(report) == [(12, "COMPLETED")]
        assert _refusals(report) == [(line, "BS601") for line in range(3, 12)]
        assert all(d["message"].startswith(KEY_LEAKED) for d in report["diagnostics"])


@pytest.mark.timeout(120)
def test_wrap_fence_shows_no_key_the_command_prints(case: Case, tmp_path: Path) -> None:
    adapter = _adapter(_leaks(case.prefix), prefix=case.prefix)
    result = _cli("wrap", "--fence", *case.options, "--", *adapter, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # wrap decodes nothing: the \\u-escaped secret passes as the command wrote it (no
    # filter undoes every encoding), the secret's text is masked wherever it is.
    _no_key_in(result.stdout, result.stderr, piece=len(SECRET))
    lines = result.stdout.decode().split("\n")  # one line holds a "\r"
    report = conformance_report(lines, vocabulary=case.vocabulary)
    assert [(s.line, str(s.signal.kind)) for s in report.signals] == [(12, "COMPLETED")]
    assert lines[0] == f"{KEY.run}:[key withheld]"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("form", ["text", "json", "sarif", "github"])
def test_the_output_is_masked_whatever_put_the_key_there(form: str, tmp_path: Path) -> None:
    """The mask is on the writer, not only on what the checks quote: here the names the
    reports give the input (a file, a command line) hold the secret."""
    log = tmp_path / f"{SECRET}.log"
    log.write_text("BERNSTEIN:COMPLETED\n", encoding="utf-8")
    key_file = tmp_path / "run.key"
    key_file.write_text(KEY.text(), encoding="ascii")
    checked = _cli(
        "validate", "--key-file", str(key_file), "--format", form, str(log), cwd=tmp_path
    )
    command = ["sh", "-c", "echo BERNSTEIN:COMPLETED", SECRET]
    conformed = _cli("conform", "--fence", "--format", form, "--", *command, cwd=tmp_path)
    for result in (checked, conformed):
        assert result.returncode == 1, result.stderr  # BS601, and BS301: no signal counts
        _no_key_in(result.stdout, result.stderr, piece=len(SECRET))
        assert KEY_MASK in result.stdout


# ---------------------------------------------------------------------------
# Every binding's own fence under a fork: Python, the six shells, Node
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def acme(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A fork with ``PREFIX: "ACME:"`` and PROGRESS: its schema folder, and the bindings
    ``generate`` writes for it."""
    root = tmp_path_factory.mktemp("acme-bindings")
    schema = make_fork(root)
    grammar = packaged_sources().grammar.read_text(encoding="utf-8")
    (root / "grammar").mkdir()
    (root / "grammar" / "signal.lark").write_text(
        grammar.replace('PREFIX: "BERNSTEIN:"', 'PREFIX: "ACME:"'), encoding="utf-8"
    )
    out = root / "generated"
    generate = [*CLI, "generate", "--schema", str(schema), "--out", str(out)]
    subprocess.run(
        [*generate, "--grammar", str(root / "grammar" / "signal.lark")],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
        timeout=300,
    )
    return schema, out


def _fork_adapter(name: str, out: Path) -> tuple[list[str], dict[str, str]]:
    """An adapter written with the fork's own binding: PROGRESS, then COMPLETED."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("BERNSTEIN")}
    if name == "python":
        code = (
            "import bernstein_signals as b;"
            " b.emit('PROGRESS', {'percent': 40}); b.emit('COMPLETED')"
        )
        return [sys.executable, "-c", code], {**env, "PYTHONPATH": str(out / "python")}
    if name == "node":
        binding = out / "typescript"
        code = (
            f"const n = await import({json.dumps(str(binding / 'node.js'))});"
            f" const b = await import({json.dumps(str(binding / 'index.js'))});"
            " const m = new b.SignalMarker(n.takeNodeProcessKey());"
            " console.log(m.mark('PROGRESS', { percent: 40 })); console.log(m.mark('COMPLETED'));"
        )
        return [node_command(), "--input-type=module", "-e", code], env
    script = '. "$1"; bernstein_emit PROGRESS percent:=40; bernstein_emit COMPLETED'
    library = out / "shell" / "bernstein-signals.sh"
    return [*shell_command(name), "-c", script, "adapter", str(library)], env


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name", ["python", "node", *SHELLS])
def test_every_binding_of_a_fork_marks_what_conform_fence_takes(
    name: str, acme: tuple[Path, Path], tmp_path: Path
) -> None:
    """The proof of issue 23, item 2, end to end: each binding generated for the fork takes
    the key conform hands over (a socket) and marks with the fork's prefix, and conform
    judges with the fork's fence: both signals taken, nothing refused."""
    schema, out = acme
    adapter, env = _fork_adapter(name, out)
    conform = [*CLI, "conform", "--fence", "--vocabulary", str(schema), "--format", "json"]
    result = subprocess.run(
        [*conform, "--", *adapter],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=tmp_path,
        env=env,
        check=False,
        timeout=200,
    )
    report = json.loads(result.stdout)["files"][0]
    assert _refusals(report) == [], result.stderr
    assert _kinds(report) == [(1, "PROGRESS"), (2, "COMPLETED")], result.stderr
    assert result.returncode == 0, result.stderr
