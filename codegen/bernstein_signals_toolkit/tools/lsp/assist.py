"""Hover and completion content, from the schemas, for signal lines and helper calls.

The schemas are those of the vocabulary passed in (the server's setting), else
the built-in one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from bernstein_signals._strict_json import JSON_TOKEN
from bernstein_signals_toolkit.generator.emitters.docs import type_expression
from bernstein_signals_toolkit.generator.model import Kind, Property
from bernstein_signals_toolkit.generator.shell_signature import signature

from ..runtime_vocabulary import RuntimeVocabulary, built_in
from ._shell import Command, commands, render_echo, render_printf
from .analysis import helper_names, helper_usage

__all__ = ["Completion", "Hover", "completions", "hover"]

# Every pattern here is anchored (match/fullmatch) and none is searched for
# from each position: a search whose match must end at the end of the text
# retries from every start and is quadratic on a long line (issue 10).
_KEY_TAIL = re.compile(r'\s*("?)([A-Za-z0-9_]*)')
_PRESENT_KEY = re.compile(r'"([A-Za-z0-9_]+)"\s*:')
_COLON = re.compile(r"[ \t]*:")
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@dataclass(frozen=True)
class Hover:
    markdown: str
    line: int
    start: int
    end: int


@dataclass(frozen=True)
class Completion:
    label: str
    detail: str
    documentation: str
    insert: str
    line: int
    start: int
    end: int
    """The range the insert text replaces (the partial word typed so far)."""
    is_function: bool = False


@cache
def _heads(prefix: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The signal head (space, prefix, space, kind) and a kind being typed, for one prefix."""
    escaped = re.escape(prefix)
    return (
        re.compile(r"(\s*)(" + escaped + r")(\s*)([A-Za-z0-9_]*)"),
        re.compile(r"\s*" + escaped + r"\s*([A-Za-z0-9_]*)"),
    )


def _kinds(runtime: RuntimeVocabulary) -> dict[str, Kind]:
    return {kind.name: kind for kind in runtime.model().kinds}


def kind_markdown(kind: Kind) -> str:
    rows = [
        f"| `{p.name}` | `{type_expression(p)}` | {'yes' if p.required else 'no'} |"
        f" {p.description} |"
        for p in kind.properties
    ]
    table = (
        ["| field | type | required | description |", "|---|---|---|---|", *rows]
        if rows
        else ["No field is defined by the protocol."]
    )
    terminal = "terminal" if kind.terminal else "not terminal"
    return "\n".join([f"**{kind.name}** ({terminal})", "", kind.description, "", *table])


def property_markdown(kind: Kind, prop: Property) -> str:
    required = "required" if prop.required else "optional"
    return f"**{prop.name}**: `{type_expression(prop)}` ({required}, {kind.name})\n\n" + (
        prop.description
    )


# ---------------------------------------------------------------------------
# Where is the cursor: a signal line (with its own column), or a helper call?
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Spot:
    text: str
    """The signal line as printed."""
    index: int
    """The cursor's index in ``text``."""
    to_source: list[tuple[int, int, int]] | None
    """For printed lines: each character's (line, start, end) in the script."""


def _line_at(document: str, line: int) -> str | None:
    """The text of a 0-based line, or None when the document has no such line."""
    lines = document.split("\n")
    return lines[line] if 0 <= line < len(lines) else None


def _column_in(text: str, column: int) -> int:
    """A column clamped into the line, as LSP does with a character past the end."""
    return min(max(column, 0), len(text))


def _signal_spot(document: str, line: int, column: int, shell: bool) -> _Spot | None:
    text = _line_at(document, line)
    if text is None:
        return None
    column = _column_in(text, column)
    if not shell:
        return _Spot(text, column, None)
    for command in commands(text):
        printer = {"printf": render_printf, "echo": render_echo}.get(command.name or "")
        if printer is None:
            continue
        for text, origins in printer(command.words[1:]).lines():
            for index, origin in enumerate([*origins, None]):
                if origin is None:
                    previous = origins[-1] if origins else None
                    if previous is not None and previous[2] == column:
                        return _Spot(text, index, [(line, o[1], o[2]) for o in origins])
                elif origin[1] <= column < max(origin[2], origin[1] + 1):
                    return _Spot(text, index, [(line, o[1], o[2]) for o in origins])
    return None


def _range(spot: _Spot, line: int, start: int, end: int) -> tuple[int, int, int]:
    if spot.to_source is None:
        return line, start, end
    if not spot.to_source:
        return line, start, end
    first = spot.to_source[min(start, len(spot.to_source) - 1)]
    last = spot.to_source[min(max(end, start + 1), len(spot.to_source)) - 1]
    return first[0], first[1], last[2] if end > start else first[1]


def _top_level_key(payload: str, index: int) -> tuple[str, int, int] | None:
    """The top-level key whose quoted text covers ``index`` in a payload object.

    Strings and brackets are regex tokens (an unterminated string runs to the
    end), and the walk stops past ``index``: linear, whatever the payload holds.
    """
    depth = 0
    for token in JSON_TOKEN.finditer(payload):
        position, end = token.span()
        if position > index:
            return None
        char = payload[position]
        if char == '"':
            if depth == 1 and index < end and _COLON.match(payload, end):
                return payload[position + 1 : end - 1], position, end
        elif char in "{[":
            depth += 1
        else:
            depth -= 1
    return None


# ---------------------------------------------------------------------------
# Hover
# ---------------------------------------------------------------------------


def hover(
    document: str,
    line: int,
    column: int,
    *,
    shell: bool,
    vocabulary: RuntimeVocabulary | None = None,
) -> Hover | None:
    runtime = vocabulary or built_in()
    if shell:
        found = _helper_hover(document, line, column, runtime)
        if found is not None:
            return found
    spot = _signal_spot(document, line, column, shell)
    if spot is None:
        return None
    head = _heads(runtime.prefix)[0].match(spot.text)
    if head is None:
        return None
    kind = _kinds(runtime).get(head.group(4))
    if kind is None:
        return None
    if head.start(4) <= spot.index <= head.end(4):
        return Hover(kind_markdown(kind), *_range(spot, line, head.start(4), head.end(4)))
    offset = head.end()
    key = _top_level_key(spot.text[offset:], spot.index - offset)
    if key is None:
        return None
    name, start, end = key
    prop = next((p for p in kind.properties if p.name == name), None)
    if prop is None:
        text = f"**{name}**: an adapter-specific extra; the {kind.name} schema does not define it."
    else:
        text = property_markdown(kind, prop)
    return Hover(text, *_range(spot, line, offset + start, offset + end))


def _helper_hover(
    document: str, line: int, column: int, runtime: RuntimeVocabulary
) -> Hover | None:
    text = _line_at(document, line)
    if text is None:
        return None
    for command in commands(text):
        head = command.words[0]
        if head.start <= column <= head.end and head.literal:
            usage = helper_usage(head.literal, runtime)
            if usage is not None:
                first, _, rest = usage.partition("\n")
                call = first.removeprefix("Usage: ")
                body = f"```sh\n{call}\n```\n\n```text\n{rest.strip()}\n```"
                return Hover(body, line, head.start, head.end)
    return None


# ---------------------------------------------------------------------------
# Completion
# ---------------------------------------------------------------------------


def completions(
    document: str,
    line: int,
    column: int,
    *,
    shell: bool,
    vocabulary: RuntimeVocabulary | None = None,
) -> list[Completion]:
    runtime = vocabulary or built_in()
    kinds = _kinds(runtime)
    items: list[Completion] = []
    if shell:
        items += _helper_completions(document, line, column, runtime)
    spot = _signal_spot(document, line, column, shell)
    if spot is None:
        return items
    before = spot.text[: spot.index]
    head_pattern, kind_prefix = _heads(runtime.prefix)
    partial = kind_prefix.fullmatch(before)
    if partial is not None:
        start = spot.index - len(partial.group(1))
        where = _range(spot, line, start, spot.index)
        for kind in kinds.values():
            items.append(
                Completion(
                    kind.name,
                    "terminal" if kind.terminal else "not terminal",
                    kind_markdown(kind),
                    kind.name,
                    *where,
                )
            )
        return items
    head = head_pattern.match(before)
    payload_kind = kinds.get(head.group(4)) if head else None
    key = _key_position(before)
    if head is None or payload_kind is None or key is None or "{" not in before[head.end() :]:
        return items
    if before[head.end() :].count("{") - before[head.end() :].count("}") != 1:
        return items
    present = set(_PRESENT_KEY.findall(before, head.end()))
    start = spot.index - len(key.group(2)) - len(key.group(1))
    where = _range(spot, line, start, spot.index)
    for prop in payload_kind.properties:
        if prop.name not in present:
            items.append(
                Completion(
                    prop.name,
                    type_expression(prop),
                    property_markdown(payload_kind, prop),
                    f'"{prop.name}":',
                    *where,
                )
            )
    return items


def _key_position(before: str) -> re.Match[str] | None:
    """The partial key typed after the last ``{`` or ``,``: a match of ``_KEY_TAIL`` to the end."""
    opener = max(before.rfind("{"), before.rfind(","))
    return _KEY_TAIL.fullmatch(before, opener + 1) if opener >= 0 else None


def _command_at(text: str, column: int) -> Command | None:
    for command in commands(text):
        if command.words[0].start <= column <= command.words[-1].end:
            return command
    return None


def _typed_word(text: str, column: int) -> int:
    """Where the helper name or option being typed before ``column`` starts (a backward scan)."""
    start = column
    while start > 0 and text[start - 1] in _WORD_CHARS:
        start -= 1
    return start


def _helper_completions(
    document: str, line: int, column: int, runtime: RuntimeVocabulary
) -> list[Completion]:
    text = _line_at(document, line)
    if text is None:
        return []
    column = _column_in(text, column)
    start = _typed_word(text, column)
    typed = text[start:column]
    command = _command_at(text, column)
    names = {f"bernstein_{kind.snake}": kind for kind in runtime.model().kinds}
    if command is None or command.words[0].start == start:
        if not typed.startswith("b"):
            return []
        return [
            Completion(
                name,
                "shell helper",
                helper_usage(name, runtime) or "",
                name,
                line,
                start,
                column,
                is_function=True,
            )
            for name in helper_names(runtime)
            if name.startswith(typed)
        ]
    kind = names.get(command.words[0].literal or "")
    if kind is None or not typed.startswith("-"):
        return []
    # The options the helper takes, as its signature says (not every optional field).
    properties = {p.name: p for p in kind.properties}
    return [
        Completion(
            param.option,
            type_expression(properties[param.name]),
            property_markdown(kind, properties[param.name]),
            param.option,
            line,
            start,
            column,
        )
        for param in signature(kind).options
        if param.option and param.name in properties and param.option.startswith(typed)
    ]
