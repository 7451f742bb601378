"""Where each value of a JSON text sits, by JSON pointer, so payload errors point at columns.

Only called for payloads the binding already accepted: the text is valid JSON
nested no deeper than the binding's bound, so plain recursion is safe (deeper
text is refused, not recursed into). The scanner never raises; on anything
unexpected it returns what it found. Every regex is anchored at the scan
position and possessive, so a scan is linear in the text's length.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field

from bernstein_signals import MAX_NESTING_DEPTH
from bernstein_signals._strict_json import JSON_STRING

__all__ = ["Layout", "layout", "locate", "value_spans"]

_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?|true|false|null")
_SPACE = re.compile(r"[ \t\r\n]*+")
_SKIP = json.JSONDecoder()


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


@dataclass
class Layout:
    """What one scan of a JSON text found."""

    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Pointer -> (start, end) of every value; a later duplicate key overwrites: last wins."""


class _Found(Exception):
    """Every wanted pointer has its span: the scan can stop."""


class _Scanner:
    def __init__(self, text: str, wanted: set[str] | None) -> None:
        self.text = text
        self.found = Layout()
        self.spans = self.found.spans
        self.wanted = wanted

    def _space(self, pos: int) -> int:
        return _SPACE.match(self.text, pos).end()  # type: ignore[union-attr]

    def _members(self, pos: int, pointer: str, closing: str, depth: int) -> int:
        """Scan the members of an object or array that starts at ``pos``; return its end."""
        if depth > MAX_NESTING_DEPTH:
            raise ValueError(pos)  # the binding refuses it; never recurse without a bound
        text = self.text
        start = pos
        if not self._wants_inside(pointer):
            return _SKIP.raw_decode(text, start)[1]  # nothing wanted inside: json's C scanner
        pos = self._space(pos + 1)
        index = 0
        while text[pos] != closing:
            if not self._wants_inside(pointer):
                return _SKIP.raw_decode(text, start)[1]
            if closing == "}":
                key = JSON_STRING.match(text, pos)
                if key is None:
                    raise ValueError(pos)
                name = _escape(json.loads(key.group()))
                pos = self._space(self._space(key.end()) + 1)  # past the colon
            else:
                name = str(index)
                index += 1
            pos = self._space(self.value(pos, f"{pointer}/{name}", depth))
            if text[pos] == ",":
                pos = self._space(pos + 1)
        return pos + 1

    def _wants_inside(self, pointer: str) -> bool:
        """Whether a wanted pointer lies inside the container at ``pointer``."""
        if self.wanted is None:
            return True
        prefix = pointer + "/"
        return any(wanted.startswith(prefix) for wanted in self.wanted)

    def value(self, pos: int, pointer: str, depth: int = 0) -> int:
        char = self.text[pos]
        if char in "{[":
            end = self._members(pos, pointer, "}" if char == "{" else "]", depth + 1)
        else:
            match = (JSON_STRING if char == '"' else _SCALAR).match(self.text, pos)
            if match is None:
                raise ValueError(pos)
            end = match.end()
        self.spans[pointer] = (pos, end)  # a later duplicate key overwrites: last wins
        if self.wanted is not None:
            self.wanted.discard(pointer)
            if not self.wanted:
                raise _Found
        return end


def layout(text: str, wanted: set[str] | None = None, *, start: int = 0) -> Layout:
    """Spans of the values in ``text``, as far as it could be scanned.

    With ``wanted`` pointers, the scan stops once each has its span (a member
    that is missing never does: its parent's span is found last). Spans are
    offsets in ``text``; the value scanned is the one at ``start``.
    """
    scanner = _Scanner(text, None if wanted is None else set(wanted))
    with contextlib.suppress(IndexError, ValueError, _Found):
        scanner.value(scanner._space(start), "")
    return scanner.found


def value_spans(text: str) -> dict[str, tuple[int, int]]:
    """Pointer -> (start, end) offsets in ``text`` for every value that could be scanned."""
    return layout(text).spans


def locate(spans: dict[str, tuple[int, int]], pointer: str) -> tuple[int, int] | None:
    """The span of ``pointer`` or, for a member that is missing, of its nearest parent."""
    while pointer not in spans:
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]
    return spans[pointer]
