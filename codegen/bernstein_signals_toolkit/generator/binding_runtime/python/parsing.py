"""Reading signals from stdout lines: never raises, whatever the line holds.

Strict mode is the grammar (``grammar/signal.lark``) plus a known kind and the
documented limits of :mod:`._strict_json`. Lenient mode reads lines the way
the seed project's parser did, for adapters written against it; the JSON rules
stay strict in both. With ``unknown_kinds=True`` a well-formed line of a kind
the vocabulary does not know is an :class:`~.signals.UnknownKindSignal`
instead of plain output.

A line is a str or bytes (bytearray, memoryview): bytes are read as UTF-8,
and a line that is not UTF-8 is plain output, as the stream readers have it,
so ``iter_signals(proc.stdout)`` reads a binary pipe as it reads a text one.
A value that is no line (None, a number) is plain output too: parsers never
raise on what a stream holds. Passing one str or bytes where an iterable of
lines belongs is a TypeError that says what to pass, since it would pass
for a run without signals.
"""

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Final, Literal, overload

from ._strict_json import load_object
from .kinds import SIGNAL_PREFIX, SignalKind
from .scanning import strip_terminator
from .signals import StreamSignal, UnknownKindSignal, new_signal

if TYPE_CHECKING:  # fence.py builds on this module
    from .fence import FenceVerdict, SignalKey

__all__ = ["AnySignal", "iter_signals", "parse_signal"]

_BYTES_LINES: Final = (bytes, bytearray, memoryview)

_KINDS: Final = {kind.value: kind for kind in SignalKind}
_PREFIX_LENGTH: Final = len(SIGNAL_PREFIX)
_LONGEST_KIND: Final = max(map(len, _KINDS))
"""A longer word after the prefix is no kind: refused without copying or hashing it."""
_KIND_TOKEN: Final = re.compile(r"[A-Z][A-Z0-9_]*")
"""The grammar's KIND token (a test holds it equal to ``grammar/signal.lark``'s)."""
_startswith: Final = str.startswith
_LEADING_SPACE: Final = re.compile(r"\s*")
_LENIENT_KIND: Final = re.compile(r"\s*(\S+)\s*")
"""Whitespace, the kind, whitespace: ``str.split``'s whitespace (``str.isspace``)."""

AnySignal = StreamSignal | UnknownKindSignal
"""What the ``unknown_kinds=True`` readers return: ``kind`` is ``SignalKind | str``."""


def _strict(line: str) -> StreamSignal | None:
    """Parse a str already known to start with the prefix."""
    line = strip_terminator(line)
    space = line.find(" ", _PREFIX_LENGTH, _PREFIX_LENGTH + _LONGEST_KIND + 1)
    if space < 0:
        if len(line) > _PREFIX_LENGTH + _LONGEST_KIND:
            return None
        kind = _KINDS.get(line[_PREFIX_LENGTH:])
        return None if kind is None else new_signal(kind, {}, line)
    kind = _KINDS.get(line[_PREFIX_LENGTH:space])
    if kind is None:
        return None
    payload = load_object(line, space + 1)
    return None if payload is None else new_signal(kind, payload, line)


def _strict_any(line: str) -> AnySignal | None:
    """:func:`_strict` that also reads a well-formed line of a kind it does not know."""
    line = strip_terminator(line)
    space = line.find(" ", _PREFIX_LENGTH)
    end = len(line) if space < 0 else space
    if _KIND_TOKEN.fullmatch(line, _PREFIX_LENGTH, end) is None:
        return None
    word = line[_PREFIX_LENGTH:end]
    if space < 0:
        payload = {}
    else:
        found = load_object(line, space + 1)
        if found is None:
            return None
        payload = found
    kind = _KINDS.get(word)
    if kind is None:
        return UnknownKindSignal(word, payload, line)
    return new_signal(kind, payload, line)


def _lenient(line: str, unknown: bool = False) -> AnySignal | None:
    """The seed parser's reading (strip, split on whitespace), without copying a line that
    turns out not to be a signal: the prefix and kind are found in place first.
    """
    begin = _LEADING_SPACE.match(line).end()  # type: ignore[union-attr]  # \s* always matches
    if not line.startswith(SIGNAL_PREFIX, begin):
        return None
    found = _LENIENT_KIND.match(line, begin + _PREFIX_LENGTH)
    if found is None or (not unknown and found.end(1) - found.start(1) > _LONGEST_KIND):
        return None
    kind = _KINDS.get(found[1])
    if kind is None and (not unknown or _KIND_TOKEN.fullmatch(found[1]) is None):
        return None
    line = line.strip()  # the raw line a lenient signal keeps
    start = found.end() - begin
    if start >= len(line):
        payload = {}
    else:
        if "\n" in line or "\r" in line:  # maybe only in the whitespace before the payload
            found_payload = load_object(line[start:])
        else:
            found_payload = load_object(line, start)
        if found_payload is None:
            return None
        payload = found_payload
    if kind is None:
        return UnknownKindSignal(found[1], payload, line)
    return new_signal(kind, payload, line)


def _as_text(line: object) -> str | None:
    """A line that is not a plain str as text; None for bytes that are not UTF-8 and for
    anything that is no line at all.

    The copy of a str subclass is a plain str, whose methods it cannot override.
    """
    if isinstance(line, str):
        return str.__str__(line)
    if isinstance(line, _BYTES_LINES):
        try:
            return str(line, "utf-8")
        except UnicodeDecodeError:
            return None
    return None


@overload
def parse_signal(
    line: object, *, lenient: bool = False, unknown_kinds: Literal[False] = False
) -> StreamSignal | None: ...
@overload
def parse_signal(line: object, *, lenient: bool = False, unknown_kinds: bool) -> AnySignal | None: ...
def parse_signal(line: object, *, lenient: bool = False, unknown_kinds: bool = False) -> AnySignal | None:
    """The signal on ``line`` (str or bytes), or None when it is plain output.

    One trailing "\\n" or "\\r\\n" is tolerated. Bytes that are not UTF-8, and
    a ``line`` that is neither str nor bytes, are plain output. A payload that fails its
    schema still parses; :func:`~.validators.validate_payload` checks it.

    A well-formed line of a kind this vocabulary does not know is plain output
    by default, as the seed's reader had it: right for orchestrators that act on
    signals, since they cannot act on a kind they do not know. With
    ``unknown_kinds=True`` it is an :class:`~.signals.UnknownKindSignal` whose
    ``kind`` is a plain str: right for consumers that forward, record or log
    signals of producers built against a newer vocabulary.
    """
    if type(line) is not str:
        text = _as_text(line)
        if text is None:
            return None
        line = text
    if lenient:
        return _lenient(line, unknown_kinds)
    if not line.startswith(SIGNAL_PREFIX):
        return None
    return _strict_any(line) if unknown_kinds else _strict(line)


@overload
def iter_signals(
    lines: Iterable[object],
    *,
    lenient: bool = False,
    unknown_kinds: Literal[False] = False,
    key: "SignalKey | None" = None,
    allow_kinds: "Iterable[SignalKind | str] | None" = None,
    on_rejected: "Callable[[FenceVerdict], object] | None" = None,
) -> Iterator[StreamSignal]: ...
@overload
def iter_signals(
    lines: Iterable[object],
    *,
    lenient: bool = False,
    unknown_kinds: bool,
    key: "SignalKey | None" = None,
    allow_kinds: "Iterable[SignalKind | str] | None" = None,
    on_rejected: "Callable[[FenceVerdict], object] | None" = None,
) -> Iterator[AnySignal]: ...
def iter_signals(
    lines: Iterable[object],
    *,
    lenient: bool = False,
    unknown_kinds: bool = False,
    key: "SignalKey | None" = None,
    allow_kinds: "Iterable[SignalKind | str] | None" = None,
    on_rejected: "Callable[[FenceVerdict], object] | None" = None,
) -> Iterator[AnySignal]:
    """The signals among ``lines`` (str or bytes: a text or binary file, a list), in order.

    ``unknown_kinds`` as for :func:`parse_signal`; one str or bytes instead
    of an iterable of lines is a TypeError. For a pipe whose lines may be very long,
    :func:`~.readers.read_signals` reads in bounded memory.

    Fenced (``key`` and/or ``allow_kinds``, :mod:`.fence`): only the lines the
    :class:`~.fence.FenceVerifier` accepts are signals (``_sig`` removed); each
    rejected one goes to ``on_rejected`` (a :class:`~.fence.FenceVerdict` with
    its 1-based ``line_no``), in order. Strict and known kinds only.
    """
    if isinstance(lines, (str, *_BYTES_LINES)):
        raise TypeError(
            f"iter_signals reads an iterable of lines, not one {type(lines).__name__};"
            " split it first (text.splitlines()) or use parse_signal for one line"
        )
    if _asks_for_fence(key, allow_kinds, on_rejected):
        from .fence import _reader_verifier  # fence.py imports this module

        verifier = _reader_verifier(
            key, allow_kinds, on_rejected, unknown_kinds=unknown_kinds, lenient=lenient
        )
        yield from _fenced(lines, verifier._verify, on_rejected)
        return
    if lenient or unknown_kinds:
        for line in lines:
            text = line if type(line) is str else _as_text(line)
            if text is None:
                continue
            signal = parse_signal(text, lenient=lenient, unknown_kinds=unknown_kinds)
            if signal is not None:
                yield signal
        return
    prefix = SIGNAL_PREFIX
    startswith = _startswith
    strict = _strict
    as_text = _as_text
    for line in lines:
        text = line if type(line) is str else as_text(line)
        if text is None or not startswith(text, prefix):
            continue
        signal = strict(text)
        if signal is not None:
            yield signal


def _asks_for_fence(key: object, allow_kinds: object, on_rejected: object) -> bool:
    """Whether a reader was given a fence option (then :func:`.fence._reader_verifier` judges
    them all): told without loading the fence."""
    return key is not None or allow_kinds is not None or on_rejected is not None


def _fenced(
    lines: Iterable[object],
    verify: "Callable[[StreamSignal], FenceVerdict]",
    on_rejected: "Callable[[FenceVerdict], object] | None",
) -> Iterator[StreamSignal]:
    """The accepted signals among ``lines``; each rejected one goes to ``on_rejected``."""
    for line_no, line in enumerate(lines, 1):
        text = line if type(line) is str else _as_text(line)
        if text is None or not text.startswith(SIGNAL_PREFIX):
            continue
        signal = _strict(text)
        if signal is None:
            continue
        verdict = verify(signal)
        if verdict.signal is not None:
            yield verdict.signal
        elif verdict.code is not None and on_rejected is not None:
            on_rejected(verdict._replace(line_no=line_no))
