"""The language server with a forked vocabulary: initialization option, settings, folder edits."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "lsp"]
SECTION = "bernsteinSignals"
LOG = 'BERNSTEIN:PROGRESS {"percent":40}\nBERNSTEIN:PROGRESS {"percent":60}\nBERNSTEIN:COMPLETED\n'

pytestmark = pytest.mark.timeout(120)


REGISTRATIONS: dict[int, list[lsp.RegistrationParams]] = {}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, fork: Path) -> AsyncIterator[None]:
    registrations = REGISTRATIONS.setdefault(id(lsp_client), [])

    @lsp_client.feature(lsp.CLIENT_REGISTER_CAPABILITY)  # type: ignore[untyped-decorator]
    def register(params: lsp.RegistrationParams) -> None:
        registrations.append(params)

    @lsp_client.feature(lsp.CLIENT_UNREGISTER_CAPABILITY)  # type: ignore[untyped-decorator]
    def unregister(params: lsp.UnregistrationParams) -> None:
        return None

    lsp_client.set_configuration({}, section=SECTION)
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options={SECTION: {"vocabulary": str(fork)}},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def _diagnostics(client: LanguageClient, uri: str, version: int) -> list[tuple[int, str]]:
    while True:
        params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri and params.version == version:
            return sorted((d.range.start.line, str(d.code)) for d in params.diagnostics)


def _open(client: LanguageClient, uri: str, text: str, language: str = "plaintext") -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, language, 1, text))
    )


async def test_the_fork_is_used_and_its_edits_are_picked_up(
    client: LanguageClient, fork: Path
) -> None:
    uri = "file:///fork.log"
    _open(client, uri, LOG)
    assert await _diagnostics(client, uri, 1) == []  # PROGRESS is known, both within 0..100
    schema_file = fork / "progress.schema.json"
    original = schema_file.read_text()
    schema = json.loads(original)
    schema["properties"]["percent"]["maximum"] = 50
    schema_file.write_text(json.dumps(schema))
    try:
        client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(schema_file.as_uri(), lsp.FileChangeType.Changed)]
            )
        )
        assert await _diagnostics(client, uri, 1) == [(1, "BS101")]
    finally:
        schema_file.write_text(original)


async def test_shell_helpers_of_the_fork(client: LanguageClient) -> None:
    uri = "file:///fork.sh"
    script = "#!/bin/sh\nbernstein_progress\nprintf 'BERNSTEIN:PROGRESS {\"percent\":400}\\n'\n"
    _open(client, uri, script, "shellscript")
    assert await _diagnostics(client, uri, 1) == [(1, "BS502"), (2, "BS101")]


async def test_a_broken_folder_falls_back_with_one_message(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = "file:///fallback.log"
    _open(client, uri, LOG)
    assert await _diagnostics(client, uri, 1) == []  # the fork, from the initialization options
    client.set_configuration({"vocabulary": str(tmp_path / "missing")}, section=SECTION)
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    assert await _diagnostics(client, uri, 1) == [(0, "BS216"), (1, "BS216")]
    warnings = [m for m in client.messages if m.type == lsp.MessageType.Warning]
    assert len(warnings) == 1
    assert "missing" in warnings[0].message
    assert "\n" not in warnings[0].message
    missing = str(tmp_path / "missing")
    client.set_configuration({"vocabulary": missing, "unknownKinds": "error"}, section=SECTION)
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    while True:  # the built-in vocabulary, PROGRESS now an error
        params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri:
            break
    assert {d.severity for d in params.diagnostics} == {lsp.DiagnosticSeverity.Error}
    assert len([m for m in client.messages if m.type == lsp.MessageType.Warning]) == 1


async def test_a_folder_with_a_backtracking_pattern_falls_back_with_one_message(
    client: LanguageClient, fork: Path, tmp_path: Path
) -> None:
    """Issue 23 item 7: a repository's settings cannot freeze analysis with a pattern."""
    hostile = tmp_path / "schema"
    shutil.copytree(fork, hostile)
    path = hostile / "progress.schema.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["properties"]["note"] = {
        "description": "A note.",
        "type": "string",
        "pattern": "^(?:[A-Za-z_ ]+)+$",
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    uri = "file:///backtracking.log"
    _open(client, uri, LOG)
    assert await _diagnostics(client, uri, 1) == []  # the fork
    client.set_configuration({"vocabulary": str(hostile)}, section=SECTION)
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    assert await _diagnostics(client, uri, 1) == [(0, "BS216"), (1, "BS216")]  # built-in
    warnings = [m.message for m in client.messages if m.type == lsp.MessageType.Warning]
    assert len(warnings) == 1
    assert (
        "progress.schema.json: [pattern] at /properties/note/pattern: the repetition"
        in (warnings[0])
    )
    assert "\n" not in warnings[0]


def test_lsp_refuses_a_broken_vocabulary_before_serving(tmp_path: Path) -> None:
    (tmp_path / "vocabulary.json").write_text("{")
    result = subprocess.run(
        [*SERVER, "--vocabulary", str(tmp_path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.count(b"\n") == 1
    assert b"vocabulary.json" in result.stderr


async def test_hover_and_completion_describe_the_fork(client: LanguageClient) -> None:
    uri = "file:///hover.log"
    _open(client, uri, f"{LOG}BERNSTEIN:PRO\n")
    await _diagnostics(client, uri, 1)
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 12))
    )
    assert hover is not None
    assert isinstance(hover.contents, lsp.MarkupContent)
    assert "How far the run has got" in hover.contents.value
    completion = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(3, 13))
    )
    assert completion is not None
    items = completion.items if isinstance(completion, lsp.CompletionList) else completion
    assert "PROGRESS" in {item.label for item in items}
    shell = "file:///hover.sh"
    _open(client, shell, "#!/bin/sh\nbernstein_pro\n", "shellscript")
    await _diagnostics(client, shell, 1)
    completion = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(shell), lsp.Position(1, 13))
    )
    assert completion is not None
    items = completion.items if isinstance(completion, lsp.CompletionList) else completion
    assert [item.label for item in items] == ["bernstein_progress"]


async def test_the_client_is_asked_to_watch_the_folder(client: LanguageClient, fork: Path) -> None:
    uri = "file:///watch.log"
    _open(client, uri, LOG)
    await _diagnostics(client, uri, 1)
    registrations = REGISTRATIONS[id(client)]
    while not registrations:  # the request follows initialization; bounded by the test timeout
        await asyncio.sleep(0.05)
    (registration,) = [r for params in registrations for r in params.registrations]
    assert registration.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
    options = registration.register_options
    watchers = options["watchers"] if isinstance(options, dict) else []
    globs = [watcher["globPattern"] for watcher in watchers]
    # The client (VS Code's capabilities here) has no relative pattern support: plain globs.
    assert f"{fork.resolve()}/*.json" in globs
    assert f"{fork.resolve().parent}/grammar/signal.lark" in globs
