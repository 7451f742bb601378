"""Where each value of a JSON text sits, by JSON pointer, so payload errors point at columns.

Only called for payloads the binding already accepted: the text is valid JSON
nested no deeper than the binding's bound, so plain recursion is safe. The
scanner still never raises; on anything unexpected it returns what it found.
"""

from __future__ import annotations

import contextlib
import json
import re

__all__ = ["locate", "value_spans"]

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")
_SPACE = re.compile(r"[ \t\r\n]*")


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: dict[str, tuple[int, int]] = {}

    def _space(self, pos: int) -> int:
        return _SPACE.match(self.text, pos).end()  # type: ignore[union-attr]

    def _members(self, pos: int, pointer: str, closing: str) -> int:
        """Scan the members of an object or array that starts at ``pos``; return its end."""
        text = self.text
        pos = self._space(pos + 1)
        index = 0
        while text[pos] != closing:
            if closing == "}":
                key = _STRING.match(text, pos)
                if key is None:
                    raise ValueError(pos)
                name = _escape(json.loads(key.group()))
                pos = self._space(self._space(key.end()) + 1)  # past the colon
            else:
                name = str(index)
                index += 1
            pos = self._space(self.value(pos, f"{pointer}/{name}"))
            if text[pos] == ",":
                pos = self._space(pos + 1)
        return pos + 1

    def value(self, pos: int, pointer: str) -> int:
        char = self.text[pos]
        if char in "{[":
            end = self._members(pos, pointer, "}" if char == "{" else "]")
        else:
            match = (_STRING if char == '"' else _SCALAR).match(self.text, pos)
            if match is None:
                raise ValueError(pos)
            end = match.end()
        self.spans[pointer] = (pos, end)  # a later duplicate key overwrites: last wins
        return end


def value_spans(text: str) -> dict[str, tuple[int, int]]:
    """Pointer -> (start, end) offsets in ``text`` for every value that could be scanned."""
    scanner = _Scanner(text)
    with contextlib.suppress(IndexError, ValueError):
        scanner.value(scanner._space(0), "")
    return scanner.spans


def locate(spans: dict[str, tuple[int, int]], pointer: str) -> tuple[int, int] | None:
    """The span of ``pointer`` or, for a member that is missing, of its nearest parent."""
    while pointer not in spans:
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]
    return spans[pointer]
