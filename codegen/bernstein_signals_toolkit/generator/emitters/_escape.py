"""Escaping functions, one per target context: the only way a source string reaches output.

Every string from schema/ or grammar/ that an emitter writes goes through one
of these, chosen by where it lands; identifiers go through :mod:`..names`.
"""

from __future__ import annotations

import json
import re

from bernstein_signals_toolkit.toolkit_errors import one_line

__all__ = [
    "comment_text",
    "html_comment_text",
    "js_comment_text",
    "js_string",
    "markdown_cell",
    "markdown_code",
    "markdown_fence",
    "markdown_text",
    "python_docstring",
    "shell_double_quoted",
    "shell_single_quoted",
]

_DOCSTRING_ESCAPES = {
    ord("\\"): "\\\\",
    ord("\r"): "\\r",
    **{code: f"\\x{code:02x}" for code in (*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F)},
    0x85: "\\x85",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}
"""Nothing but ``\\n`` and tab starts a line or hides; a backslash escapes nothing by chance."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_CLOSING_QUOTE = re.compile(r'"(?=")|(?<=")"|"$')
"""A quote next to another one, or last: only these could end a triple-quoted string."""


def _visible(text: str) -> str:
    """One line of UTF-8 text: line breaks, controls and lone surrogates (from file names
    that are not UTF-8) as escapes."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", one_line(text))


def python_docstring(text: str) -> str:
    """``text`` as the body of a ``\"\"\"...\"\"\"`` docstring; lone surrogates as escapes."""
    escaped = _CLOSING_QUOTE.sub(r'\\"', text.translate(_DOCSTRING_ESCAPES))
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", escaped)


def comment_text(text: str) -> str:
    """``text`` as the rest of one ``#`` comment line (Python and shell): no line break survives."""
    return _visible(text)


def html_comment_text(text: str) -> str:
    """One line inside ``<!-- ... -->``: ``>`` is an entity, so ``-->`` cannot close it."""
    return _visible(text).replace(">", "&gt;")


def shell_single_quoted(text: str) -> str:
    """A single-quoted shell word; a shell word cannot carry NUL, so that is a ValueError."""
    if "\0" in text:
        raise ValueError("a shell word cannot hold a NUL character")
    return "'" + text.replace("'", "'\"'\"'") + "'"


def shell_double_quoted(text: str) -> str:
    """``text`` to paste between double quotes: ``$``, backquote, ``"`` and ``\\`` escaped."""
    if "\0" in text:
        raise ValueError("a shell word cannot hold a NUL character")
    return re.sub(r'([$`"\\])', r"\\\1", text)


_MARKDOWN_HTML = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}
_BLOCK_START = re.compile(r"^(\s*)([#>\-+*=|~`_:]|\d+[.)])")


def markdown_text(text: str) -> str:
    """``text`` as one Markdown paragraph: no HTML, no block of its own, no line of its own."""
    flat = _visible(text.replace("\r\n", " ").replace("\n", " ")).translate(_MARKDOWN_HTML)
    return _BLOCK_START.sub(lambda m: m.group(2)[:-1] + "\\" + m.group(2)[-1], flat, count=1)


def markdown_cell(text: str) -> str:
    """``text`` inside a table cell: paragraph text with ``|`` escaped."""
    return markdown_text(text).replace("|", "\\|")


def markdown_code(text: str) -> str:
    """``text`` as one inline code span: the fence is longer than any backquote run in it."""
    flat = _visible(text)
    longest = max((len(run) for run in re.findall("`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith(("`", " ")) or flat.endswith(("`", " ")) else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def markdown_fence(lines: list[str]) -> list[str]:
    """``lines`` as a fenced code block whose fence no line can close."""
    flat = [_visible(line) for line in lines]
    longest = max((len(run) for line in flat for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, *flat, fence]


def js_string(text: str) -> str:
    """``text`` as a double-quoted JavaScript (and JSON, and TypeScript literal type) string.

    ASCII only: every other character, U+2028, U+2029 and lone surrogates
    included, is a ``\\u`` escape, which each of the three reads back as ``text``.
    """
    return json.dumps(text, ensure_ascii=True)


def js_comment_text(text: str) -> str:
    """One line inside a ``/* ... */`` or ``//`` comment: no line terminator, no ``*/``."""
    return _visible(text).replace("*/", "*\\/")
