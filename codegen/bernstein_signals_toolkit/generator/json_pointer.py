"""JSON Pointer (RFC 6901) tokens: the one place ``~`` and ``/`` in a name are escaped.

Schemas name members with any text; the pointers in refusals, payload errors
and ``$ref`` targets write each name as a token (``~`` as ``~0``, ``/`` as
``~1``). The bindings escape run-time keys with their own copy of this rule
(``_validation.member_pointer`` in the Python binding).
"""

from __future__ import annotations

__all__ = ["child", "name_of", "token"]


def token(name: str) -> str:
    """``name`` as one pointer token: ``~`` first, so ``/`` -> ``~1`` is not read as ``~`` + 1."""
    return name.replace("~", "~0").replace("/", "~1")


def name_of(step: str) -> str:
    """The name a pointer token stands for (``~1`` first, so ``~01`` is ``~1``)."""
    return step.replace("~1", "/").replace("~0", "~")


def child(pointer: str, name: str | int) -> str:
    """The pointer one member (or array index) below ``pointer``."""
    return f"{pointer}/{token(str(name))}"
