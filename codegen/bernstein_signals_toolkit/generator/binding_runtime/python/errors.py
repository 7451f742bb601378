"""What a payload check reports, and the error a formatter raises with it."""

import reprlib
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["PayloadError", "SignalPayloadError"]


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlong = 3, 80, 80, 40


def _shown(value: object) -> str:
    """A short repr of any value, for messages: a 100,000-deep, self-referential or huge
    value given to the binding must not make its error message recurse or grow.
    """
    if type(value) is str and len(value) <= 80:
        return repr(value)
    try:
        return _REPR.repr(value)
    except Exception:  # a repr that itself fails (recursion, digit limits...)
        return f"<{type(value).__name__}>"


@dataclass(frozen=True, slots=True)
class PayloadError:
    """One way a payload breaks its schema."""

    pointer: str
    """JSON pointer to the offending member (for ``required``, the missing one); "" is the payload."""
    rule: str
    """The schema keyword broken (``type``, ``required``, ``minLength``, ``pattern``...)."""
    message: str
    """What is wrong (the schema's ``x-bernstein-message`` if it gives one), then the field's description."""
    detail: str = ""
    """The rule in the validator's own words (``must match ^a$``), whatever message the schema gives."""

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message} [{self.rule}]"


class SignalPayloadError(ValueError):
    """A payload fails the schema of its kind (or the reply schema)."""

    def __init__(self, kind: str, errors: Sequence[PayloadError]) -> None:
        self.kind = kind
        self.errors = tuple(errors)
        details = "; ".join(str(error) for error in self.errors)
        super().__init__(f"invalid {kind} payload: {details}")
