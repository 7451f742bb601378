"""The server's stdio: every read from the client bounded, every log record one line."""

from __future__ import annotations

import logging
import sys
from typing import BinaryIO

from bernstein_signals_toolkit.toolkit_errors import ToolkitError, one_line

__all__ = [
    "MAX_HEADER_BYTES",
    "MAX_MESSAGE_BYTES",
    "BoundedStdin",
    "MessageTooLarge",
    "log_one_line_per_problem",
]

MAX_MESSAGE_BYTES = 64 << 20
"""The largest message body (Content-Length) the server reads; a larger one ends the session."""
MAX_HEADER_BYTES = 8192
"""The longest header line the server reads; a longer one ends the session."""
_LOG_MESSAGE_CHARS = 500
_TRACEBACK = "Traceback (most recent call last):"


class MessageTooLarge(ToolkitError):
    """The client sent a header or message over the server's bounds: the session ends."""


class BoundedStdin:
    """The client's stream as pygls reads it, with every read bounded.

    pygls reads a header line with ``readline()`` and a body with
    ``read(Content-Length)`` in one call, so an absurd length would be allocated
    at once; here it is refused before anything is read.
    """

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def readline(self) -> bytes:
        line = self._stream.readline(MAX_HEADER_BYTES + 1)
        if len(line) > MAX_HEADER_BYTES:
            raise MessageTooLarge(f"lsp: a header line is over {MAX_HEADER_BYTES} bytes")
        return line

    def read(self, size: int) -> bytes:
        if size > MAX_MESSAGE_BYTES:
            raise MessageTooLarge(
                f"lsp: Content-Length {size} is over the {MAX_MESSAGE_BYTES}-byte message bound"
            )
        return self._stream.read(size)


class _OneLine(logging.Formatter):
    """A log record as one line: an exception is named with its message, never traced."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        head, traced, trace = message.partition(_TRACEBACK)
        if traced:  # pygls formats some tracebacks into the message: keep the exception line
            lines = [line for line in trace.splitlines() if line.strip()]
            message = f"{head.strip()}: {lines[-1].strip()}" if lines else head.strip()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message += f": {type(error).__name__}: {error}"
        if len(message) > _LOG_MESSAGE_CHARS:
            message = message[:_LOG_MESSAGE_CHARS] + "..."
        return one_line(f"bernstein-signals lsp: {record.levelname.lower()}: {message}")


def log_one_line_per_problem() -> None:
    """Route every logger (pygls, asyncio) to stderr through :class:`_OneLine`."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    logging.root.handlers[:] = [handler]
    logging.root.setLevel(logging.WARNING)
