"""Handing a key text (or any bytes) to a child the way orchestrators must: on a socket.

Tests that feed malformed or partial key texts cannot use the binding's
``key_handover`` (it takes a SignalKey), so they use :func:`socket_holding`.
"""

from __future__ import annotations

import socket

__all__ = ["socket_holding"]


def socket_holding(data: bytes, *, close_writer: bool = True) -> tuple[int, socket.socket | None]:
    """The child's end of a socketpair holding ``data``, as a bare descriptor (the caller
    closes it), and our end when ``close_writer`` is False (else it is closed: EOF after data).
    """
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    if data:
        ours.sendall(data)
    if close_writer:
        ours.close()
        return theirs.detach(), None
    return theirs.detach(), ours
