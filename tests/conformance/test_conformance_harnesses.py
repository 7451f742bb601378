"""The kit certifies the project's own implementations: Python, TypeScript, the shell helpers."""

from __future__ import annotations

import json
import shutil
import sys
from typing import Any

import pytest

from conformance.conformance_support import HARNESSES, PYTHON_HARNESS, conformance, kit_vectors

TOTAL = len(kit_vectors())
FORMATS = sum(vector["type"] == "format" for vector in kit_vectors())


def _report(*args: str) -> dict[str, Any]:
    status, out, err = conformance("--format", "json", *args)
    assert err == "", err
    report: dict[str, Any] = json.loads(out)
    report["status"] = status
    return report


def test_kit_is_not_small() -> None:
    assert TOTAL > 700
    assert {vector["type"] for vector in kit_vectors()} == {
        "line",
        "format",
        "payload",
        "parse-reply",
        "format-reply",
        "stream",
    }


@pytest.mark.timeout(240)
def test_python_binding_passes_every_vector() -> None:
    report = _report("--", *PYTHON_HARNESS)
    assert report["status"] == 0, report["results"]
    assert (report["total"], report["passed"]) == (TOTAL, TOTAL)


@pytest.mark.timeout(240)
def test_typescript_binding_passes_every_vector() -> None:
    node = shutil.which("node")
    assert node is not None, "the conformance tests need Node.js >= 18 on PATH"
    report = _report("--", node, str(HARNESSES / "node.mjs"))
    assert report["status"] == 0, report["results"]
    assert (report["total"], report["passed"]) == (TOTAL, TOTAL)


@pytest.mark.timeout(240)
def test_shell_helpers_pass_every_format_vector() -> None:
    """Every format vector through a helper call: none unsupported, none failed."""
    assert shutil.which("bash") is not None
    harness = [sys.executable, str(HARNESSES / "shell.py")]
    report = _report("--type", "format", "--", *harness)
    assert report["status"] == 0, report["results"]
    assert (report["total"], report["passed"]) == (FORMATS, FORMATS), report["results"]
    assert report["unsupported"] == report["failed"] == 0


@pytest.mark.timeout(240)
def test_the_validator_reports_every_stream_vectors_diagnostics() -> None:
    streams = [vector for vector in kit_vectors() if vector["type"] == "stream"]
    checked = sum("diagnostics" in vector["expected"] for vector in streams)
    assert checked >= 60  # every log corpus case that needs no options
    harness = [sys.executable, str(HARNESSES / "validate.py")]
    report = _report("--type", "stream", "--", *harness)
    assert report["status"] == 0, report["results"]
    assert (report["total"], report["passed"]) == (len(streams), len(streams))
