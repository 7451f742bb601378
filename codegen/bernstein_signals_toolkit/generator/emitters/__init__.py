"""One emitter per target, all with one signature: ``emit(vocabulary) -> {path: text}``.

Paths are POSIX and relative to the output folder. Emitters only build text;
:mod:`..generate` formats, compares and writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..model import Vocabulary
from . import conformance, docs, python, shell, typescript

__all__ = ["EMITTERS", "Emitter"]

Emitter = Callable[[Vocabulary], dict[str, str]]

EMITTERS: Mapping[str, Emitter] = {
    "conformance": conformance.emit,
    "docs": docs.emit,
    "python": python.emit,
    "shell": shell.emit,
    "typescript": typescript.emit,
}
