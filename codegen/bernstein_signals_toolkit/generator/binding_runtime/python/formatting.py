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
from .parsing import parse_signal
from .signals import StreamSignal, UnknownKindSignal
from .validators import validate_payload

__all__ = ["emit", "format_signal"]

_FENCE_MODULE: Final = f"{__package__}.fence"
_KINDS: Final = frozenset(kind.value for kind in SignalKind)
_NAMES: Final = ", ".join(sorted(_KINDS))
_USAGE: Final = (
    "emit takes a kind and its payload (emit(SignalKind.QUESTION, {...})) or a whole"
    " signal: a line from a constructor (emit(question(...))) or a StreamSignal"
)


def _unknown_kind(kind: object) -> ValueError:
    """The error for what is not a kind, saying what to pass instead."""
    if isinstance(kind, str) and kind.startswith(SIGNAL_PREFIX):
        hint = "this is a whole signal line, which emit(line) writes"
    elif callable(kind):
        hint = "call the constructor: emit(question(...)) writes the line it returns"
    else:
        hint = f"a kind is a SignalKind or one of {_NAMES}"
    return ValueError(f"unknown signal kind {_shown(kind)}: {hint}")


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
        raise _unknown_kind(kind)
    if payload is not None and not isinstance(payload, dict):
        raise TypeError(f"a signal payload is a dict, not {type(payload).__name__}")
    if validate:
        errors = validate_payload(kind, {} if payload is None else payload)
        if errors:
            raise SignalPayloadError(str(kind), errors)
    if payload is None:
        return f"{SIGNAL_PREFIX}{kind}"
    return f"{SIGNAL_PREFIX}{kind} {dump_canonical(payload)}"


def _given(extras: dict[str, Any]) -> dict[str, Any]:
    """The extras a typed constructor writes: None means left out, as for its fields."""
    return {name: value for name, value in extras.items() if value is not None}


def _carries_json(signal: StreamSignal) -> bool:
    """Whether the signal's line has a payload's JSON: read back, ``{}`` and no JSON both
    give payload ``{}``; the line, whose grammar ends a JSON text at "}", tells them apart."""
    return bool(signal.payload) or signal.raw_line.rstrip().endswith("}")


def _signal_parts(signal: object, payload: object) -> tuple[Any, Any]:
    """The kind and payload of what :func:`emit` was given; nothing is checked or written yet."""
    if isinstance(signal, bytes):
        try:
            signal = signal.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"{_shown(signal)} is not UTF-8 (byte {exc.start}): a signal line is UTF-8 text"
            ) from None
    whole = isinstance(signal, StreamSignal | UnknownKindSignal) or (
        isinstance(signal, str) and signal.startswith(SIGNAL_PREFIX)
    )
    if whole and payload is not None:
        raise TypeError(f"{_USAGE}; a whole signal already holds its payload")
    if isinstance(signal, str) and signal.startswith(SIGNAL_PREFIX):
        parsed = parse_signal(signal)
        if parsed is None:
            raise ValueError(
                f"{_shown(signal)} is not a signal line of this vocabulary (its grammar, a"
                f" known kind, strict JSON); {_USAGE}"
            )
        signal = parsed
    if isinstance(signal, UnknownKindSignal):
        raise ValueError(
            f"unknown signal kind {_shown(signal.kind)}: this binding's vocabulary does not"
            " know it, so it cannot check it; write its raw_line to forward it"
        )
    if isinstance(signal, StreamSignal):
        return signal.kind, signal.payload if _carries_json(signal) else None
    return signal, payload  # format_signal checks both


def emit(
    kind: SignalKind | str | bytes | StreamSignal,
    payload: dict[str, Any] | None = None,
    *,
    file: TextIO | None = None,
) -> None:
    """Write one signal and "\\n" to ``file`` (default: stdout) in one write, then flush.

    ``kind`` is a kind, with its payload (``emit(SignalKind.QUESTION,
    {"question": "Apply?"})``), or a whole signal, without one: a line (str, or
    UTF-8 bytes as :func:`.parsing.parse_signal` takes) from a typed constructor,
    :func:`format_signal` or a reader (``emit(question("Apply?"))``), or a
    StreamSignal. Either way the line written is the canonical line of what was
    given, its payload checked against the kind's schema; a canonical line is
    written byte for byte. A payload ``{}`` (given, or as JSON on the line) is
    written ``BERNSTEIN:<KIND> {}``; no payload (None, or a line without JSON)
    is written ``BERNSTEIN:<KIND>``.

    Raises what :func:`format_signal` raises, before anything is written;
    ValueError for a ``BERNSTEIN:`` line that does not parse or bytes that are
    not UTF-8, TypeError for a payload beside a whole signal.

    When the process took a fence key at start-up (:func:`.fence.take_process_key`)
    and the line goes to stdout (``file`` None, or the very object ``sys.stdout``
    names at the call: the stream the orchestrator reads), the line is marked
    (``"_sig"``, :meth:`.fence.SignalMarker.mark`), and a payload that already
    holds ``_sig`` is a ValueError. A line to any other file is written unmarked
    and takes no sequence number: a marked line in a log the agent may print
    would be a valid signal (mark such a line with your own
    :class:`.fence.SignalMarker` if you must). ``contextlib.redirect_stdout``
    replaces ``sys.stdout``, so lines to the replacement are marked.

    The flush matters: a block-buffered pipe would otherwise hold a QUESTION
    back while the adapter waits for its answer.
    """
    parts = _signal_parts(kind, payload)
    stream = sys.stdout if file is None else file
    # Only take_process_key sets a marker, in fence.py (which builds on this module): a
    # process that never loaded it holds no key, and pays nothing for the fence.
    fence = sys.modules.get(_FENCE_MODULE)
    marker = fence._process_marker() if fence is not None and stream is sys.stdout else None
    if marker is None:
        stream.write(format_signal(*parts) + "\n")
        stream.flush()
        return
    with marker._lock:  # sequence numbers reach the stream in the order they are taken
        stream.write(marker.mark(*parts) + "\n")
        stream.flush()
