"""Writing signals: the one canonical line for a kind and payload.

``BERNSTEIN:<KIND>`` then, when there is a payload, one space and the
canonical JSON of :func:`._canonical_json.dump_canonical`. The shell helpers
write the same bytes.
"""

import sys
from typing import Any, Final, TextIO

from ._canonical_json import dump_canonical
from .errors import SignalPayloadError, _shown
from .kinds import SIGNAL_PREFIX, SignalKind
from .validators import validate_payload

__all__ = ["emit", "format_signal"]

_KINDS: Final = frozenset(kind.value for kind in SignalKind)


def format_signal(
    kind: SignalKind | str, payload: dict[str, Any] | None = None, *, validate: bool = True
) -> str:
    """The signal line, without a trailing newline.

    Raises TypeError for a payload that is neither a dict nor None (a list, a
    str, any other Mapping...), ValueError for an unknown kind (a kind that is
    not a str included) or a payload JSON cannot carry on one line (nesting
    beyond the bound and self-reference included), and SignalPayloadError (a
    ValueError) when ``validate`` is on and the payload fails its schema
    (``None`` is checked as ``{}``, the payload a reader sees).
    """
    if not isinstance(kind, str) or kind not in _KINDS:
        raise ValueError(f"unknown signal kind {_shown(kind)}")
    if payload is not None and not isinstance(payload, dict):
        raise TypeError(f"a signal payload is a dict, not {type(payload).__name__}")
    if validate:
        errors = validate_payload(kind, {} if payload is None else payload)
        if errors:
            raise SignalPayloadError(str(kind), errors)
    if payload is None:
        return f"{SIGNAL_PREFIX}{kind}"
    return f"{SIGNAL_PREFIX}{kind} {dump_canonical(payload)}"


def emit(
    kind: SignalKind | str, payload: dict[str, Any] | None = None, *, file: TextIO | None = None
) -> None:
    """Write the signal line and "\\n" to ``file`` (default: stdout) in one write, then flush.

    Raises what :func:`format_signal` raises, before anything is written.

    The flush matters: a block-buffered pipe would otherwise hold a QUESTION
    back while the adapter waits for its answer.
    """
    line = format_signal(kind, payload)
    stream = sys.stdout if file is None else file
    stream.write(line + "\n")
    stream.flush()
