"""A run's key in what the toolkit prints: masked wherever it occurs, in any case.

The fence's promise is that no output, report or diagnostic shows the key, yet
an adapter may print it (``echo $(cat <&3)``), and ``wrap --fence`` relays,
``conform`` and ``validate --key-file`` quote what it printed. Each of them
masks with a :class:`KeyMask`: the secret is what must not leak (the run nonce
is no secret), so masking it covers the whole key text and the secret alone;
hex reads the same in either case, so an upper-case copy is masked too.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

    from bernstein_signals import SignalKey

__all__ = ["KEY_LEAKED", "KEY_MASK", "KeyMask", "masked", "partial_tail"]

KEY_MASK = b"[key withheld]"
"""What a leaked key's secret is shown as."""
_ESCAPE = re.compile(rb"\\u([0-9a-f]{4})")
"""A JSON escape, folded: every character of a secret can be written as one."""
KEY_LEAKED = "a line holding the run's key"
"""What the diagnostic on such a line says: it is no signal, whatever its mark."""


def _unescape(found: re.Match[bytes]) -> bytes:
    return chr(int(found[1], 16)).lower().encode("utf-8", "surrogatepass")


def partial_tail(data: bytes | bytearray, needle: bytes) -> int:
    """Length of the longest end of ``data`` that is a start (not all) of ``needle``: what a
    filter over a stream keeps back until the next chunk tells."""
    first = needle[:1]
    start = data.find(first, max(0, len(data) - len(needle) + 1))
    while start >= 0:
        if needle.startswith(data[start:]):
            return len(data) - start
        start = data.find(first, start + 1)
    return 0


class KeyMask:
    """Finds and masks one key's secret in bytes, in any case (hex is case-free)."""

    __slots__ = ("_secret",)

    def __init__(self, key_text: str) -> None:
        """``key_text``: the key as handed over (``run:secret``)."""
        self._secret = key_text.strip().rpartition(":")[2].lower().encode("ascii")

    @classmethod
    def of(cls, key: SignalKey | None) -> KeyMask | None:
        """The mask of a run's key; None without one."""
        return None if key is None else cls(key.text())

    def __repr__(self) -> str:
        return "KeyMask(...)"  # never the secret

    def __len__(self) -> int:
        return len(self._secret)

    @staticmethod
    def fold(data: bytes | bytearray) -> bytes | bytearray:
        """``data`` as :meth:`find` searches it: ASCII lower case, each byte where it was."""
        return data.lower()

    def find(self, folded: bytes | bytearray, start: int = 0) -> int:
        """Where the secret next occurs from ``start`` in ``folded`` (:meth:`fold`'s result,
        made once per chunk: a search stays linear); -1: nowhere."""
        return folded.find(self._secret, start)

    def holds(self, data: bytes | bytearray | str) -> bool:
        """Whether ``data`` holds the secret, as it is or behind JSON ``\\u`` escapes (a
        checker that decodes a line's JSON would write it out in a message)."""
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        folded = self.fold(data)
        if self._secret in folded:
            return True
        if b"\\u" not in folded:
            return False
        return self._secret in _ESCAPE.sub(_unescape, folded)

    def partial(self, data: bytes | bytearray) -> int:
        """:func:`partial_tail` for the secret, in any case."""
        return partial_tail(self.fold(data), self._secret)

    def mask(self, data: bytes | bytearray) -> bytes:
        """``data`` with every occurrence of the secret shown as :data:`KEY_MASK`."""
        folded = self.fold(data)
        out = bytearray()
        position = 0
        while (at := self.find(folded, position)) >= 0:
            out += data[position:at] + KEY_MASK
            position = at + len(self._secret)
        out += data[position:]
        return bytes(out)


class _MaskedRaw(io.RawIOBase):
    """Writes to ``target`` with the key masked, a secret split across writes included (a
    possible start of it is held back until the next write, or :meth:`close`)."""

    def __init__(self, target: IO[bytes], mask: KeyMask) -> None:
        super().__init__()
        self._target = target
        self._mask = mask
        self._carry = b""

    def writable(self) -> bool:
        return True

    def write(self, data: ReadableBuffer, /) -> int:
        chunk = bytes(data)
        masked = self._mask.mask(self._carry + chunk)
        keep = self._mask.partial(masked)  # the mask itself is no start of a secret
        self._carry = masked[len(masked) - keep :]
        self._target.write(masked[: len(masked) - keep])
        return len(chunk)

    def close(self) -> None:
        """Write what was held back; ``target`` stays open."""
        if self.closed:
            return
        try:
            self._target.write(self._carry)
            self._target.flush()
        finally:
            self._carry = b""
            super().close()  # once: a reader gone (EPIPE) is not written to again


@contextlib.contextmanager
def masked(target: IO[bytes], mask: KeyMask | None) -> Iterator[IO[bytes]]:
    """``target`` as a stream that masks ``mask``'s key in all that is written to it (``mask``
    None: ``target`` itself); everything is written when the block ends."""
    if mask is None:
        yield target
        return
    with io.BufferedWriter(_MaskedRaw(target, mask)) as stream:
        yield stream
