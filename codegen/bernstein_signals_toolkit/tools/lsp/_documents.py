"""The open documents as the server reads them: lines split once per version, positions
converted between LSP's UTF-16 columns and code points, and clamped so any input is valid.
"""

from __future__ import annotations

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from . import analysis
from .positions import code_point_column, utf16_column

__all__ = ["DocumentServer"]


class DocumentServer(LanguageServer):
    """A language server that keeps each open document's lines, split once per version."""

    def __init__(self, name: str, version: str) -> None:
        super().__init__(name, version)
        self._lines: dict[str, tuple[int | None, list[str]]] = {}

    def is_shell(self, uri: str) -> bool:
        document = self.workspace.get_text_document(uri)
        return analysis.is_shell_document(uri, document.language_id, document.source)

    def lines(self, uri: str) -> list[str]:
        """The document's lines, split once per version (big logs are split only once)."""
        document = self.workspace.get_text_document(uri)
        cached = self._lines.get(uri)
        if cached is None or cached[0] != document.version:
            cached = (document.version, document.source.split("\n"))
            self._lines[uri] = cached
        return cached[1]

    def forget(self, uri: str) -> None:
        """Drop a closed document's lines."""
        self._lines.pop(uri, None)

    def line_text(self, uri: str, row: int) -> str:
        """A line of the document; "" for any row it does not have (negative or past the end)."""
        lines = self.lines(uri)
        return lines[row] if 0 <= row < len(lines) else ""

    def position(self, uri: str, position: lsp.Position) -> tuple[int, int]:
        text = self.line_text(uri, position.line)
        return position.line, code_point_column(text, max(position.character, 0))

    def lsp_range(self, uri: str, line: int, start: int, end_line: int, end: int) -> lsp.Range:
        """An LSP range; rows and columns are clamped into the document, so any input is valid."""
        last = max(len(self.lines(uri)) - 1, 0)

        def at(row: int, column: int) -> lsp.Position:
            row = min(max(row, 0), last)
            text = self.line_text(uri, row)
            return lsp.Position(row, utf16_column(text, min(max(column, 0), len(text))))

        return lsp.Range(at(line, start), at(end_line, end))
