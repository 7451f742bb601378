"""Just enough of a POSIX shell lexer to find printf/echo signals and helper calls in scripts.

It reads one line at a time, splits it into simple commands and words, and
keeps, for every character a word's value holds, the column it came from.
Anything the script computes at run time (``$var``, ``$(...)``, backticks) is
an *unknown* piece: checks skip whatever an unknown value could change.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

__all__ = ["Command", "Origin", "Piece", "Word", "commands", "render_echo", "render_printf"]

UNKNOWN = "\uffff"
"""Stands for one unknown value in rendered text (a noncharacter: never in real output)."""
PLACEHOLDER = "0"
"""Stands for an unknown value in a checked payload: valid in a JSON string and as a number."""

_SEPARATORS = frozenset(";&|()")
_KEYWORDS = frozenset(
    {
        "if",
        "then",
        "else",
        "elif",
        "do",
        "while",
        "until",
        "!",
        "command",
        "builtin",
        "exec",
        "time",
        "{",
    }
)
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]")
_SPREADS = re.compile(r"\$@|\$\{!?(?:@|[A-Za-z_][A-Za-z0-9_]*\[@\])[^}]*\}")
"""A quoted expansion that is one word per item, zero or more: "$@", "${a[@]}", "${@:2}"."""


@dataclass
class Piece:
    """Characters of a word's value, each with its source column, or one unknown value."""

    chars: list[str]
    """Kept as a list while the lexer appends: growing a str attribute copies it each time."""
    columns: list[int]
    known: bool = True
    spread: bool = False
    """An unknown value that may become zero or several words: unquoted, or "$@"."""

    @property
    def text(self) -> str:
        return "".join(self.chars)


@dataclass
class Word:
    line: int
    start: int
    end: int
    pieces: list[Piece] = field(default_factory=list)

    @property
    def literal(self) -> str | None:
        """The word's value when the script fixes it, else None."""
        if all(piece.known for piece in self.pieces):
            return "".join(piece.text for piece in self.pieces)
        return None

    def add(self, char: str, column: int) -> None:
        if self.pieces and self.pieces[-1].known:
            self.pieces[-1].chars.append(char)
            self.pieces[-1].columns.append(column)
        else:
            self.pieces.append(Piece([char], [column]))

    @property
    def spread(self) -> bool:
        """Whether the word may be zero or several arguments at run time ("$@", $x)."""
        return any(piece.spread for piece in self.pieces)

    def add_unknown(self, start: int, end: int, spread: bool = False) -> None:
        self.pieces.append(Piece([UNKNOWN], [start, end], known=False, spread=spread))


@dataclass
class Command:
    words: list[Word]

    @property
    def name(self) -> str | None:
        return self.words[0].literal if self.words else None


def _skip_expansion(text: str, pos: int) -> int:
    """The end of the ``$...`` expansion that starts at ``pos``."""
    nxt = text[pos + 1 : pos + 2]
    if nxt in ("(", "{"):
        closing = ")" if nxt == "(" else "}"
        depth, pos = 0, pos + 1
        while pos < len(text):
            if text[pos] == nxt:
                depth += 1
            elif text[pos] == closing:
                depth -= 1
                if depth == 0:
                    return pos + 1
            pos += 1
        return pos
    match = _NAME.match(text, pos + 1)
    return match.end() if match else pos + 1


def _backquote_end(text: str, pos: int) -> int:
    """The end of the backquoted command substitution starting at ``pos`` (unclosed: the line's)."""
    closing = text.find("`", pos + 1)
    return len(text) if closing < 0 else closing + 1


def _words(text: str, line: int) -> Iterator[Word | str]:
    """Words and separator characters of one line."""
    pos, size = 0, len(text)
    while pos < size:
        char = text[pos]
        if char in " \t":
            pos += 1
            continue
        if char == "#":
            return
        if char in _SEPARATORS:
            yield char
            pos += 1
            continue
        word = Word(line, pos, pos)
        while pos < size and text[pos] not in " \t" and text[pos] not in _SEPARATORS:
            char = text[pos]
            if char == "\\" and pos + 1 < size:
                word.add(text[pos + 1], pos + 1)
                pos += 2
            elif char == "'":
                end = text.find("'", pos + 1)
                end = size if end < 0 else end
                for index in range(pos + 1, end):
                    word.add(text[index], index)
                pos = end + 1
            elif char == '"':
                pos += 1
                while pos < size and text[pos] != '"':
                    if text[pos] == "\\" and pos + 1 < size and text[pos + 1] in '"\\$`':
                        word.add(text[pos + 1], pos + 1)
                        pos += 2
                    elif text[pos] in "$`":
                        end = (
                            _skip_expansion(text, pos)
                            if text[pos] == "$"
                            else _backquote_end(text, pos)
                        )
                        word.add_unknown(pos, end, _SPREADS.fullmatch(text[pos:end]) is not None)
                        pos = end
                    else:
                        word.add(text[pos], pos)
                        pos += 1
                pos += 1
            elif char == "$":
                end = _skip_expansion(text, pos)
                word.add_unknown(pos, end, spread=True)
                pos = end
            elif char == "`":
                end = _backquote_end(text, pos)
                word.add_unknown(pos, end, spread=True)
                pos = end
            else:
                word.add(char, pos)
                pos += 1
        word.end = min(pos, size)
        yield word


def commands(text: str) -> Iterator[Command]:
    """Simple commands, line by line, without leading keywords or assignments."""
    for number, line in enumerate(text.split("\n")):
        current: list[Word] = []
        for item in _words(line, number):
            if isinstance(item, str):
                if current:
                    yield Command(current)
                current = []
                continue
            literal = item.literal
            if (
                not current
                and literal is not None
                and (literal in _KEYWORDS or _ASSIGNMENT.match(literal))
            ):
                continue
            current.append(item)
        if current:
            yield Command(current)


# ---------------------------------------------------------------------------
# What printf and echo would print
# ---------------------------------------------------------------------------


class Origin(NamedTuple):
    """Where in the script one rendered character comes from."""

    line: int
    start: int
    """Its first column."""
    end: int
    """The column after it (an unknown value spans its whole expansion)."""


_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "\\": "\\",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    '"': '"',
    "'": "'",
}
_CONVERSION = re.compile(r"%[-+ #0]*[0-9]*(?:\.[0-9]*)?([sdibuxXoc%])")


class Rendered:
    """Text a command prints, with the script position of every character."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.origins: list[Origin] = []

    def put(self, char: str, origin: Origin) -> None:
        self.text.append(char)
        self.origins.append(origin)

    def put_word(self, word: Word) -> None:
        for piece in word.pieces:
            if piece.known:
                for char, column in zip(piece.chars, piece.columns, strict=True):
                    self.put(char, Origin(word.line, column, column + 1))
            else:
                self.put(UNKNOWN, Origin(word.line, piece.columns[0], piece.columns[1]))

    def lines(self) -> Iterator[tuple[str, list[Origin]]]:
        text = "".join(self.text)
        start = 0
        for part in text.split("\n"):
            yield part, self.origins[start : start + len(part)]
            start += len(part) + 1


def _flat(word: Word) -> list[tuple[str, Origin]]:
    out: list[tuple[str, Origin]] = []
    for piece in word.pieces:
        if piece.known:
            out += [
                (c, Origin(word.line, col, col + 1))
                for c, col in zip(piece.chars, piece.columns, strict=True)
            ]
        else:
            out.append((UNKNOWN, Origin(word.line, piece.columns[0], piece.columns[1])))
    return out


def render_printf(words: list[Word]) -> Rendered:
    """What ``printf FORMAT ARG...`` prints (the words after ``printf``)."""
    rendered = Rendered()
    if words and words[0].literal == "--":
        words = words[1:]
    if not words:
        return rendered
    fmt, args = _flat(words[0]), iter(words[1:])
    index = 0
    while index < len(fmt):
        char, origin = fmt[index]
        if char == "\\" and index + 1 < len(fmt) and fmt[index + 1][0] in _ESCAPES:
            rendered.put(_ESCAPES[fmt[index + 1][0]], origin)
            index += 2
            continue
        if char == "%":
            spec = "".join(c for c, _ in fmt[index : index + 12])
            match = _CONVERSION.match(spec)
            if match:
                if match.group(1) == "%":
                    rendered.put("%", origin)
                else:
                    arg = next(args, None)
                    if arg is not None:
                        rendered.put_word(arg)
                index += match.end()
                continue
        rendered.put(char, origin)
        index += 1
    return rendered


def render_echo(words: list[Word]) -> Rendered:
    """What ``echo WORD...`` prints, options -n/-e/-E aside (escapes are not interpreted)."""
    rendered = Rendered()
    while words and words[0].literal in ("-n", "-e", "-E", "-ne", "-en"):
        words = words[1:]
    for position, word in enumerate(words):
        if position:
            rendered.put(" ", Origin(word.line, word.start, word.start))
        rendered.put_word(word)
    return rendered
