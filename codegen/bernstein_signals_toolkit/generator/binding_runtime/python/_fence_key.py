"""The fence's key: a run nonce and a secret, and how a process takes it at start-up.

The secret leaves this module only as :meth:`SignalKey.text` (for handing the key
over) and as HMACs. No repr, str, exception or warning holds it: what a process
prints, an agent it runs may read.
"""

import contextlib
import hashlib
import hmac
import math
import os
import re
import secrets
import select
import stat
import sys
import time
from collections.abc import MutableMapping
from typing import Any, Final, NoReturn

from .fence_rules import (
    KEY_EXPOSED,
    KEY_FD_MAX,
    KEY_FD_MIN,
    KEY_FD_VARIABLE,
    KEY_READ_SECONDS,
    KEY_REFUSED_STATUS,
    KEY_SHAPE,
    KEY_VARIABLE,
    MAC_DOMAIN,
    RUN_HEX_DIGITS,
    SECRET_HEX_DIGITS,
)

__all__ = ["SignalKey", "key_from_environment", "protect_process", "refuse_to_run"]

_KEY_TEXT: Final = re.compile(
    f"([0-9a-f]{{{RUN_HEX_DIGITS}}}):([0-9a-f]{{{SECRET_HEX_DIGITS}}})\n?"
)
_RUN: Final = re.compile(f"[0-9a-f]{{{RUN_HEX_DIGITS}}}")
_NOT_A_KEY: Final = f"not a signal key: {KEY_SHAPE}"
_KEY_FDS: Final = range(KEY_FD_MIN, KEY_FD_MAX + 1)
_KEY_BYTES: Final = RUN_HEX_DIGITS + 1 + SECRET_HEX_DIGITS
"""The key text's length: reading stops there (plus one "\\n"), so no stream makes it read more."""
_PR_SET_DUMPABLE: Final = 4
"""``prctl`` option (``<linux/prctl.h>``)."""


class SignalKey:
    """One run's key: ``run`` (the nonce, not secret) and a hidden 32-byte secret.

    Immutable; compared in constant time; its repr shows the run only.
    """

    __slots__ = ("_mac", "_secret", "run")
    run: str
    _secret: bytes
    _mac: "tuple[hashlib._Hash, hashlib._Hash]"

    def __init__(self, run: str, secret: bytes) -> None:
        if type(run) is not str or _RUN.fullmatch(run) is None:
            raise ValueError(f"a signal key's run is {RUN_HEX_DIGITS} lowercase hex digits")
        if type(secret) is not bytes or len(secret) * 2 != SECRET_HEX_DIGITS:
            raise ValueError(f"a signal key's secret is {SECRET_HEX_DIGITS // 2} bytes")
        # HMAC-SHA256 (RFC 2104) on two hashlib states, the inner one past the message's
        # fixed start: per mark two C-level copies, not hmac.HMAC's Python-level copy.
        block = secret.ljust(hashlib.sha256().block_size, b"\0")
        inner = hashlib.sha256(bytes(byte ^ 0x36 for byte in block))
        inner.update(f"{MAC_DOMAIN}\n{run}\n".encode("ascii"))
        outer = hashlib.sha256(bytes(byte ^ 0x5C for byte in block))
        object.__setattr__(self, "run", run)
        object.__setattr__(self, "_secret", secret)
        object.__setattr__(self, "_mac", (inner, outer))

    @classmethod
    def generate(cls) -> "SignalKey":
        """A fresh key for one run (the orchestrator's step)."""
        return cls(secrets.token_hex(RUN_HEX_DIGITS // 2), secrets.token_bytes(SECRET_HEX_DIGITS // 2))

    @classmethod
    def parse(cls, text: str) -> "SignalKey":
        """The key in ``text`` (``<run>:<secret>``, one optional trailing "\\n").

        ValueError, whose message never quotes ``text``, for anything else.
        """
        if type(text) is not str:
            raise TypeError(f"a signal key text is a str, not {type(text).__name__}")
        found = _KEY_TEXT.fullmatch(text)
        if found is None:
            raise ValueError(_NOT_A_KEY)
        return cls(found[1], bytes.fromhex(found[2]))

    def text(self) -> str:
        """The key text, to hand the key to the adapter; never print or log it."""
        return f"{self.run}:{self._secret.hex()}"

    def mac(self, seq: str, kind: str, payload_text: str) -> str:
        """HMAC-SHA256 of the mark's message (``spec/fenced-signals.md``), 64 hex digits."""
        inner, outer = self._mac[0].copy(), self._mac[1].copy()
        inner.update(f"{seq}\n{kind}\n{payload_text}".encode())
        outer.update(inner.digest())
        return outer.hexdigest()

    def __repr__(self) -> str:
        return f"SignalKey(run={self.run!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SignalKey):
            return NotImplemented
        return self.run == other.run and hmac.compare_digest(self._secret, other._secret)

    def __hash__(self) -> int:
        return hash(self.run)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"SignalKey is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"SignalKey is immutable (cannot delete {name!r})")

    def __reduce__(self) -> NoReturn:
        raise TypeError("a SignalKey is not pickled or copied: hand it over as text()")

    def __copy__(self) -> "SignalKey":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "SignalKey":
        return self


def protect_process() -> bool:
    """Make this process non-dumpable (Linux ``prctl(PR_SET_DUMPABLE, 0)``): True when set.

    A process holding a key must keep it from the agent it runs, which is the same
    user: a dumpable process lets that user open its ``/proc/PID/mem`` (the key),
    ``environ`` and ``fd/0`` (to write forged replies on its stdin). Non-dumpable,
    those need CAP_SYS_PTRACE. The flag resets on exec, so the agent itself is not
    affected. Elsewhere, or when the call fails, nothing happens (False).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # only a process that takes a key pays for loading it

        prctl = ctypes.CDLL(None, use_errno=True).prctl
        prctl.restype = ctypes.c_int
        prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
        return int(prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)) == 0
    except (ImportError, OSError, AttributeError, TypeError, ValueError):
        return False


def _wait_readable(number: int, deadline: float) -> bool:
    """Whether ``number`` has data or EOF by ``deadline`` (polled once if it is past).

    Without poll (not POSIX) a read cannot be bounded in time: assume it is ready.
    """
    if not hasattr(select, "poll"):
        return True
    poller = select.poll()
    poller.register(number, select.POLLIN)
    while True:
        left = max(0.0, deadline - time.monotonic())
        if poller.poll(math.ceil(left * 1000)):
            return True
        if time.monotonic() >= deadline:
            return False


def _read_key_bytes(number: int) -> bytes:
    """The key's bytes, then what is already there of the rest, at most 2 bytes.

    Reads only when poll says there is something, and waits KEY_READ_SECONDS at
    most in all (then ValueError), so a writer that keeps its end open, whether it
    wrote nothing, too little or the whole key, cannot hang the import. The rest
    is the optional "\\n" and EOF: anything else there makes the text no key. Not
    O_NONBLOCK: that flag is on the open file description, which the orchestrator
    may share (a dup it keeps to drain what a command left unread).
    """
    deadline = time.monotonic() + KEY_READ_SECONDS
    data = b""
    while len(data) < _KEY_BYTES and b"\n" not in data:
        if not _wait_readable(number, deadline):
            raise ValueError(
                f"{KEY_FD_VARIABLE} names fd {number}, which gave no whole key"
                f" within {KEY_READ_SECONDS} s (its writer did not close it)"
            )
        chunk = os.read(number, _KEY_BYTES - len(data))
        if not chunk:
            return data
        data += chunk
    rest = b""
    while len(rest) < 2 and _wait_readable(number, time.monotonic()):
        chunk = os.read(number, 2 - len(rest))
        if not chunk:
            break
        rest += chunk
    return data + rest


def _channel_problem(mode: int) -> str | None:
    """Why a descriptor of this mode cannot carry a key (None for a socket, which can).

    A pipe, a FIFO or a file (a memfd included) can be opened again through
    ``/proc/PID/fd/N`` by any process of the same user, which reads the key out
    of it, or writes one of its own in, before this process takes it; a socket
    cannot be (ENXIO). A terminal or a device could also make the read wait or
    never end.
    """
    if stat.S_ISSOCK(mode):
        return None
    if stat.S_ISFIFO(mode) or stat.S_ISREG(mode):
        what = "a pipe" if stat.S_ISFIFO(mode) else "a file"
        return f"{what}, {KEY_EXPOSED}"
    return "not a socket"


def _read_key_fd(number: int) -> str:
    """The key text on an inherited socket, which is closed after: OSError or ValueError."""
    try:
        problem = _channel_problem(os.fstat(number).st_mode)
        if problem is not None:
            raise ValueError(f"{KEY_FD_VARIABLE} names fd {number}, {problem}")
        data = _read_key_bytes(number)
    finally:
        with contextlib.suppress(OSError):
            os.close(number)
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        raise ValueError(f"the text on fd {number} ({KEY_FD_VARIABLE}) is {_NOT_A_KEY}") from None


def _key_text(fd_text: str | None, text: str | None) -> tuple[str, str]:
    """The key text and where it came from; the descriptor wins when both are given."""
    if fd_text is None:
        return KEY_VARIABLE, text or ""
    number = int(fd_text) if fd_text.isascii() and fd_text.isdigit() and len(fd_text) == 1 else -1
    if number not in _KEY_FDS:
        raise ValueError(f"{KEY_FD_VARIABLE} is not a descriptor number {KEY_FD_MIN}..{KEY_FD_MAX}")
    try:
        return f"the text on fd {number} ({KEY_FD_VARIABLE})", _read_key_fd(number)
    except OSError as exc:
        raise ValueError(
            f"{KEY_FD_VARIABLE} names fd {number}, which cannot be read ({exc.strerror})"
        ) from None


def key_from_environment(environ: MutableMapping[str, str]) -> SignalKey | None:
    """Remove both key variables from ``environ`` and read the key they give.

    None when neither was set; ValueError, whose message never quotes the key,
    when one was but no key could be taken (a bad text, a descriptor that is no
    socket, cannot be read or gives no whole key in time).
    """
    fd_text = environ.pop(KEY_FD_VARIABLE, None)
    text = environ.pop(KEY_VARIABLE, None)
    if fd_text is None and text is None:
        return None
    source, key_text = _key_text(fd_text, text)
    try:
        return SignalKey.parse(key_text)
    except ValueError:
        raise ValueError(f"{source} is {_NOT_A_KEY}") from None


def refuse_to_run(problem: str) -> NoReturn:
    """Stop a process that was told to expect a key and could not take one.

    Unkeyed, its lines would all be refused by the fenced orchestrator, which
    would then wait for a terminal that never counts. So it says why, once on
    stderr and once as an (unmarked) FAILED on stdout, and exits with
    :data:`KEY_REFUSED_STATUS`.
    """
    from .constructors import failed  # only a process that stops pays for it

    reason = f"no signal key: {problem}"
    said = ((sys.stderr, f"bernstein-signals: {reason}"), (sys.stdout, failed(reason=reason)))
    for stream, line in said:
        if stream is None:
            continue
        try:
            stream.write(f"{line}\n")
            stream.flush()
        except (OSError, ValueError):
            pass
    raise SystemExit(KEY_REFUSED_STATUS)
