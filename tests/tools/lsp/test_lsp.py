"""The language server end to end: a real LSP client (pytest-lsp) over stdio.

Nothing here calls a handler directly, and nothing asserts on timing: waits
are for notifications, bounded by the per-test timeout.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from bernstein_signals_toolkit.tools.validate import CODES
from shell_support import kind_schema

SERVER = [sys.executable, "-m", "bernstein_signals_toolkit.cli", "lsp"]
SECTION = "bernsteinSignals"

pytestmark = pytest.mark.timeout(120)
_INITIALIZED: dict[int, lsp.InitializeResult] = {}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    lsp_client.set_configuration({}, section=SECTION)
    result = await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    _INITIALIZED[id(lsp_client)] = result
    yield
    await lsp_client.shutdown_session()


async def _open(
    client: LanguageClient, uri: str, text: str, language: str = "plaintext", version: int = 1
) -> list[lsp.Diagnostic]:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, language, version, text))
    )
    return await _diagnostics(client, uri, version)


async def _diagnostics(client: LanguageClient, uri: str, version: int) -> list[lsp.Diagnostic]:
    """Wait until the server publishes diagnostics for this version of the document."""
    while True:
        params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri and params.version == version:
            return list(params.diagnostics)


def _change(
    client: LanguageClient, uri: str, version: int, *, at: tuple[int, int, int], text: str
) -> None:
    """Replace ``text`` over (line, start, end) of the document: an incremental change."""
    line, start, end = at
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(lsp.Position(line, start), lsp.Position(line, end)),
                    text=text,
                )
            ],
        )
    )


def _codes(diagnostics: list[lsp.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


# ---------------------------------------------------------------------------
# Diagnostics
# ---------------------------------------------------------------------------


async def test_capabilities(client: LanguageClient) -> None:
    result = _INITIALIZED[id(client)]
    assert result.server_info is not None
    assert result.server_info.name == "bernstein-signals"
    capabilities = result.capabilities
    sync = capabilities.text_document_sync
    assert isinstance(sync, lsp.TextDocumentSyncOptions)
    assert sync.change == lsp.TextDocumentSyncKind.Incremental
    assert capabilities.hover_provider
    assert capabilities.completion_provider is not None
    assert ":" in (capabilities.completion_provider.trigger_characters or [])
    assert capabilities.code_action_provider


async def test_log_diagnostics_have_utf16_ranges_codes_and_severities(
    client: LanguageClient,
) -> None:
    text = (
        'BERNSTEIN:FAILED {"reason":"naïve 🎉 ok","code":"😀😀"} trailing\n'
        'BERNSTEIN:QUESTION {"id":"🎉","question":""}\n'
        "BERNSTEIN:COMPLETED\n"
    )
    diagnostics = await _open(client, "file:///run.log", text)
    by_code = {str(d.code): d for d in diagnostics}
    assert set(by_code) == {"BS211", "BS101"}
    trailing = by_code["BS211"]
    # 'naïve 🎉 ok' and '😀😀': the emoji count twice in UTF-16, 'ï' once.
    prefix = 'BERNSTEIN:FAILED {"reason":"naïve 🎉 ok","code":"😀😀"}'
    assert trailing.range.start == lsp.Position(0, len(prefix.encode("utf-16-le")) // 2)
    assert trailing.range.end.character == len(text.split("\n", 1)[0].encode("utf-16-le")) // 2
    assert trailing.severity == lsp.DiagnosticSeverity.Warning
    schema = by_code["BS101"]
    start = len('BERNSTEIN:QUESTION {"id":"🎉","question":'.encode("utf-16-le")) // 2
    assert schema.range == lsp.Range(lsp.Position(1, start), lsp.Position(1, start + 2))
    assert schema.severity == lsp.DiagnosticSeverity.Error
    assert all(str(d.code) in CODES and d.source == "bernstein-signals" for d in diagnostics)


async def test_incremental_edits_update_diagnostics(client: LanguageClient) -> None:
    uri = "file:///edit.log"
    diagnostics = await _open(client, uri, "BERNSTEIN:COMPLETE\n")
    assert _codes(diagnostics) == ["BS216", "BS301"]
    _change(client, uri, 2, at=(0, 18, 18), text="D")
    assert await _diagnostics(client, uri, 2) == []
    _change(client, uri, 3, at=(0, 0, 0), text="  ")
    assert _codes(await _diagnostics(client, uri, 3)) == ["BS208", "BS301"]


async def test_rapid_edits_publish_only_the_last_version(client: LanguageClient) -> None:
    uri = "file:///typing.log"
    await _open(client, uri, "\n")
    typed = "BERNSTEIN:QUESTION {}"
    for index, char in enumerate(typed):
        _change(client, uri, index + 2, at=(0, index, index), text=char)
    final = len(typed) + 1
    diagnostics = await _diagnostics(client, uri, final)
    assert _codes(diagnostics) == ["BS101", "BS301"]


async def test_shell_script_diagnostics(client: LanguageClient) -> None:
    script = (
        "#!/bin/sh\n"
        "printf 'BERNSTEIN:COMPLETE\\n'\n"
        'printf \'BERNSTEIN:FAILED {"reason":"exit %d"}\\n\' "$rc"\n'
        'printf \'BERNSTEIN:PLAN_READY {"path":"%s"}\\n\' "$plan"\n'
        'echo \'BERNSTEIN:PLAN_READY {"path":"/etc/passwd"}\'\n'
        "bernstein_question 'Apply?' --option yes\n"
        "bernstein_plan_ready ../outside.md\n"
        "bernstein_blocked\n"
        'bernstein_question "$q" --id "$id"\n'
        "bernstein_completd\n"
    )
    diagnostics = await _open(client, "file:///wrapper.sh", script, "shellscript")
    found = sorted((d.range.start.line, str(d.code)) for d in diagnostics)
    assert found == [
        (1, "BS216"),
        (4, "BS101"),
        (5, "BS501"),
        (6, "BS101"),
        (7, "BS502"),
        (9, "BS504"),
    ]
    unknown_kind = next(d for d in diagnostics if d.code == "BS216")
    assert unknown_kind.range.start.character == len("printf 'BERNSTEIN:")
    traversal = next(d for d in diagnostics if d.code == "BS101" and d.range.start.line == 6)
    assert traversal.range.start.character == len("bernstein_plan_ready ")


async def test_settings_select_ignore_and_lenient(client: LanguageClient) -> None:
    text = "  BERNSTEIN:COMPLETED\nBERNSTEIN:COMPLETE\n"
    assert _codes(await _open(client, "file:///a.log", text)) == ["BS208", "BS216", "BS301"]
    client.set_configuration(
        {"lenient": True, "ignore": ["kind-not-in-vocabulary"]}, section=SECTION
    )
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    diagnostics = await _diagnostics(client, "file:///a.log", 1)
    assert [(str(d.code), d.severity) for d in diagnostics] == [
        ("BS208", lsp.DiagnosticSeverity.Information)
    ]


# ---------------------------------------------------------------------------
# Hover, completion, code actions
# ---------------------------------------------------------------------------


async def _hover(client: LanguageClient, uri: str, line: int, character: int) -> str | None:
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
    )
    if result is None:
        return None
    assert isinstance(result.contents, lsp.MarkupContent)
    return result.contents.value


async def test_hover(client: LanguageClient) -> None:
    uri = "file:///hover.log"
    await _open(client, uri, 'BERNSTEIN:QUESTION {"question":"Go?","id":"q-1","x":1}\nplain\n')
    kind = await _hover(client, uri, 0, 12)
    assert kind is not None
    assert "**QUESTION** (not terminal)" in kind
    assert "The adapter needs an answer" in kind
    assert "| `options` | `list[str] | null` | no |" in kind
    key = await _hover(client, uri, 0, 22)
    assert key is not None
    assert key.startswith("**question**: `str` (required, QUESTION)")
    extra = await _hover(client, uri, 0, 50)
    assert extra is not None
    assert "adapter-specific extra" in extra
    assert await _hover(client, uri, 1, 2) is None

    script_uri = "file:///hover.sh"
    await _open(
        client,
        script_uri,
        "bernstein_question 'Go?' --id q\nprintf 'BERNSTEIN:BLOCKED {\"reason\":\"x\"}\\n'\n",
        "shellscript",
    )
    usage = await _hover(client, script_uri, 0, 3)
    assert usage is not None
    assert "```sh\nbernstein_question QUESTION [--options VALUE]... [--id VALUE]\n```" in usage
    # The help is wrapped to a width: compare its words.
    assert "Identifies the question so that the reply can" in " ".join(usage.split())
    in_printf = await _hover(client, script_uri, 1, 20)
    assert in_printf is not None
    assert "**BLOCKED**" in in_printf


async def _complete(
    client: LanguageClient, uri: str, line: int, character: int
) -> list[lsp.CompletionItem]:
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
    )
    assert isinstance(result, lsp.CompletionList)
    return list(result.items)


async def test_completion(client: LanguageClient) -> None:
    uri = "file:///complete.log"
    await _open(client, uri, 'BERNSTEIN:PL\nBERNSTEIN:QUESTION {"question":"x", \n')
    kinds = await _complete(client, uri, 0, 12)
    assert {item.label for item in kinds} >= {"PLAN_DRAFT", "PLAN_READY", "COMPLETED"}
    edit = kinds[0].text_edit
    assert isinstance(edit, lsp.TextEdit)
    assert edit.range == lsp.Range(lsp.Position(0, 10), lsp.Position(0, 12))
    fields = await _complete(client, uri, 1, 36)
    assert {item.label for item in fields} == {"options", "id"}
    options = next(item for item in fields if item.label == "options")
    assert options.detail == "list[str] | null"
    assert isinstance(options.text_edit, lsp.TextEdit)
    assert options.text_edit.new_text == '"options":'

    script = "file:///complete.sh"
    await _open(client, script, "bernstein_q\nbernstein_question 'Go?' --\n", "shellscript")
    helpers = await _complete(client, script, 0, 11)
    assert [item.label for item in helpers] == ["bernstein_question"]
    assert helpers[0].kind == lsp.CompletionItemKind.Function
    flags = await _complete(client, script, 1, 27)
    assert {item.label for item in flags} == {"--options", "--id"}


async def test_code_actions(client: LanguageClient) -> None:
    uri = "file:///fix.log"
    diagnostics = await _open(client, uri, "bernstein:COMPLETED\n")
    fixable = [d for d in diagnostics if d.code == "BS201"]
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            lsp.CodeActionContext(diagnostics=fixable),
        )
    )
    assert actions is not None
    [action] = actions
    assert isinstance(action, lsp.CodeAction)
    assert action.kind == lsp.CodeActionKind.QuickFix
    assert action.edit is not None
    assert action.edit.changes is not None
    assert {k: list(v) for k, v in action.edit.changes.items()} == {
        uri: [
            lsp.TextEdit(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 19)), "BERNSTEIN:COMPLETED")
        ]
    }

    script = "file:///rewrite.sh"
    text = (
        "printf 'BERNSTEIN:QUESTION %s\\n' "
        '\'{"question":"Apply migration?","options":["yes","no"],"id":"q-001"}\'\n'
        'printf \'BERNSTEIN:FAILED {"reason":"exit %d"}\\n\' "$rc"\n'
    )
    await _open(client, script, text, "shellscript")
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(script),
            lsp.Range(lsp.Position(0, 0), lsp.Position(1, 0)),
            lsp.CodeActionContext(diagnostics=[]),
        )
    )
    assert actions is not None
    edits = [
        change.new_text
        for action in actions
        if isinstance(action, lsp.CodeAction) and action.edit and action.edit.changes
        for change in action.edit.changes[script]
    ]
    assert edits == [
        "bernstein_question --options yes --options no --id q-001 -- 'Apply migration?'",
        'bernstein_failed --reason "exit $rc"',
    ]


# ---------------------------------------------------------------------------
# Robustness: big documents, bad requests
# ---------------------------------------------------------------------------


async def test_a_ten_megabyte_line_does_not_stall_the_server(client: LanguageClient) -> None:
    uri = "file:///huge.log"
    text = 'BERNSTEIN:PLAN_DRAFT {"markdown":"' + "x" * (10 << 20) + '"}\nBERNSTEIN:COMPLETED\n'
    diagnostics = await _open(client, uri, text)
    assert _codes(diagnostics) == ["BS002"]
    assert await _hover(client, uri, 1, 12) is not None


async def test_a_large_log_does_not_block_other_requests(client: LanguageClient) -> None:
    uri = "file:///big.log"
    lines = [f"worker {n} did a thing" for n in range(100_000)]
    lines[50_000] = "BERNSTEIN:COMPLETE"
    # Listen before opening: the diagnostics may arrive while the hover is answered.
    published = asyncio.ensure_future(_diagnostics(client, uri, 1))
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "plaintext", 1, "\n".join(lines) + "\n")
        )
    )
    small = "file:///small.log"
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(small, "plaintext", 1, "BERNSTEIN:COMPLETED\n")
        )
    )
    assert await _hover(client, small, 0, 12) is not None
    diagnostics = await published
    assert [(d.range.start.line, str(d.code)) for d in diagnostics] == [
        (50_000, "BS216"),
        (99_999, "BS301"),
    ]


async def test_malformed_requests_get_errors_not_crashes(client: LanguageClient) -> None:
    writer = client.protocol.writer
    assert writer is not None
    bodies = [
        b"{not json at all",
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": "bad-1",
                "method": "textDocument/hover",
                "params": {"textDocument": {"uri": 7}, "position": "nowhere"},
            }
        ).encode(),
        json.dumps(
            {"jsonrpc": "2.0", "id": "bad-2", "method": "textDocument/completion", "params": None}
        ).encode(),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": "file:///nope.log", "version": 2},
                    "contentChanges": [{"text": 5}],
                },
            }
        ).encode(),
    ]
    for body in bodies:
        writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    uri = "file:///still-alive.log"
    assert _codes(await _open(client, uri, "BERNSTEIN:COMPLETE\n")) == ["BS216", "BS301"]
    assert await _hover(client, uri, 5, 99) is None
    assert await _hover(client, uri, 0, 12) is None  # an unknown kind has no hover


async def test_positions_and_data_out_of_range_get_answers(client: LanguageClient) -> None:
    """Issue 10: these raised IndexError in the server (past the end of a shell document,
    a code action whose data points outside the document)."""
    script = "file:///short.sh"
    await _open(client, script, "bernstein_question 'Go?'\n", "shellscript")
    assert await _hover(client, script, 40, 3) is None
    assert await _hover(client, script, 0, 500) is None
    assert await _complete(client, script, 40, 3) == []
    bad = [
        {"edit": [-3, 0, -1, 2, "x"]},
        {"edit": [99, 0, 99, 2, "x"]},
        {"edit": [0, 0, 0, 500, "x"]},
        {"edit": [0, "a", 0, 2, "x"]},
        {"edit": [0, 0, 0, 2]},
        {"edit": [True, 0, 0, 2, "x"]},
        {"edit": [0, 0, 0, 2, None]},
        {"edit": "nope"},
        [1, 2],
    ]
    diagnostics = [
        lsp.Diagnostic(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)), "m", data=data)
        for data in bad
    ]
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(script),
            lsp.Range(lsp.Position(0, 0), lsp.Position(2**31 - 1, 0)),
            lsp.CodeActionContext(diagnostics=diagnostics),
        )
    )
    assert actions is not None
    # None of them is this document's edit: each is dropped, none clamped into the text.
    assert [a for a in actions if isinstance(a, lsp.CodeAction) and a.diagnostics] == []


@pytest.mark.parametrize(
    ("name", "guess"),
    [
        ("bernstein_q", None),  # issue 16 item 13: was "did you mean bernstein_run?"
        ("bernstein_xyz", None),
        ("bernstein_completd", "bernstein_completed"),
        ("bernstein_questoin", "bernstein_question"),
        ("bernstein_emmit", "bernstein_emit"),
    ],
)
def test_unknown_helpers_get_a_suggestion_only_when_close(name: str, guess: str | None) -> None:
    from bernstein_signals_toolkit.tools.lsp import analysis

    (finding,) = analysis.analyse(f"#!/bin/sh\n{name}\n", shell=True, settings=analysis.Settings())
    assert finding.code == "BS504"
    assert ("did you mean" in finding.message) is (guess is not None)
    if guess is not None:
        assert finding.message.endswith(f"did you mean {guess}?")


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("", []),
        ("just some notes\nabout Leonard Bernstein\n", []),  # issue 16 item 12: not a run
        ('BERNSTEIN:QUESTION {"question":"Go?"}\n', ["BS301"]),
        ("BERNSTEIN:COMPLETE\n", ["BS216", "BS301"]),
        ("BERNSTEIN:COMPLETED\n", []),
    ],
)
def test_only_a_document_with_signals_is_a_run(text: str, codes: list[str]) -> None:
    from bernstein_signals_toolkit.tools.lsp import analysis

    findings = analysis.analyse(text, shell=False, settings=analysis.Settings())
    assert sorted(f.code or "" for f in findings) == codes


@pytest.mark.parametrize(
    ("call", "found"),
    [
        # Issue 16 item 1: values that start with "-" are values, as the helper reads them.
        ("bernstein_plan_draft '---\ntitle: x' --path .sdd/a.md", []),
        ("bernstein_blocked -3 --hint '- step 1'", []),
        ("bernstein_question --id -q --options -no 'Apply?'", []),
        ("bernstein_question q --help", []),
        ("bernstein_question q --bogus x", [("BS501", "unknown option --bogus")]),
        ("bernstein_question q --idd x", [("BS501", "did you mean --id?")]),
        ("bernstein_question -- q --id x", [("BS503", "--id after --: options go before --")]),
        ("bernstein_question q --id a --id b", [("BS503", "--id given twice")]),
        ("bernstein_question q x", [("BS503", "too many arguments")]),
        ("bernstein_completed x", [("BS503", "takes no positional argument")]),
        ("bernstein_question q --id", [("BS502", "--id needs a value")]),
        ("bernstein_question --id x", [("BS502", "missing argument(s): QUESTION")]),
        ('bernstein_question "$q" --options "$a" --options b', []),
        ("bernstein_ask --var A '- step' --id -3 --timeout 5", []),
        ("bernstein_ask Q --bogus x", [("BS501", "options: --var, --timeout, --options, --id")]),
        ("bernstein_ask Q --var", [("BS502", "--var needs a value")]),
        ("bernstein_ask --var A", [("BS502", "missing argument(s): QUESTION")]),
        ("bernstein_ask ''", [("BS101", "QUESTION payload at /question")]),
        # A word that may be zero or several arguments: no count is known after it.
        ('bernstein_completed "$@"', []),
        ('bernstein_question "$@"', []),
        ('bernstein_question --id "${ids[@]}"', []),
        ("bernstein_question $args", []),
        ('bernstein_question q x "$@"', [("BS503", "too many arguments")]),
        ('bernstein_question "$@" --bogus', []),
        ('bernstein_completed "$*"', [("BS503", "takes no positional argument")]),
        ('bernstein_completed "$x"', [("BS503", "takes no positional argument")]),
        # bernstein_ask's own options: given twice, and their values, as the helper checks them.
        ("bernstein_ask q --timeout 1 --timeout 2", [("BS503", "--timeout given twice")]),
        ("bernstein_ask q --var A --var B", [("BS503", "--var given twice")]),
        ("bernstein_ask q --timeout 08", [("BS502", "--timeout: '08' is not a number")]),
        ("bernstein_ask q --timeout abc", [("BS502", "--timeout: 'abc' is not a number")]),
        ("bernstein_ask q --var 1x", [("BS502", "--var: '1x' is not a variable name")]),
        ("bernstein_ask q --var _bsig_x", [("BS502", "--var: '_bsig_x' is not a variable")]),
        ('bernstein_ask q --var "$v" --timeout "$t"', []),
        ("bernstein_ask q --var A_1 --timeout 0.5", []),
    ],
)
def test_helper_calls_are_read_by_the_calling_convention(
    call: str, found: list[tuple[str, str]]
) -> None:
    """The language server reads a call with the helpers' own signature model and rule."""
    from bernstein_signals_toolkit.tools.lsp import analysis

    text = "#!/bin/sh\n" + call.replace("\n", "\\n") + "\n"
    findings = analysis.analyse(text, shell=True, settings=analysis.Settings())
    assert [f.code for f in findings] == [code for code, _ in found]
    for finding, (_, message) in zip(findings, found, strict=True):
        assert message in finding.message, finding.message


def test_a_required_array_is_an_option_for_the_language_server_too(tmp_path: Path) -> None:
    """A required array is a repeated option, never positional, in the helper and the server."""
    from bernstein_signals_toolkit.tools.lsp import analysis

    schemas = tmp_path / "schema"
    shutil.copytree(Path(__file__).resolve().parents[3] / "schema", schemas)
    tags = {"description": "Tags.", "type": "array", "items": {"type": "string"}}
    kind = kind_schema("TAGGED", {"tags": tags}, ["tags"])
    (schemas / "tagged.schema.json").write_text(json.dumps(kind))
    settings = analysis.Settings(vocabulary=str(schemas))
    ok = analysis.analyse(
        "#!/bin/sh\nbernstein_tagged --tags a --tags b\n", shell=True, settings=settings
    )
    assert ok == []
    (extra,) = analysis.analyse("#!/bin/sh\nbernstein_tagged a\n", shell=True, settings=settings)
    assert extra.code == "BS503"
