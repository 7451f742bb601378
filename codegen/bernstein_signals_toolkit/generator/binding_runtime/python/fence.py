"""Fenced signals (``spec/fenced-signals.md``): a signal counts only when this run marked it.

An adapter's agent prints what it reads, so a file holding ``BERNSTEIN:COMPLETED``
would end a run. Under the fence the orchestrator hands the adapter a fresh
:class:`SignalKey`; every line the adapter writes carries ``"_sig":
"<run>.<seq>.<mac>"`` (HMAC-SHA256), and a :class:`FenceVerifier` holding the key
takes only lines marked for this run, in canonical form, with a rising sequence
number, of an allowed kind. Unfenced readers see one extra payload member.

Start-up: importing the package calls :func:`take_process_key` once. It runs at
import, before adapter code can start a child, so that neither
``BERNSTEIN_SIGNAL_KEY`` nor ``BERNSTEIN_SIGNAL_KEY_FD`` (nor the descriptor) is
inherited by the agent or anything else the adapter starts; :func:`.formatting.emit`
then marks, with the key taken, the lines it writes to ``sys.stdout``. Holding a
key, the process is non-dumpable on Linux (its agent cannot read the key or
write to its stdin through ``/proc``), and a child made by ``os.fork()`` drops
the key rather than count the parent's sequence numbers again.
"""

import hmac
import os
import re
import threading
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any, Final, NamedTuple

from ._canonical_json import dump_canonical
from ._fence_key import SignalKey, key_from_environment, protect_process, refuse_to_run
from .fence_rules import (
    KIND_NOT_ALLOWED,
    MARK_FIELD,
    MAX_SEQUENCE,
    MAX_SEQUENCE_STEP,
    REPLAYED_SIGNAL,
    RUN_HEX_DIGITS,
    UNAUTHENTICATED_SIGNAL,
)
from .formatting import format_signal
from .kinds import SIGNAL_PREFIX, SignalKind
from .parsing import parse_signal
from .signals import StreamSignal, new_signal

__all__ = [
    "FenceVerdict",
    "FenceVerifier",
    "SignalKey",
    "SignalMarker",
    "process_key",
    "protect_process",
    "take_process_key",
]

_KINDS: Final = {kind.value: kind for kind in SignalKind}
_MARK: Final = re.compile(
    f"([0-9a-f]{{{RUN_HEX_DIGITS}}})\\.(0|[1-9][0-9]{{0,15}})\\.([0-9a-f]{{64}})"
)
"""A mark's shape; 16 digits hold every sequence number up to MAX_SEQUENCE."""
_PREFIX_LENGTH: Final = len(SIGNAL_PREFIX)
_ABSENT: Final = object()


class FenceVerdict(NamedTuple):
    """What the fence makes of one line.

    ``signal`` set: accepted (its payload without the mark). ``code`` set: a
    signal line that is not a signal under the fence (BS601, BS602, BS603),
    ``problem`` says why. Both None: the line is no signal line at all.
    """

    signal: StreamSignal | None
    code: str | None
    problem: str | None
    seq: int | None
    line_no: int | None = None
    """1-based line number, set by the readers (None from :meth:`FenceVerifier.check`)."""


_PLAIN: Final = FenceVerdict(None, None, None, None)


def _json_with_mark(mark: str, payload: dict[str, Any], payload_text: str) -> str:
    """The canonical JSON of ``payload`` plus the mark, from its canonical text without it.

    The mark's key sorts first unless some key sorts below ``_sig`` (an upper-case or
    digit start): then the whole object is written again. A key compares with the
    ASCII ``_sig`` the same in UTF-16 and code-point order.
    """
    member = f'{{"{MARK_FIELD}":"{mark}"'
    if not payload:
        return member + "}"
    if min(payload) > MARK_FIELD:
        return f"{member},{payload_text[1:]}"
    return dump_canonical({**payload, MARK_FIELD: mark})


class SignalMarker:
    """Writes the marked lines of one process: sequence numbers count from 1."""

    __slots__ = ("_key", "_lock", "_next")

    def __init__(self, key: SignalKey) -> None:
        if not isinstance(key, SignalKey):
            raise TypeError(f"a SignalMarker takes a SignalKey, not {type(key).__name__}")
        self._key = key
        self._next = 1
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"SignalMarker(run={self._key.run!r}, next_seq={self._next})"

    def mark(self, kind: SignalKind | str, payload: dict[str, Any] | None = None) -> str:
        """The fenced line of ``kind`` and ``payload``, without "\\n"; takes the next seq.

        Raises what :func:`.formatting.format_signal` raises, and ValueError for a
        payload that already holds the mark or when the sequence numbers are used up.
        """
        if isinstance(payload, dict) and MARK_FIELD in payload:
            raise ValueError(
                f"the payload already holds {MARK_FIELD!r}, the fence's mark: pass the"
                " payload without it (a line is marked once, by the process that writes it)"
            )
        line = format_signal(kind, payload)
        space = line.find(" ", _PREFIX_LENGTH)
        kind_text = line[_PREFIX_LENGTH:] if space < 0 else line[_PREFIX_LENGTH:space]
        payload_text = line[space + 1 :] if payload else ""
        with self._lock:
            seq = self._next
            if seq > MAX_SEQUENCE:
                raise ValueError(f"this run's {MAX_SEQUENCE} sequence numbers are used up")
            self._next = seq + 1
        mark = f"{self._key.run}.{seq}.{self._key.mac(str(seq), kind_text, payload_text)}"
        return f"{SIGNAL_PREFIX}{kind_text} {_json_with_mark(mark, payload or {}, payload_text)}"


def _allowed(kinds: Iterable[SignalKind | str] | None) -> frozenset[SignalKind] | None:
    if kinds is None:
        return None
    if isinstance(kinds, (str, bytes)):
        raise TypeError("allow_kinds is a collection of kinds (['COMPLETED', 'FAILED']), not one str")
    allowed = set()
    for kind in kinds:
        found = _KINDS.get(kind) if isinstance(kind, str) else None
        if found is None:
            names = ", ".join(sorted(_KINDS))
            raise ValueError(f"allow_kinds: {kind!r:.40} is not a signal kind (one of {names})")
        allowed.add(found)
    return frozenset(allowed)


class FenceVerifier:
    """Checks one run's stream, line by line, in order (it keeps the last sequence number).

    ``key`` None checks the allow-list only. Never raises on a line.
    """

    __slots__ = ("_allowed", "_key", "_last")

    def __init__(
        self, key: SignalKey | None, allow_kinds: Iterable[SignalKind | str] | None = None
    ) -> None:
        if key is not None and not isinstance(key, SignalKey):
            raise TypeError(f"a FenceVerifier takes a SignalKey or None, not {type(key).__name__}")
        self._key = key
        self._allowed = _allowed(allow_kinds)
        self._last = 0

    def __repr__(self) -> str:
        run = None if self._key is None else self._key.run
        kinds = None if self._allowed is None else [str(kind) for kind in sorted(self._allowed)]
        return f"FenceVerifier(run={run!r}, allow_kinds={kinds!r}, last_seq={self._last})"

    def check(self, line: object) -> FenceVerdict:
        """The verdict on one line (str or UTF-8 bytes, one trailing "\\n" or "\\r\\n"),
        parsed strictly: the only public verdict, so a line that is no strict signal (padded,
        a tab for the space) is plain output on every path."""
        signal = parse_signal(line)
        return _PLAIN if signal is None else self._verify(signal)

    def _verify(self, signal: StreamSignal) -> FenceVerdict:
        """The verdict on a signal parsed strictly from its whole line (check's, the readers').

        Not public: a lenient parse strips the line, so its ``raw_line`` is not what was
        read, and a padded line would pass here that :meth:`check` calls plain output.
        """
        kind = signal.kind
        seq = None
        if self._key is not None:
            verdict = self._authentic(signal)
            if verdict.signal is None:
                return verdict
            signal, seq = verdict.signal, verdict.seq
        if self._allowed is not None and kind not in self._allowed:
            allowed = ", ".join(sorted(self._allowed)) or "none"
            problem = f"{kind} signal not allowed in this run (allowed: {allowed})"
            return FenceVerdict(None, KIND_NOT_ALLOWED, problem, seq)
        return FenceVerdict(signal, None, None, seq)

    def _authentic(self, signal: StreamSignal) -> FenceVerdict:
        kind, payload = signal.kind, signal.payload
        mark = payload.get(MARK_FIELD, _ABSENT)
        if mark is _ABSENT:
            return _unauthenticated(kind, "not marked")
        found = _MARK.fullmatch(mark) if type(mark) is str else None
        if found is None:
            return _unauthenticated(kind, "bad mark")
        run, seq_text, mac = found.groups()
        key: SignalKey = self._key  # type: ignore[assignment]  # _verify() checked it
        if run != key.run:
            return _unauthenticated(kind, "marked for another run")
        seq = int(seq_text)
        if not 1 <= seq <= MAX_SEQUENCE:
            return _unauthenticated(kind, "bad mark")
        rest = {name: value for name, value in payload.items() if name != MARK_FIELD}
        try:
            payload_text = dump_canonical(rest) if rest else ""
        except (ValueError, TypeError, RecursionError):
            return _unauthenticated(kind, "not in canonical form")
        if not hmac.compare_digest(key.mac(seq_text, kind, payload_text), mac):
            return _unauthenticated(kind, "bad mark")
        canonical = f"{SIGNAL_PREFIX}{kind} {_json_with_mark(mark, rest, payload_text)}"
        if signal.raw_line != canonical:
            return _unauthenticated(kind, "not in canonical form")
        if seq <= self._last:
            problem = f"replayed {kind} signal: sequence number {seq} again after {self._last}"
            return FenceVerdict(None, REPLAYED_SIGNAL, problem, seq)
        if seq - self._last > MAX_SEQUENCE_STEP:
            problem = (
                f"{kind} signal out of sequence: number {seq} after {self._last}"
                f" (at most {MAX_SEQUENCE_STEP} ahead)"
            )
            return FenceVerdict(None, REPLAYED_SIGNAL, problem, seq)
        self._last = seq
        return FenceVerdict(new_signal(kind, rest, signal.raw_line), None, None, seq)


def _unauthenticated(kind: str, why: str) -> FenceVerdict:
    return FenceVerdict(None, UNAUTHENTICATED_SIGNAL, f"unauthenticated {kind} signal: {why}", None)


class _Process:
    """The key this process took at start-up, and the marker :func:`.formatting.emit` uses."""

    key: SignalKey | None = None
    marker: SignalMarker | None = None


def _forget_key_in_child() -> None:
    """After ``os.fork()`` the child has no key: it writes unmarked lines.

    Parent and child would count the same sequence numbers: the child's lines
    would use up numbers the parent then writes again, and the verifier drops the
    parent's (its real terminal among them) as replays. Unmarked, the child's
    lines are refused loudly (BS601) instead.
    """
    _Process.key = None
    _Process.marker = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_key_in_child)


def take_process_key(environ: MutableMapping[str, str] = os.environ) -> SignalKey | None:
    """Take the key from ``environ`` (removing both variables, closing the descriptor).

    A key found becomes the process key, and the process is made non-dumpable
    (:func:`._fence_key.protect_process`: on Linux no other process of the user,
    the agent included, reads the key from its memory or writes to its stdin
    through ``/proc``); with neither variable set nothing changes. A process
    told to expect a key that gives none (a bad text, a descriptor that is no
    socket or gives no key in time) stops: one line on stderr, an unmarked
    FAILED saying why on stdout, exit status ``KEY_REFUSED_STATUS``
    (:func:`._fence_key.refuse_to_run`). Returns the process key. The package
    calls it once, at import; a child made by ``os.fork()`` has no key.
    """
    try:
        key = key_from_environment(environ)
    except ValueError as exc:
        refuse_to_run(str(exc))
    if key is not None:
        _Process.key = key
        _Process.marker = SignalMarker(key)
        protect_process()
    return _Process.key


def process_key() -> SignalKey | None:
    """The key this process took at start-up (None: it writes unmarked lines)."""
    return _Process.key


def _process_marker() -> SignalMarker | None:
    """The marker of the process key, shared by every :func:`.formatting.emit`."""
    return _Process.marker


def _reader_verifier(
    key: SignalKey | None,
    allow_kinds: Iterable[SignalKind | str] | None,
    on_rejected: Callable[[FenceVerdict], object] | None,
    *,
    unknown_kinds: bool = False,
    lenient: bool = False,
) -> FenceVerifier:
    """The verifier a reader's fence options ask for; the readers call it only when one is
    given (:func:`.parsing._asks_for_fence`), so the unfenced path never loads this module."""
    if key is None and allow_kinds is None:
        raise ValueError(
            "on_rejected is called for lines the fence rejects: pass key= or allow_kinds= too"
        )
    if unknown_kinds:
        raise ValueError(
            "a fenced reader reads this vocabulary's kinds only:"
            " unknown_kinds=True does not go with key= or allow_kinds="
        )
    if lenient:
        raise ValueError(
            "a fenced line is canonical, so a fenced reader is strict:"
            " lenient=True does not go with key= or allow_kinds="
        )
    if on_rejected is not None and not callable(on_rejected):
        raise TypeError(f"on_rejected is a callable, not {type(on_rejected).__name__}")
    return FenceVerifier(key, allow_kinds)
