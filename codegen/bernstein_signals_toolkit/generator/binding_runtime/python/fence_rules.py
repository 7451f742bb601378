"""The fence's constants (issue 17, ``spec/fenced-signals.md``): their one home.

Every binding marks and checks the same bytes, so the Python binding, the shell
and TypeScript emitters, the docs emitter and the tools read these names from
here (other targets through ``python_runtime_module("fence_rules")``). No import
but :mod:`typing`: the generator loads this file on its own.
"""

from typing import Final

__all__ = [
    "FENCE_VERSION",
    "KEY_EXPOSED",
    "KEY_FD_MAX",
    "KEY_FD_MIN",
    "KEY_FD_VARIABLE",
    "KEY_READ_SECONDS",
    "KEY_REFUSED_STATUS",
    "KEY_SHAPE",
    "KEY_VARIABLE",
    "KIND_NOT_ALLOWED",
    "MAC_DOMAIN",
    "MARK_FIELD",
    "MAX_SEQUENCE",
    "MAX_SEQUENCE_STEP",
    "REPLAYED_SIGNAL",
    "RUN_HEX_DIGITS",
    "SECRET_HEX_DIGITS",
    "UNAUTHENTICATED_PREFIX",
    "UNAUTHENTICATED_SIGNAL",
]

FENCE_VERSION: Final = 1
"""The fence extension's version; :data:`MAC_DOMAIN` carries it into every MAC."""
MARK_FIELD: Final = "_sig"
"""The reserved payload member that holds the mark ``<run>.<seq>.<mac>``."""
KEY_VARIABLE: Final = "BERNSTEIN_SIGNAL_KEY"
"""Environment variable holding the key text ``<run>:<secret>``."""
KEY_FD_VARIABLE: Final = "BERNSTEIN_SIGNAL_KEY_FD"
"""Environment variable: the number (KEY_FD_MIN..KEY_FD_MAX) of an inherited socket holding the key.

Preferred to :data:`KEY_VARIABLE`: ``/proc/PID/environ`` keeps a process's start-up
environment after ``unset``, while a socket cannot be reopened through ``/proc/PID/fd``
(a pipe or a file can: a process takes its key from a socket only)."""
KEY_FD_MIN: Final = 3
"""Lowest descriptor number a key may come on (0..2 are the standard streams)."""
KEY_FD_MAX: Final = 9
"""Highest descriptor number a key may come on: one digit, which any shell (dash too) redirects."""
KEY_READ_SECONDS: Final = 2
"""How long, in all, a process waits for the key on its descriptor before it refuses to run.

The orchestrator writes the key before it starts the process, so a wait means a
writer that never finishes: the process must not hang at start-up."""
KEY_EXPOSED: Final = "which any process of this user can reopen; hand the key over on a socket"
"""What every binding says of a key descriptor that is a pipe or a file ("fd 3, a pipe, ..."):
``/proc/PID/fd/N`` reopens those, so another process could take or swap the key first."""
KEY_REFUSED_STATUS: Final = 78
"""The exit status of a process told to expect a key that it could not take (``EX_CONFIG``):
it writes an unmarked FAILED saying why and stops, rather than write lines its fenced
orchestrator would refuse."""
MAC_DOMAIN: Final = "bernstein-signals fence 1"
"""The first line of every MAC message: a mark of this version means nothing elsewhere."""
RUN_HEX_DIGITS: Final = 16
"""Lowercase hex digits of the run nonce (8 random bytes; not secret)."""
SECRET_HEX_DIGITS: Final = 64
"""Lowercase hex digits of the secret (32 random bytes): the HMAC-SHA256 key."""
KEY_SHAPE: Final = f"expected {RUN_HEX_DIGITS} hex digits, ':', {SECRET_HEX_DIGITS} hex digits"
"""A key text's shape, for every message about a text that is not a key (which never quotes it)."""
MAX_SEQUENCE: Final = 2**53 - 1
"""Largest sequence number; every binding (JavaScript numbers included) counts exactly to it."""
MAX_SEQUENCE_STEP: Final = 1024
"""How far above the last accepted sequence number a line's may be: further is refused
(:data:`REPLAYED_SIGNAL`), so one forged line cannot spend every number after it and make
the adapter's own lines, its terminal among them, replays. A gap up to it is accepted
(a marked line may go unwritten)."""
UNAUTHENTICATED_PREFIX: Final = "[unauthenticated] "
"""How ``wrap --fence`` relays a forged line, so no reader downstream takes it for a signal."""

UNAUTHENTICATED_SIGNAL: Final = "BS601"
"""Diagnostic code: a signal line not marked for this run (no mark, another run, a bad
mark, not in canonical form)."""
REPLAYED_SIGNAL: Final = "BS602"
"""Diagnostic code: a marked line out of sequence: its number is not above the last one
accepted, or more than :data:`MAX_SEQUENCE_STEP` above it."""
KIND_NOT_ALLOWED: Final = "BS603"
"""Diagnostic code: a signal of a kind outside the run's allow-list."""
