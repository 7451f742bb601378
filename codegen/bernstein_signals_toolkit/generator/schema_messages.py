"""The words of every compiled rule, the same in every binding.

Each rule has a raw text (``PayloadError.detail``: "must be at least 3
characters long"); a schema may word it for people with
``x-bernstein-message``, and the member's description follows either.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from .keywords import MESSAGE_KEYWORD
from .schema_checks import Operator

__all__ = [
    "BOUNDS",
    "COUNTS",
    "MESSAGE_SHAPE",
    "NOT_OBJECT",
    "SIZE_RULES",
    "message",
    "plain_messages",
    "plural",
]

SIZE_RULES: Final[dict[str, tuple[str, Operator, str, str]]] = {
    # keyword -> (family, operator failing it, message, counted noun)
    "minLength": ("string", "<", "must be at least {} long", "character"),
    "maxLength": ("string", ">", "must be at most {} long", "character"),
    "minItems": ("array", "<", "must hold at least {}", "item"),
    "maxItems": ("array", ">", "must hold at most {}", "item"),
    "minProperties": ("object", "<", "must have at least {}", "member"),
    "maxProperties": ("object", ">", "must have at most {}", "member"),
}
BOUNDS: Final[dict[str, tuple[Operator, str]]] = {
    # keyword -> (operator failing it, message)
    "minimum": ("<", "must be at least {}"),
    "maximum": (">", "must be at most {}"),
    "exclusiveMinimum": ("<=", "must be greater than {}"),
    "exclusiveMaximum": (">=", "must be less than {}"),
}
COUNTS: Final[tuple[tuple[str, Literal["any", "one"], str], ...]] = (
    ("anyOf", "any", "must match at least one of the anyOf schemas"),
    ("oneOf", "one", "must match exactly one of the oneOf schemas"),
)
NOT_OBJECT: Final = "must be a JSON object"
"""The one error for a payload that is no object at all, before any schema rule runs."""
MESSAGE_SHAPE: Final = (
    "it must be a non-empty string, or an object mapping keywords of its schema to"
    " non-empty strings"
)
"""Why an ``x-bernstein-message`` is refused."""


def plural(count: object, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def plain_messages(schema: dict[str, Any]) -> dict[str, str] | None:
    """The ``x-bernstein-message`` of ``schema`` ("" -> message for every rule, or keyword
    -> message; ``required`` and ``type`` may be named too), or None when it is malformed."""
    given = schema.get(MESSAGE_KEYWORD)
    if given is None:
        return {}
    if isinstance(given, str) and given.strip():
        return {"": given}
    if (
        isinstance(given, dict)
        and given
        and all(isinstance(text, str) and text.strip() for text in given.values())
        and set(given) <= set(schema) | {"required", "type"}
    ):
        return dict(given)
    return None


def message(messages: dict[str, str], rule: str, detail: str, description: str) -> str:
    """What people read: the schema's words for ``rule`` (or all rules), else ``detail``,
    then the description."""
    plain = messages.get(rule, messages.get("", detail))
    return f"{plain}. {description}".strip()
