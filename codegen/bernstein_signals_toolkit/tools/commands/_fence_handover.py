"""What ``wrap --fence`` and ``conform --fence`` say about the key they hand over.

The handover itself is the binding's :func:`bernstein_signals.key_handover`
(a socket, which no other process can reopen through ``/proc/PID/fd``);
:class:`._process.ProcessGroup` keeps a copy of the command's end, so that a key
the command did not take at start-up is found and drained.
"""

from __future__ import annotations

from bernstein_signals.fence_rules import KEY_FD_VARIABLE

__all__ = ["KEY_CHANNEL", "KEY_NOT_TAKEN"]

KEY_CHANNEL = f"a socket whose descriptor {KEY_FD_VARIABLE} names"
"""Where the command finds its key, for help texts."""

KEY_NOT_TAKEN = (
    f"the command did not take the key from {KEY_CHANNEL} before its first output (or at all);"
    " the rest was drained, but anything it started before may have read it"
)
"""The warning when the key is still in its socket at the command's first output or end."""
