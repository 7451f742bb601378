"""Handing a run's key to the adapter an orchestrator starts: on a socket, never a pipe.

The adapter takes its key from the descriptor ``BERNSTEIN_SIGNAL_KEY_FD`` names,
and takes it from a socket only: a pipe or a file can be opened again through
``/proc/PID/fd/N`` by any process of the same user (the agent too), which reads
the key or swaps in its own before the adapter does; a socket cannot be
(ENXIO). The key goes into one end of a ``socketpair``, which is closed at
once; the other end becomes the adapter's descriptor, a number from
``KEY_FD_MIN`` to ``KEY_FD_MAX`` (one digit, so that every shell can read it).

    key = SignalKey.generate()
    with popen_with_key(["./adapter.sh"], key, stdout=subprocess.PIPE) as proc:
        for record in read_signals(proc.stdout, key=key, on_rejected=print): ...

:func:`key_handover` gives the ``Popen`` options instead, for code that starts
the process its own way.
"""

import contextlib
import fcntl
import os
import socket
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from ._fence_key import SignalKey
from .fence_rules import KEY_FD_MAX, KEY_FD_MIN, KEY_FD_VARIABLE, KEY_VARIABLE

__all__ = ["KeyHandover", "key_handover", "popen_with_key"]


class KeyHandover(NamedTuple):
    """A key on its way to one process, as :func:`key_handover` gives it."""

    options: dict[str, Any]
    """For ``subprocess.Popen(args, **options)``: ``pass_fds``, ``env`` (``BERNSTEIN_SIGNAL_KEY_FD``
    set, ``BERNSTEIN_SIGNAL_KEY`` removed) and, when this process holds every number from
    ``KEY_FD_MIN`` to ``KEY_FD_MAX``, a ``preexec_fn`` that moves the socket onto
    ``KEY_FD_MIN`` in the child only."""
    fd: int
    """This process's descriptor of the process's end (open inside the block): a caller
    may ``dup`` it to see later whether the key was taken."""


def _key_socket(key: SignalKey) -> int:
    """The process's end of a socketpair holding the key, at the lowest free number from
    ``KEY_FD_MIN``, close-on-exec (``pass_fds`` makes it the child's)."""
    if not isinstance(key, SignalKey):
        raise TypeError(f"the key handed over is a SignalKey, not {type(key).__name__}")
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with ours, theirs:
        ours.sendall(key.text().encode("ascii") + b"\n")  # 82 bytes: the buffer holds them
        return fcntl.fcntl(theirs.fileno(), fcntl.F_DUPFD_CLOEXEC, KEY_FD_MIN)


@contextlib.contextmanager
def key_handover(key: SignalKey, env: Mapping[str, str] | None = None) -> Iterator[KeyHandover]:
    """The ``Popen`` options that hand ``key`` to the process started inside the block.

    ``env`` is the child's environment (``os.environ`` by default), copied. The
    descriptor is closed on leaving: start the process inside. One key, one process.
    Nothing this process holds is moved, so other threads may go on.
    """
    number = _key_socket(key)
    target = number if number <= KEY_FD_MAX else KEY_FD_MIN
    child = dict(os.environ if env is None else env)
    child.pop(KEY_VARIABLE, None)
    child[KEY_FD_VARIABLE] = str(target)
    options: dict[str, Any] = {"pass_fds": (target,), "env": child}
    if target != number:
        # Our KEY_FD_MIN is open (every number up to KEY_FD_MAX is), so pass_fds keeps the
        # child's copy of it open, and this replaces it after the fork, before the exec.
        options["preexec_fn"] = _moving(number, target)
    try:
        yield KeyHandover(options, number)
    finally:
        os.close(number)


def _moving(number: int, target: int) -> Callable[[], None]:
    def move() -> None:
        os.dup2(number, target)

    return move


def popen_with_key(
    args: str | bytes | Sequence[str | bytes | os.PathLike[str] | os.PathLike[bytes]],
    key: SignalKey,
    **options: Any,
) -> "subprocess.Popen[Any]":
    """``subprocess.Popen(args, **options)`` that hands ``key`` to the process.

    ``env``, ``pass_fds`` and ``preexec_fn`` in ``options`` are kept (the key's are added).
    An empty ``args`` is a ValueError (``Popen`` itself would raise IndexError).
    """
    if not isinstance(args, str | bytes) and not args:
        raise ValueError("popen_with_key starts a command: args is empty")
    with key_handover(key, options.pop("env", None)) as handover:
        given = handover.options
        options["pass_fds"] = (*options.pop("pass_fds", ()), *given["pass_fds"])
        moving, theirs = given.get("preexec_fn"), options.pop("preexec_fn", None)
        if moving is not None:
            options["preexec_fn"] = moving if theirs is None else _both(moving, theirs)
        elif theirs is not None:
            options["preexec_fn"] = theirs
        return subprocess.Popen(args, env=given["env"], **options)


def _both(first: Callable[[], object], then: Callable[[], object]) -> Callable[[], None]:
    def both() -> None:
        first()
        then()

    return both
