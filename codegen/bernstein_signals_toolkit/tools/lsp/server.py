"""The LSP server: pygls plumbing around :mod:`.analysis` and :mod:`.assist`.

This module holds the server's state (settings, the vocabulary and the watch on
its folder), publishes diagnostics and handles the notifications; the open
documents' lines and positions are :mod:`._documents`', the requests (hover,
completion, code actions) :mod:`._requests`'.

Analysis runs in a worker thread after a short debounce, so typing never
waits for it and a 100,000-line log never blocks hover or completion. A
result is published only if the document has not changed since.

The vocabulary comes from ``lsp --vocabulary DIR``, overridden by the
``vocabulary`` setting (initialization options or workspace configuration,
section ``bernsteinSignals``). A folder that does not compile is reported once
with ``window/showMessage`` and the built-in vocabulary is used meanwhile.
Each analysis re-hashes the folder, and ``workspace/didChangeWatchedFiles``
re-checks every open document, so edits to the folder are picked up.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path
from typing import Any, BinaryIO, cast

from lsprotocol import types as lsp

from bernstein_signals_toolkit.generator.sources import GRAMMAR_FILE
from bernstein_signals_toolkit.toolkit_errors import ToolkitError

from ... import __version__
from ..runtime_vocabulary import RuntimeVocabulary, built_in
from ..validate import Severity
from . import _requests, analysis
from ._documents import DocumentServer
from .settings import SECTION, settings_from
from .transport import (
    MAX_HEADER_BYTES,
    MAX_MESSAGE_BYTES,
    BoundedStdin,
    MessageTooLarge,
    log_one_line_per_problem,
)

__all__ = [
    "DEBOUNCE_SECONDS",
    "MAX_HEADER_BYTES",
    "MAX_MESSAGE_BYTES",
    "MessageTooLarge",
    "SignalsLanguageServer",
    "build_server",
    "serve",
]

DEBOUNCE_SECONDS = 0.25
_WATCH_ID = "bernstein-signals-vocabulary"
_CLIENT_REQUEST_SECONDS = 10.0
_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFORMATION: lsp.DiagnosticSeverity.Information,
}


class SignalsLanguageServer(DocumentServer):
    def __init__(self, vocabulary: str | None = None) -> None:
        super().__init__("bernstein-signals", __version__)
        self.default_vocabulary = vocabulary
        """``lsp --vocabulary DIR``: used while no setting names another folder."""
        self.settings = analysis.Settings(vocabulary=vocabulary)
        self.initial_config: dict[str, Any] = {}
        """The initialization options' settings: what workspace configuration does not set."""
        self._vocabulary_error: str | None = None
        self._watched: str | None = None
        """The folder the client was asked to watch."""
        self.pending: dict[str, asyncio.Task[None]] = {}

    # -- diagnostics ----------------------------------------------------------

    def schedule(self, uri: str, delay: float) -> None:
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        self.pending[uri] = asyncio.get_event_loop().create_task(self._diagnose(uri, delay))

    async def _diagnose(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        document = self.workspace.get_text_document(uri)
        version, text = document.version, document.source
        shell = analysis.is_shell_document(uri, document.language_id, text)
        settings = self.settings
        runtime = self.runtime_vocabulary()  # here: a message to the client goes from the loop
        findings = await asyncio.to_thread(
            analysis.analyse, text, shell=shell, settings=settings, vocabulary=runtime
        )
        current = self.workspace.text_documents.get(uri)
        if current is None or current.version != version:
            return  # changed or closed meanwhile; a newer run will publish
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(
                uri=uri, version=version, diagnostics=[self.diagnostic(uri, f) for f in findings]
            )
        )

    def runtime_vocabulary(self) -> RuntimeVocabulary:
        """The settings' vocabulary; the built-in one while the folder does not compile."""
        try:
            runtime = analysis.runtime_vocabulary(self.settings)
        except ToolkitError as exc:
            message = f"bernstein-signals: vocabulary not used, the built-in one is: {exc}"
            if message != self._vocabulary_error:  # say it once per problem, not per keystroke
                self._vocabulary_error = message
                with contextlib.suppress(Exception):  # a client gone away
                    self.window_show_message(
                        lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message)
                    )
            return built_in()
        self._vocabulary_error = None
        return runtime

    def diagnostic(self, uri: str, finding: analysis.Finding) -> lsp.Diagnostic:
        data: dict[str, Any] | None = None
        if finding.edit is not None:
            data = {"edit": list(finding.edit)}
        return lsp.Diagnostic(
            range=self.lsp_range(uri, finding.line, finding.start, finding.end_line, finding.end),
            message=finding.message,
            severity=_SEVERITY[finding.severity],
            code=finding.code,
            source="bernstein-signals",
            data=data,
        )

    async def refresh_settings(self) -> None:
        try:
            result = await self.workspace_configuration_async(
                lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section=SECTION)])
            )
        except Exception:  # a client without workspace/configuration support
            return
        config = result[0] if result and isinstance(result[0], dict) else {}
        self.configure(config)

    def configure(self, config: dict[str, Any]) -> None:
        """Settings from a configuration section, over the initialization options."""
        self.apply_settings(
            settings_from({**self.initial_config, **config}, self.default_vocabulary)
        )

    def apply_settings(self, settings: analysis.Settings) -> None:
        """Take new settings; re-check open documents only if something changed."""
        if settings != self.settings:
            self.settings = settings
            self.rediagnose_all()
        self.watch_vocabulary()

    def watch_vocabulary(self) -> None:
        """Ask the client to watch the vocabulary folder (and the grammar beside it), when it
        registers file watchers dynamically; its notifications re-check open documents.
        """
        folder = self.settings.vocabulary
        if folder == self._watched:
            return
        workspace = self.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is None or not watched.dynamic_registration:
            return
        previous, self._watched = self._watched, folder
        asyncio.get_event_loop().create_task(self._register_watchers(previous, folder))

    async def _register_watchers(self, previous: str | None, folder: str | None) -> None:
        with contextlib.suppress(
            Exception
        ):  # a client that refuses: edits still count per analysis
            if previous is not None:
                unregistration = lsp.Unregistration(
                    _WATCH_ID, lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
                )
                await asyncio.wait_for(
                    self.client_unregister_capability_async(
                        lsp.UnregistrationParams([unregistration])
                    ),
                    _CLIENT_REQUEST_SECONDS,
                )
            if folder is None:
                return
            root = Path(folder).resolve()
            workspace = self.client_capabilities.workspace
            watched = workspace.did_change_watched_files if workspace is not None else None
            relative = watched is not None and bool(watched.relative_pattern_support)
            globs: list[lsp.GlobPattern] = [
                lsp.RelativePattern(root.as_uri(), "*.json") if relative else f"{root}/*.json",
                lsp.RelativePattern(root.parent.as_uri(), GRAMMAR_FILE)
                if relative
                else f"{root.parent}/{GRAMMAR_FILE}",
            ]
            watchers = [lsp.FileSystemWatcher(glob_pattern=glob) for glob in globs]
            registration = lsp.Registration(
                _WATCH_ID,
                lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                lsp.DidChangeWatchedFilesRegistrationOptions(watchers),
            )
            await asyncio.wait_for(
                self.client_register_capability_async(lsp.RegistrationParams([registration])),
                _CLIENT_REQUEST_SECONDS,
            )

    def rediagnose_all(self) -> None:
        for uri in list(self.workspace.text_documents):
            self.schedule(uri, 0)


def build_server(vocabulary: str | None = None) -> SignalsLanguageServer:
    server = SignalsLanguageServer(vocabulary)

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: SignalsLanguageServer, params: lsp.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get(SECTION), dict):
            options = options[SECTION]
        if isinstance(options, dict) and options:
            ls.initial_config = dict(options)
            ls.settings = settings_from(ls.initial_config, ls.default_vocabulary)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(
        ls: SignalsLanguageServer, params: lsp.DidChangeWatchedFilesParams
    ) -> None:
        if ls.settings.vocabulary is not None:
            ls.rediagnose_all()  # the folder is re-hashed: recompiled only if it changed

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: SignalsLanguageServer, params: lsp.InitializedParams) -> None:
        await ls.refresh_settings()
        ls.watch_vocabulary()  # also when the client has no workspace configuration

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(
        ls: SignalsLanguageServer, params: lsp.DidChangeConfigurationParams
    ) -> None:
        settings = params.settings.get(SECTION) if isinstance(params.settings, dict) else None
        if isinstance(settings, dict):
            ls.configure(settings)
        else:
            await ls.refresh_settings()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SignalsLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SignalsLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SignalsLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.forget(uri)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    _requests.register(server)

    return server


def serve(vocabulary: str | None = None) -> None:
    """Run the server over stdio until the client leaves; bounded reads, one-line logs."""
    log_one_line_per_problem()
    stdin = BoundedStdin(sys.stdin.buffer)
    # pygls calls only readline() and read(n) on it.
    build_server(vocabulary).start_io(stdin=cast(BinaryIO, stdin))


def main() -> None:
    serve()
