"""Issue 16 item 17: every example runs, as a user would run it.

The Python adapter and orchestrator run as scripts from a scratch working
directory (so their .sdd/ lands there); the GitHub Actions workflow parses,
and each of its ``run`` steps runs locally in bash as Actions runs it
(``-eo pipefail``), with the toolkit from this checkout on PATH.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # PyYAML comes with datamodel-code-generator

import bernstein_signals as bs

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ADAPTER = EXAMPLES / "adapter.py"
ORCHESTRATOR = EXAMPLES / "orchestrator.py"
WORKFLOW = EXAMPLES / "github-workflow.yml"
BIN = Path(sys.executable).parent


def _run(argv: list[str], cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, timeout=120, check=False)


def _reply(answer: str) -> bytes:
    return (bs.format_reply(answer, "q-apply") + "\n").encode()


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("stdin", "args", "status", "last"),
    [
        (_reply("yes"), [], 0, "COMPLETED"),
        (_reply("no"), [], 1, "FAILED"),
        (_reply("yes"), ["--fail"], 1, "FAILED"),
        (b"", [], 1, "FAILED"),  # no answer: QuestionAborted, still FAILED with a reason
    ],
)
def test_python_adapter_always_ends_with_a_terminal(
    stdin: bytes, args: list[str], status: int, last: str, tmp_path: Path
) -> None:
    done = _run([sys.executable, str(ADAPTER), *args], tmp_path, stdin)
    assert done.returncode == status, done.stderr
    signals = list(bs.iter_signals(done.stdout.splitlines()))
    for signal in signals:
        assert bs.validate_payload(signal.kind, signal.payload) == []
    assert [s.kind for s in signals][:2] == [bs.SignalKind.PLAN_DRAFT, bs.SignalKind.QUESTION]
    assert [s for s in signals if s.is_terminal] == [signals[-1]]
    assert signals[-1].kind == last
    if last == "FAILED":
        assert signals[-1].payload[bs.FAILED_REASON]
    ready = [s for s in signals if s.kind == bs.SignalKind.PLAN_READY]
    if ready:
        assert bs.read_plan(tmp_path, ready[0]).startswith("# Plan")


@pytest.mark.timeout(120)
def test_python_adapter_passes_conform(tmp_path: Path) -> None:
    argv = [
        str(BIN / "bernstein-signals"),
        "conform",
        "--format",
        "json",
        "--answer-id",
        "q-apply=yes",
    ]
    done = _run(
        [
            *argv,
            "--expect-exit",
            "0",
            "--expect-kind",
            "COMPLETED",
            "--",
            sys.executable,
            str(ADAPTER),
        ],
        tmp_path,
    )
    report = json.loads(done.stdout)["files"][0]
    assert done.returncode == 0, report["diagnostics"]
    assert report["diagnostics"] == []
    assert report["adapter"]["answers"][0]["answer"] == "yes"


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (
            [],
            0,
            [
                "'Apply the plan?' -> 'yes'",
                "plan .sdd/plans/example.md ('# Plan')",
                "run ended COMPLETED",
            ],
        ),
        (["--answer", "no"], 1, ["-> 'no'", "run ended FAILED (adapter exit 1)"]),
        (["--", "sh", "-c", "echo working"], 3, ["emitted no terminal signal"]),
        (
            ["--", "sh", str(EXAMPLES / "wrapper.sh")],
            0,
            ["plan .sdd/plans/example.md", "run ended COMPLETED"],
        ),
    ],
)
def test_python_orchestrator_answers_reads_the_plan_and_checks_the_end(
    args: list[str], status: int, said: list[str], tmp_path: Path
) -> None:
    done = _run([sys.executable, str(ORCHESTRATOR), *args], tmp_path)
    err = done.stderr.decode()
    assert done.returncode == status, err
    for text in said:
        assert text in err
    assert "Traceback" not in err


def _workflow() -> dict[str, Any]:
    loaded = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


_NOT_RUN_HERE = {"Install bernstein-signals": "installs this checkout; the tests run it from .venv"}


def test_workflow_parses_and_uploads_the_sarif_that_validate_writes() -> None:
    workflow = _workflow()
    assert workflow["permissions"]["security-events"] == "write"
    steps = workflow["jobs"]["signals"]["steps"]
    upload = next(
        step
        for step in steps
        if str(step.get("uses", "")).startswith("github/codeql-action/upload-sarif@")
    )
    assert upload["if"] == "always()"
    sarif = upload["with"]["sarif_file"]
    assert any(
        "--format sarif" in step.get("run", "") and f"> {sarif}" in step["run"] for step in steps
    )
    assert set(_NOT_RUN_HERE) <= {step.get("name") for step in steps}


@pytest.mark.timeout(300)
def test_workflow_run_steps_pass_locally(tmp_path: Path) -> None:
    """Each ``run`` step in a copy of the checkout's examples, in order, as Actions runs it."""
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "python").symlink_to(ROOT / "generated" / "python")
    (tmp_path / "generated" / "shell").symlink_to(ROOT / "generated" / "shell")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    ran = 0
    for step in _workflow()["jobs"]["signals"]["steps"]:
        if "run" not in step or step.get("name") in _NOT_RUN_HERE:
            continue
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True,
            timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (step["name"], done.stdout[-2000:], done.stderr[-2000:])
        ran += 1
    assert ran == 4
    sarif = json.loads((tmp_path / "bernstein-signals.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert len(sarif["runs"][0]["artifacts"]) == 2  # both logs
