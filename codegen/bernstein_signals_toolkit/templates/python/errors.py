"""What a payload check reports, and the error a formatter raises with it."""

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["PayloadError", "SignalPayloadError"]


@dataclass(frozen=True, slots=True)
class PayloadError:
    """One way a payload breaks its schema."""

    pointer: str
    """JSON pointer to the offending member (for ``required``, the missing one); "" is the payload."""
    rule: str
    """The schema keyword broken (``type``, ``required``, ``minLength``, ``pattern``...)."""
    message: str
    """What is wrong, followed by the schema's description of the field."""

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message} [{self.rule}]"


class SignalPayloadError(ValueError):
    """A payload fails the schema of its kind (or the reply schema)."""

    def __init__(self, kind: str, errors: Sequence[PayloadError]) -> None:
        self.kind = kind
        self.errors = tuple(errors)
        details = "; ".join(str(error) for error in self.errors)
        super().__init__(f"invalid {kind} payload: {details}")
