"""Handing a run's key to the command ``wrap --fence``/``conform --fence`` start: a pipe on fd 3.

The key text goes into a pipe that the parent writes and closes before the
command starts, so the command reads it once and then the pipe is empty; the
command learns the descriptor from ``BERNSTEIN_SIGNAL_KEY_FD=3``. Why not the
environment: ``/proc/PID/environ`` keeps a process's start-up environment
after ``unset``, so any process of the same user could read a key put there
(``spec/fenced-signals.md``).

fd 3 in the command must be the pipe, and ``subprocess`` keeps descriptors
under their own numbers, so the pipe is put on our fd 3 just for the start
(whatever we held there is moved aside and put back right after). Nothing
else runs in between: the commands are single-threaded.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from typing import Any

from bernstein_signals.fence_rules import KEY_FD_MIN, KEY_FD_VARIABLE, KEY_VARIABLE

__all__ = ["KEY_FD", "KEY_NOT_TAKEN", "child_environment", "key_on_fd"]

KEY_FD = KEY_FD_MIN
"""The command's descriptor that holds the key text: the lowest of the fence's range."""


KEY_NOT_TAKEN = (
    f"the command did not take the key from fd {KEY_FD} before its first output (or at all);"
    " the rest was drained, but anything it started before may have read it"
)
"""The warning when the key is still in its pipe at the command's first output or end."""


def child_environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """Our environment for the command: the key only on :data:`KEY_FD`, never as text."""
    child = dict(os.environ if environ is None else environ)
    child.pop(KEY_VARIABLE, None)
    child[KEY_FD_VARIABLE] = str(KEY_FD)
    return child


def _is_open(fd: int) -> bool:
    try:
        fcntl.fcntl(fd, fcntl.F_GETFD)
    except OSError:
        return False
    return True


@contextlib.contextmanager
def key_on_fd(key_text: str) -> Iterator[dict[str, Any]]:
    """The ``Popen`` options that hand ``key_text`` over on :data:`KEY_FD`; start the command
    inside. On leaving, our own fd 3 is what it was before."""
    read_end, write_end = os.pipe()
    try:
        # 82 bytes: far below PIPE_BUF, so this write neither blocks nor splits.
        os.write(write_end, key_text.encode("ascii") + b"\n")
    finally:
        os.close(write_end)
    saved: int | None = None
    saved_inheritable = False
    if read_end != KEY_FD:
        if _is_open(KEY_FD):
            saved_inheritable = os.get_inheritable(KEY_FD)
            saved = os.dup(KEY_FD)
        os.dup2(read_end, KEY_FD, inheritable=True)
        os.close(read_end)
    else:
        os.set_inheritable(KEY_FD, True)
    try:
        yield {"pass_fds": (KEY_FD,), "env": child_environment()}
    finally:
        if saved is None:
            os.close(KEY_FD)
        else:
            os.dup2(saved, KEY_FD, inheritable=saved_inheritable)
            os.close(saved)
