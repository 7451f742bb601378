"""Reading signals from stdout lines: never raises, whatever the line holds.

Strict mode is the grammar (``grammar/signal.lark``) plus a known kind and the
documented limits of :mod:`._strict_json`. Lenient mode reads lines the way
the seed project's parser did, for adapters written against it; the JSON rules
stay strict in both.
"""

import re
from collections.abc import Iterable, Iterator
from typing import Final

from ._strict_json import load_object
from .kinds import SIGNAL_PREFIX, SignalKind
from .signals import StreamSignal, new_signal

__all__ = ["iter_signals", "parse_signal"]

_KINDS: Final = {kind.value: kind for kind in SignalKind}
_PREFIX_LENGTH: Final = len(SIGNAL_PREFIX)
_LONGEST_KIND: Final = max(map(len, _KINDS))
"""A longer word after the prefix is no kind: refused without copying or hashing it."""
_startswith: Final = str.startswith
_LEADING_SPACE: Final = re.compile(r"\s*")
_LENIENT_KIND: Final = re.compile(r"\s*(\S+)\s*")
"""Whitespace, the kind, whitespace: ``str.split``'s whitespace (``str.isspace``)."""


def _strict(line: str) -> StreamSignal | None:
    """Parse a str already known to start with the prefix."""
    if line.endswith("\n"):
        line = line[:-2] if line.endswith("\r\n") else line[:-1]
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


def _lenient(line: str) -> StreamSignal | None:
    """The seed parser's reading (strip, split on whitespace), without copying a line that
    turns out not to be a signal: the prefix and kind are found in place first.
    """
    begin = _LEADING_SPACE.match(line).end()  # type: ignore[union-attr]  # \s* always matches
    if not line.startswith(SIGNAL_PREFIX, begin):
        return None
    found = _LENIENT_KIND.match(line, begin + _PREFIX_LENGTH)
    if found is None or found.end(1) - found.start(1) > _LONGEST_KIND:
        return None
    kind = _KINDS.get(found[1])
    if kind is None:
        return None
    line = line.strip()  # the raw line a lenient signal keeps
    start = found.end() - begin
    if start >= len(line):
        return new_signal(kind, {}, line)
    if "\n" in line or "\r" in line:  # maybe only in the whitespace before the payload
        payload = load_object(line[start:])
    else:
        payload = load_object(line, start)
    return None if payload is None else new_signal(kind, payload, line)


def parse_signal(line: object, *, lenient: bool = False) -> StreamSignal | None:
    """The signal on ``line``, or None when it is plain output (or not a str at all).

    One trailing "\\n" or "\\r\\n" is tolerated. A payload that fails its
    schema still parses; :func:`~.validators.validate_payload` checks it.
    """
    if type(line) is not str:
        if not isinstance(line, str):
            return None
        line = str.__str__(line)  # a plain copy: a subclass cannot override what follows
    if lenient:
        return _lenient(line)
    return _strict(line) if line.startswith(SIGNAL_PREFIX) else None


def iter_signals(lines: Iterable[object], *, lenient: bool = False) -> Iterator[StreamSignal]:
    """The signals among ``lines`` (for example an open text file), in order."""
    if lenient:
        for line in lines:
            signal = parse_signal(line, lenient=True)
            if signal is not None:
                yield signal
        return
    prefix = SIGNAL_PREFIX
    startswith = _startswith
    strict = _strict
    for line in lines:
        try:
            if not startswith(line, prefix):  # type: ignore[arg-type]
                continue
        except TypeError:  # not a str
            continue
        signal = strict(str.__str__(line))
        if signal is not None:
            yield signal
