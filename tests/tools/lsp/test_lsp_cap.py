"""The cap on diagnostics per document (issue 23 item 8): ``maxDiagnostics``.

A document gets at most the cap's findings, then one closing notice counting
the rest; below the cap nothing changes. ``validate`` still reports all of them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from hypothesis import example, given
from hypothesis import strategies as st
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from bernstein_signals_toolkit.tools.lsp import analysis
from bernstein_signals_toolkit.tools.lsp.analysis import DEFAULT_MAX_DIAGNOSTICS, Finding
from bernstein_signals_toolkit.tools.lsp.settings import MAX_DIAGNOSTICS_SETTING, settings_from
from bernstein_signals_toolkit.tools.validate import Severity

ROOT = Path(__file__).resolve().parents[3]
CLI = [sys.executable, "-m", "bernstein_signals_toolkit.cli"]
SERVER = [*CLI, "lsp"]
SECTION = "bernsteinSignals"
UNCAPPED = MAX_DIAGNOSTICS_SETTING

_LOG_LINES = [
    "BERNSTEIN:DONE",  # one diagnostic
    "bernstein:completed",  # two
    'BERNSTEIN:QUESTION {"id":"q","question":"Go?"}',  # a signal: none, then BS305 on reuse
    "BERNSTEIN:COMPLETED",
    "plain output",
]
_SCRIPT_LINES = [
    "printf 'BERNSTEIN:DONE\\n'",
    "echo 'bernstein:completed'",
    "bernstein_completed --nope",
    "echo hello",
]
_LEFT_OUT = re.compile(r"^([\d,]+) more diagnostics? not shown")


def _left_out(notice: Finding) -> int:
    found = _LEFT_OUT.match(notice.message)
    assert found is not None, notice.message
    return int(found.group(1).replace(",", ""))


def _check_capped(text: str, *, shell: bool, cap: int) -> None:
    every = analysis.analyse(
        text, shell=shell, settings=analysis.Settings(max_diagnostics=UNCAPPED)
    )
    capped = analysis.analyse(text, shell=shell, settings=analysis.Settings(max_diagnostics=cap))
    if len(every) <= cap:
        assert capped == every  # nothing changes below the cap
        return
    assert len(capped) == cap + 1
    assert capped[:cap] == every[:cap]  # the first ones, in document order
    notice = capped[-1]
    assert notice.code is None
    assert notice.severity is Severity.INFORMATION
    assert _left_out(notice) == len(every) - cap
    assert "maxDiagnostics" in notice.message
    assert (notice.line, notice.start) == (capped[cap - 1].line, capped[cap - 1].start)


@given(
    lines=st.lists(st.sampled_from(_LOG_LINES), max_size=60),
    cap=st.integers(1, 40),
)
@example(lines=["BERNSTEIN:DONE"] * 3, cap=3)  # 4 with BS301: one left out, singular
def test_a_log_gets_at_most_the_cap_and_a_count_of_the_rest(lines: list[str], cap: int) -> None:
    _check_capped("\n".join(lines) + "\n", shell=False, cap=cap)


@given(
    lines=st.lists(st.sampled_from(_SCRIPT_LINES), max_size=40),
    cap=st.integers(1, 20),
)
def test_a_script_gets_at_most_the_cap_and_a_count_of_the_rest(lines: list[str], cap: int) -> None:
    _check_capped("#!/bin/sh\n" + "\n".join(lines) + "\n", shell=True, cap=cap)


def test_the_singular_notice() -> None:
    capped = analysis.analyse(
        "BERNSTEIN:DONE\n" * 3, shell=False, settings=analysis.Settings(max_diagnostics=3)
    )
    assert capped[-1].message.startswith("1 more diagnostic not shown")


def test_validate_still_reports_every_diagnostic(tmp_path: Path) -> None:
    """The same text past the default cap: the server counts the rest, validate lists them."""
    lines = DEFAULT_MAX_DIAGNOSTICS + 500
    text = "BERNSTEIN:DONE\n" * lines
    findings = analysis.analyse(text, shell=False, settings=settings_from({}))
    assert len(findings) == DEFAULT_MAX_DIAGNOSTICS + 1
    assert _left_out(findings[-1]) == lines + 1 - DEFAULT_MAX_DIAGNOSTICS  # BS216s, one BS301
    log = tmp_path / "near-misses.log"
    log.write_text(text, encoding="utf-8")
    result = subprocess.run(
        [*CLI, "validate", "--format", "json", str(log)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    (report,) = json.loads(result.stdout)["files"]
    assert len(report["diagnostics"]) == lines + 1


def test_max_diagnostics_is_read_and_untrusted_values_fall_back() -> None:
    assert settings_from({"maxDiagnostics": 7}).max_diagnostics == 7
    assert settings_from({}).max_diagnostics == DEFAULT_MAX_DIAGNOSTICS
    assert analysis.Settings().max_diagnostics == DEFAULT_MAX_DIAGNOSTICS
    for bad in (0, -1, UNCAPPED + 1, True, 2.5, "10", None, [5]):
        assert settings_from({"maxDiagnostics": bad}).max_diagnostics == DEFAULT_MAX_DIAGNOSTICS


def test_the_default_is_documented_where_the_settings_are() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    settings = readme[readme.index("Settings (workspace configuration, section") :]
    settings = " ".join(settings[: settings.index("\n\n")].split())
    assert f"`maxDiagnostics` (diagnostics per document, default {DEFAULT_MAX_DIAGNOSTICS:,}" in (
        settings
    )


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    lsp_client.set_configuration({"maxDiagnostics": 5}, section=SECTION)
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options={"maxDiagnostics": 5},
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.timeout(120)
async def test_the_server_publishes_the_cap_and_one_notice(client: LanguageClient) -> None:
    uri = "file:///near-misses.log"
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "plaintext", 1, "BERNSTEIN:DONE\n" * 20)
        )
    )
    while True:
        params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri and params.version == 1:
            break
    *shown, notice = params.diagnostics
    assert [d.code for d in shown] == ["BS216"] * 5
    assert notice.code is None
    assert notice.severity == lsp.DiagnosticSeverity.Information
    assert notice.message.startswith("16 more diagnostics not shown")
    assert notice.range == shown[-1].range
