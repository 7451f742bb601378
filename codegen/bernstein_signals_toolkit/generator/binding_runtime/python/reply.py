"""The question round-trip: the reply line an orchestrator writes to an adapter's stdin."""

from typing import Any

from ._canonical_json import dump_canonical
from ._strict_json import load_object
from .errors import SignalPayloadError
from .fields import REPLY_ANSWER, REPLY_IN_REPLY_TO
from .parsing import _as_text
from .payloads import Reply
from .scanning import strip_terminator
from .validators import validate_reply

__all__ = ["format_reply", "parse_reply"]


def format_reply(answer: str, in_reply_to: str | None = None) -> str:
    """The reply line (no trailing newline), canonical like a signal's payload.

    Raises SignalPayloadError when the reply breaks its schema (an answer that
    is not a str, an empty ``in_reply_to``).
    """
    reply: dict[str, Any] = {REPLY_ANSWER: answer, REPLY_IN_REPLY_TO: in_reply_to}
    errors = validate_reply(reply)
    if errors:
        raise SignalPayloadError("reply", errors)
    return dump_canonical(reply)


def parse_reply(line: object) -> Reply | None:
    """The reply on ``line`` (str, or bytes read as UTF-8, as every line API takes),
    or None unless it is one JSON object that fits the reply schema.

    One trailing "\\n" or "\\r\\n" is tolerated; never raises.
    """
    text = _as_text(line)
    if text is None:
        return None
    text = strip_terminator(text)
    value = load_object(text)
    if value is None or validate_reply(value):
        return None
    reply: Reply = value  # type: ignore[assignment]
    return reply
