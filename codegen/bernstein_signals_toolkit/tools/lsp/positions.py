"""Columns and edits as LSP counts them: any value a client sends is clamped or refused."""

from __future__ import annotations

__all__ = ["code_point_column", "edit_of", "utf16_column"]


def utf16_column(text: str, column: int) -> int:
    """A code-point column as UTF-16 code units, as LSP counts by default."""
    prefix = text[:column]
    return column + sum(1 for char in prefix if ord(char) > 0xFFFF)


def code_point_column(text: str, units: int) -> int:
    """A UTF-16 column as a code-point column."""
    count = 0
    for index, char in enumerate(text):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(text)


def edit_of(data: object) -> tuple[int, int, int, int, str] | None:
    """The edit a diagnostic's data carries back to us; None for anything we did not write.

    Clients echo ``data`` verbatim, but a client (or a stale document) may send
    anything: only four non-negative ints and a string are taken.
    """
    edit = data.get("edit") if isinstance(data, dict) else None
    if not isinstance(edit, list) or len(edit) != 5:
        return None
    *numbers, text = edit
    if not isinstance(text, str):
        return None
    if not all(type(n) is int and n >= 0 for n in numbers):
        return None
    line, start, end_line, end = numbers
    return line, start, end_line, end, text
