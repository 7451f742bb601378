"""``wrap --fence``'s filter on the command's stdout: only this run's marked lines stay signals.

Downstream of ``wrap`` sits a reader without the key: strict or lenient, over
bytes or text, splitting on ``\\n`` or on every break ``str.splitlines`` knows,
decoding with ``errors="replace"``. What wrap relays must be safe for all of
them, so the rule is about the prefix, not about what one reader would take:

- a line the fence accepts (it starts with the prefix and is marked for this
  run) is relayed as its canonical line WITHOUT the mark (canonical JSON escapes
  every line break, so no reader finds a second line in it), or marked anew with
  the key of the fenced run wrap itself runs in (nesting);
- in every other line, each occurrence of the prefix, wherever it is, gets
  ``UNAUTHENTICATED_PREFIX`` right before it, and the line gets one diagnostic on
  stderr (BS601, or the fence's BS602/BS603). No piece of the output after any
  line break then starts, after any blanks, with the prefix: the marker is
  glued to it, and it holds no break and no blank-only start;
- a line holding the run's secret (alone or in the key text, in any case) gets
  it masked (:mod:`..key_mask`, and a diagnostic): the command leaked its key
  (``wrap --fence -- sh -c 'echo $(cat <&3)'``);
- every other byte passes as it came, at once, except a tail that may still
  become the prefix or the key (held until the next chunk tells) and a line
  that starts with the prefix (held until its end, at most ``max_line_bytes``
  of it: a longer one is refused, and the rest streams with the same rule).

Memory is the held line; time is linear in the output (one ``find`` per
needle and chunk, and a tail shorter than the needle is carried across chunks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from bernstein_signals import FenceVerifier, SignalMarker, StreamSignal
from bernstein_signals.fence_rules import UNAUTHENTICATED_PREFIX, UNAUTHENTICATED_SIGNAL
from bernstein_signals.scanning import strip_terminator

from ..key_mask import KEY_LEAKED, KEY_MASK, KeyMask, partial_tail
from ..runtime_vocabulary import RuntimeVocabulary

__all__ = ["FencedRelay"]

_REFUSED = UNAUTHENTICATED_PREFIX.encode("utf-8")


class FencedRelay:
    """Feed it the command's stdout in chunks; it returns what to relay, line by line."""

    def __init__(
        self,
        verifier: FenceVerifier,
        vocabulary: RuntimeVocabulary,
        max_line_bytes: int,
        warn: Callable[[str], None],
        *,
        key_text: str | None = None,
        marker: SignalMarker | None = None,
    ) -> None:
        """``warn``: gets one line (no newline) per refused line, for stderr. ``key_text``:
        the run's key, whose secret is masked wherever the command prints it. ``marker``:
        the key of a fenced run wrap itself is part of, which marks the accepted lines."""
        self._marker = marker
        self._verifier = verifier
        self._vocabulary = vocabulary
        self._prefix = vocabulary.prefix.encode("utf-8")
        self._key = None if key_text is None else KeyMask(key_text)
        self._max = max_line_bytes
        self._warn = warn
        self._held = bytearray()
        """The current line from its start, while it may be a signal line."""
        self._holding = True
        """Whether the current line may still be a signal line (it is all in ``_held``)."""
        self._carry = bytearray()
        """Not held: the end of what came that may still become the prefix or the key."""
        self._warned = False
        """Whether the current line got its diagnostic."""
        self.line = 0
        """Lines of the command's stdout finished so far."""
        self.terminal = False
        """Whether an accepted terminal signal came."""
        self.refused = 0
        self.leaked = 0
        """Lines in which the key text was masked."""

    def feed(self, chunk: bytes) -> bytes:
        out = bytearray()
        position, size = 0, len(chunk)
        while position < size:
            newline = chunk.find(b"\n", position)
            end = size if newline < 0 else newline + 1
            piece, ended = chunk[position:end], newline >= 0
            if self._holding:
                self._held += piece
                self._decide(out, ended=ended)
            else:
                self._stream(out, piece, ended=ended)
            if ended:
                self._end_line()
            position = end
        return bytes(out)

    def close(self) -> bytes:
        """The last line, when it had no newline."""
        out = bytearray()
        if self._held:
            self._decide(out, ended=True)
        elif self._carry:
            self._stream(out, b"", ended=True)
        else:
            return b""
        self._end_line()
        return bytes(out)

    def _end_line(self) -> None:
        self.line += 1
        self._holding, self._warned = True, False

    # -- a line that may be a signal ------------------------------------------------

    def _decide(self, out: bytearray, *, ended: bool) -> None:
        """Hold while the line is a start of the prefix or starts with it; judge it at its end."""
        held, prefix = self._held, self._prefix
        if not held.startswith(prefix) and (ended or not prefix.startswith(held)):
            self._holding = False
            data = bytes(held)
            held.clear()
            self._stream(out, data, ended=ended)
            return
        if len(strip_terminator(bytes(held)) if ended else held) > self._max:
            self._refuse(
                out, UNAUTHENTICATED_SIGNAL, f"a signal line over the {self._max}-byte bound"
            )
            self._holding = False
            if ended:
                self._stream(out, b"", ended=True)
            return
        if ended:
            self._judge(out)

    def _judge(self, out: bytearray) -> None:
        data = bytes(self._held)
        body = strip_terminator(data)
        if self._key is not None and self._key.holds(body):
            self._refuse(out, UNAUTHENTICATED_SIGNAL, KEY_LEAKED)
            self._stream(out, b"", ended=True)
            return
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            self._refuse(out, UNAUTHENTICATED_SIGNAL, "a signal line that is not UTF-8")
            self._stream(out, b"", ended=True)
            return
        verdict = self._verifier.check(text)  # the line itself: strict, this vocabulary's
        if verdict.signal is None and verdict.code is None:
            lenient = self._vocabulary.parse_signal(text, lenient=True, unknown_kinds=True)
            self._refuse(
                out,
                UNAUTHENTICATED_SIGNAL,
                "a line holding the signal prefix that is no signal line of this run"
                if lenient is None
                else "a signal line not in canonical form or of an unknown kind"
                " (lenient readers take it)",
            )
            self._stream(out, b"", ended=True)
            return
        if verdict.signal is None:
            self._refuse(
                out, verdict.code or UNAUTHENTICATED_SIGNAL, verdict.problem or "unauthenticated"
            )
            self._stream(out, b"", ended=True)
            return
        if verdict.signal.is_terminal:
            self.terminal = True
        out += self._unmarked(verdict.signal, body) + data[len(body) :]
        self._held.clear()

    def _unmarked(self, signal: StreamSignal, body: bytes) -> bytes:
        """The accepted signal's line without its mark, as the adapter would write it unfenced
        (or marked for the run wrap is part of)."""
        if self._marker is not None:
            return self._marker.mark(signal.kind, signal.payload or None).encode("utf-8")
        try:
            line = self._vocabulary.format_signal(
                signal.kind, signal.payload or None, validate=False
            )
        except ValueError:
            return body  # cannot happen for a line the fence accepted: keep what was read
        return line.encode("utf-8")

    def _refuse(self, out: bytearray, code: str, problem: str) -> None:
        """Warn about the held line and stream it: every prefix in it gets the marker."""
        self._report(code, problem)
        data = bytes(self._held)
        self._held.clear()
        self._stream(out, data, ended=False)

    def _report(self, code: str, problem: str) -> None:
        if self._warned:
            return
        self._warned = True
        self.refused += 1
        self._warn(
            f"stdout line {self.line + 1}: error[{code}] {problem};"
            f" relayed after {UNAUTHENTICATED_PREFIX.strip()!r}"
        )

    # -- everything else ---------------------------------------------------------------

    def _stream(self, out: bytearray, piece: bytes, *, ended: bool) -> None:
        """Relay ``piece`` (of a line that is no accepted signal) with every prefix in it
        after the marker and the key masked; keep back a tail that may still become either."""
        data = self._carry + piece
        self._carry.clear()
        prefix, key = self._prefix, self._key
        folded = b"" if key is None else key.fold(data)
        position = 0
        while True:
            at = data.find(prefix, position)
            leak = -1 if key is None else key.find(folded, position)
            if leak >= 0 and (at < 0 or leak < at):
                out += data[position:leak]
                out += KEY_MASK
                position = leak + len(cast(KeyMask, key))
                if not self._warned:
                    self.leaked += 1
                self._report(UNAUTHENTICATED_SIGNAL, f"{KEY_LEAKED} (masked)")
                continue
            if at < 0:
                break
            out += data[position:at]
            out += _REFUSED
            out += prefix
            position = at + len(prefix)
            self._report(
                UNAUTHENTICATED_SIGNAL,
                "the signal prefix inside a line (readers that split on other line breaks"
                " or strip other blanks would take it)",
            )
        keep = 0
        if not ended:
            rest = data[position:]
            keep = partial_tail(rest, prefix)
            if key is not None:
                keep = max(keep, key.partial(rest))
        out += data[position : len(data) - keep]
        self._carry += data[len(data) - keep :]
