"""``wrap --fence``'s filter on the command's stdout: only this run's marked lines stay signals.

Downstream of ``wrap`` sits a reader without the key, so what wrap relays must
already be safe for it:

- a signal the fence accepts is relayed as its canonical line WITHOUT the mark;
- a signal line it refuses (BS601 unauthenticated, BS602 replayed, BS603 kind
  not allowed) is relayed after ``UNAUTHENTICATED_PREFIX``, which no reader takes
  for a signal, and gets one diagnostic line on stderr;
- a line only a lenient reader would take (stray whitespace, a doubled
  separator) is refused the same way (BS601: not in canonical form), since the
  reader downstream may be lenient;
- every other byte passes as it came, at once: only a line that still may
  become a signal (its start is, after blanks, a start of the prefix) is held
  back until its end, and at most ``max_line_bytes`` of it: a longer one is
  relayed after the prefix too (no reader with that bound takes it).

Memory is the held line; time is linear in the output.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from bernstein_signals import FenceVerifier, StreamSignal
from bernstein_signals.fence_rules import UNAUTHENTICATED_PREFIX, UNAUTHENTICATED_SIGNAL
from bernstein_signals.scanning import strip_terminator

from ..runtime_vocabulary import RuntimeVocabulary

__all__ = ["FencedRelay"]

_BLANKS = b" \t"
_REFUSED = UNAUTHENTICATED_PREFIX.encode("utf-8")


class FencedRelay:
    """Feed it the command's stdout in chunks; it returns what to relay, line by line."""

    def __init__(
        self,
        verifier: FenceVerifier,
        vocabulary: RuntimeVocabulary,
        max_line_bytes: int,
        warn: Callable[[str], None],
    ) -> None:
        """``warn``: gets one line (no newline) per refused line, for stderr."""
        self._verifier = verifier
        self._vocabulary = vocabulary
        self._prefix = vocabulary.prefix.encode("utf-8")
        self._max = max_line_bytes
        self._warn = warn
        self._held = bytearray()
        self._holding = True
        """Whether the current line may still be a signal line (else it passes through)."""
        self._seen = 0
        """Bytes of the held line already matched against blanks and the prefix."""
        self._matched = 0
        """Bytes of the prefix matched after the leading blanks."""
        self.line = 0
        """Lines of the command's stdout finished so far."""
        self.terminal = False
        """Whether an accepted terminal signal came."""
        self.refused = 0

    def feed(self, chunk: bytes) -> bytes:
        out = bytearray()
        position, size = 0, len(chunk)
        while position < size:
            newline = chunk.find(b"\n", position)
            end = size if newline < 0 else newline + 1
            if self._holding:
                self._held += chunk[position:end]
                self._decide(out, ended=newline >= 0)
            else:
                out += chunk[position:end]
            if newline >= 0:
                self.line += 1
                self._holding, self._seen, self._matched = True, 0, 0
            position = end
        return bytes(out)

    def close(self) -> bytes:
        """The last line, when it had no newline."""
        out = bytearray()
        if self._held:
            self._decide(out, ended=True)
            self.line += 1
        return bytes(out)

    # -- one line ---------------------------------------------------------------

    def _may_be_signal(self) -> bool:
        """Whether the held line is, after blanks, a start of the prefix or starts with it.

        Only bytes not looked at before are looked at: a line fed a byte at a time
        costs no more than one fed at once.
        """
        held, prefix, index = self._held, self._prefix, self._seen
        while index < len(held) and self._matched < len(prefix):
            byte = held[index]
            if self._matched == 0 and byte in _BLANKS:
                index += 1
            elif byte == prefix[self._matched]:
                self._matched += 1
                index += 1
            else:
                self._seen = index
                return False
        self._seen = index
        return True

    def _decide(self, out: bytearray, *, ended: bool) -> None:
        """Relay the held bytes once they are known to be plain, or the line has ended."""
        held = self._held
        if not self._may_be_signal():
            out += held
            held.clear()
            self._holding = False
            return
        if len(strip_terminator(bytes(held)) if ended else held) > self._max:
            self._refuse(
                out, UNAUTHENTICATED_SIGNAL, f"a signal line over the {self._max}-byte bound"
            )
            self._holding = False
            return
        if ended:
            self._judge(out)

    def _judge(self, out: bytearray) -> None:
        held = self._held
        data = bytes(held)
        body = strip_terminator(data)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            out += held  # not UTF-8: no reader takes it for a signal
            held.clear()
            return
        vocabulary = self._vocabulary
        signal = vocabulary.parse_signal(text)
        if signal is None:
            if vocabulary.parse_signal(text, lenient=True) is None:
                out += held
                held.clear()
                return
            self._refuse(
                out,
                UNAUTHENTICATED_SIGNAL,
                "a signal line not in canonical form (lenient readers take it)",
            )
            return
        verdict = self._verifier.verify(cast(StreamSignal, signal))  # strict: a known kind
        if verdict.signal is None:
            self._refuse(
                out, verdict.code or UNAUTHENTICATED_SIGNAL, verdict.problem or "unauthenticated"
            )
            return
        if verdict.signal.is_terminal:
            self.terminal = True
        out += self._unmarked(verdict.signal, body) + data[len(body) :]
        held.clear()

    def _unmarked(self, signal: StreamSignal, body: bytes) -> bytes:
        """The accepted signal's line without its mark, as the adapter would write it unfenced."""
        try:
            line = self._vocabulary.format_signal(
                signal.kind, signal.payload or None, validate=False
            )
        except ValueError:
            return body  # cannot happen for a line the fence accepted: keep what was read
        return line.encode("utf-8")

    def _refuse(self, out: bytearray, code: str, problem: str) -> None:
        self.refused += 1
        self._warn(
            f"stdout line {self.line + 1}: error[{code}] {problem};"
            f" relayed after {UNAUTHENTICATED_PREFIX.strip()!r}"
        )
        out += _REFUSED
        out += self._held
        self._held.clear()
