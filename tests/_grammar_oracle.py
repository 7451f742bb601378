"""The reference reader for differential tests: Lark (LALR) on grammar/signal.lark plus the limits.

Independent of the binding on purpose: strings, numbers and nesting are
decoded here from Lark's tokens, not by ``json``.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

from bernstein_signals import MAX_NESTING_DEPTH, SignalKind
from bernstein_signals_toolkit.generator.load import load_grammar

ROOT = Path(__file__).resolve().parents[1]
GRAMMAR = ROOT / "grammar" / "signal.lark"
MAX_INT_DIGITS = 4300
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_PIECE = re.compile(r"\\u([0-9a-fA-F]{4})|\\(.)|([^\\]+)", re.DOTALL)


class LimitExceeded(Exception):
    """Grammatical, but refused by a documented limit."""


@cache
def parser() -> Lark:
    return load_grammar(GRAMMAR)[1]


def _string(token: str) -> str:
    units: list[str] = []
    for hex_code, escape, run in _PIECE.findall(token[1:-1]):
        units.append(chr(int(hex_code, 16)) if hex_code else _ESCAPES[escape] if escape else run)
    text = "".join(units)
    # Pair escaped surrogates as JSON does; any surrogate left is lone.
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    if re.search("[\ud800-\udfff]", text):
        raise LimitExceeded("lone surrogate")
    return text


def _number(text: str) -> int | float:
    if any(c in text for c in ".eE"):
        value = float(text)
        if math.isinf(value):
            raise LimitExceeded("outside the double range")
        return value
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise LimitExceeded("too many digits")
    return int(text)


def _value(node: Tree[Token] | Token) -> Any:
    if isinstance(node, Tree):
        children = [child for child in node.children if child is not None]
        if node.data == "array":
            return [
                _value(child)
                for child in children
                if isinstance(child, Tree) or child.type not in ("LSQB", "RSQB", "COMMA")
            ]
        result: dict[str, Any] = {}
        for member in children:
            if isinstance(member, Tree):
                key, _, value = member.children
                result[_string(str(key))] = _value(value)
        return result
    if node.type == "STRING":
        return _string(str(node))
    if node.type == "NUMBER":
        return _number(str(node))
    return {"TRUE": True, "FALSE": False, "NULL": None}[node.type]


def _depth(line: str) -> int:
    depth = deepest = 0
    in_string = escaped = False
    for char in line:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def oracle(line: object) -> tuple[SignalKind, dict[str, Any]] | None:
    """What a strict reader must return for ``line``: (kind, payload), or None."""
    if not isinstance(line, str):
        return None
    if line.endswith("\r\n"):
        line = line[:-2]
    elif line.endswith("\n"):
        line = line[:-1]
    try:
        tree = parser().parse(line)
    except LarkError:
        return None
    kind = next(str(t) for t in tree.children if isinstance(t, Token) and t.type == "KIND")
    if kind not in SignalKind.__members__:
        return None
    if re.search("[\ud800-\udfff]", line) or _depth(line) > MAX_NESTING_DEPTH:
        return None
    objects = [child for child in tree.children if isinstance(child, Tree)]
    try:
        payload = _value(objects[0]) if objects else {}
    except LimitExceeded:
        return None
    return SignalKind(kind), payload


def typed(value: Any) -> Any:
    """A form in which 1, 1.0 and True differ, for exact payload comparison."""
    if isinstance(value, dict):
        return ("dict", sorted((key, typed(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    return (type(value).__name__, repr(value))
