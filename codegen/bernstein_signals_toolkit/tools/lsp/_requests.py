"""The requests the server answers (hover, completion, code actions): :mod:`.assist` and
:mod:`.analysis` answers turned into LSP types over the document's positions.

Each handler takes the server first, named ``ls`` (how pygls passes it);
:func:`register` gives a server all three, with their options.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Protocol, TypeVar

from lsprotocol import types as lsp

from . import analysis, assist
from .positions import edit_of

if TYPE_CHECKING:
    from ..runtime_vocabulary import RuntimeVocabulary
    from ._documents import DocumentServer
    from .server import SignalsLanguageServer

__all__ = ["code_action", "completion", "hover", "register"]


_Answer_co = TypeVar("_Answer_co", covariant=True)


class _Assist(Protocol[_Answer_co]):
    """:func:`.assist.hover` or :func:`.assist.completions`."""

    def __call__(
        self,
        document: str,
        line: int,
        column: int,
        *,
        shell: bool,
        vocabulary: RuntimeVocabulary | None = None,
    ) -> _Answer_co: ...


def _at_cursor(
    ls: SignalsLanguageServer,
    params: lsp.HoverParams | lsp.CompletionParams,
    answer: _Assist[_Answer_co],
) -> _Answer_co:
    """What ``answer`` says at the request's position, in the document's kind and vocabulary."""
    uri = params.text_document.uri
    line, column = ls.position(uri, params.position)
    return answer(
        ls.workspace.get_text_document(uri).source,
        line,
        column,
        shell=ls.is_shell(uri),
        vocabulary=ls.runtime_vocabulary(),
    )


def hover(ls: SignalsLanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    uri = params.text_document.uri
    found = _at_cursor(ls, params, assist.hover)
    if found is None:
        return None
    return lsp.Hover(
        contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=found.markdown),
        range=ls.lsp_range(uri, found.line, found.start, found.line, found.end),
    )


def completion(ls: SignalsLanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    uri = params.text_document.uri
    found = _at_cursor(ls, params, assist.completions)
    items = [
        lsp.CompletionItem(
            label=item.label,
            kind=lsp.CompletionItemKind.Function
            if item.is_function
            else lsp.CompletionItemKind.Property
            if item.insert.startswith('"')
            else lsp.CompletionItemKind.EnumMember,
            detail=item.detail,
            documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=item.documentation),
            text_edit=lsp.TextEdit(
                range=ls.lsp_range(uri, item.line, item.start, item.line, item.end),
                new_text=item.insert,
            ),
        )
        for item in found
    ]
    return lsp.CompletionList(is_incomplete=False, items=items)


def _replacing(
    uri: str,
    edit: lsp.TextEdit,
    title: str,
    kind: lsp.CodeActionKind,
    diagnostic: lsp.Diagnostic | None = None,
) -> lsp.CodeAction:
    """An action that makes one edit; a quick fix names the diagnostic it fixes."""
    return lsp.CodeAction(
        title=title,
        kind=kind,
        diagnostics=None if diagnostic is None else [diagnostic],
        is_preferred=None if diagnostic is None else True,
        edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
    )


def code_action(ls: SignalsLanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    actions = []
    for diagnostic in params.context.diagnostics:
        found = edit_of(diagnostic.data)
        if found is None:
            continue
        line, start, end_line, end, text = found
        lines = ls.lines(uri)
        if not line <= end_line < len(lines) or start > len(lines[line]):
            continue  # not this version's: an edit there would damage the document
        if end > len(lines[end_line]):
            continue
        with contextlib.suppress(TypeError, ValueError):
            edit = lsp.TextEdit(ls.lsp_range(uri, line, start, end_line, end), text)
            title = f"Replace with: {text}"
            actions.append(_replacing(uri, edit, title, lsp.CodeActionKind.QuickFix, diagnostic))
    if ls.is_shell(uri):
        lines = ls.lines(uri)
        first, last = params.range.start.line, params.range.end.line
        for row in range(max(first, 0), min(last + 1, len(lines))):
            runtime = ls.runtime_vocabulary()
            for line, start, end, text in analysis.rewrite_line(lines[row], row, runtime):
                edit = lsp.TextEdit(ls.lsp_range(uri, line, start, line, end), text)
                title = f"Rewrite as {text.split()[0]} call"
                actions.append(_replacing(uri, edit, title, lsp.CodeActionKind.RefactorRewrite))
    return actions


def register(server: DocumentServer) -> None:
    """Answer hover, completion and code action requests on ``server``."""
    server.feature(lsp.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionOptions(trigger_characters=[":", '"', "-", "_", "{", ","]),
    )(completion)
    server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(
            code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite]
        ),
    )(code_action)
