"""The implementation under test as one long-running process speaking JSON Lines
(or, with ``per_vector``, one process per vector).

Each request is one line of JSON (ASCII: every other character escaped, so no
reader splits it) on the harness's stdin; its answer is one line of JSON on
its stdout, in order. A harness that exits, times out or answers past the
size bound is killed (its whole process group) and started again for the
next vector, and the vector fails with the reason; one that cannot be
started, or dies :data:`MAX_RESTARTS` times in a row, ends the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Sequence
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from typing import Any

from bernstein_signals_toolkit.toolkit_errors import ToolkitError, one_line

from ._process import ProcessGroup, exit_reason, signal_name

__all__ = ["MAX_ANSWER_BYTES", "MAX_RESTARTS", "Answer", "Harness", "HarnessGaveUp"]

MAX_ANSWER_BYTES = 16 << 20
"""The longest answer line read; a longer one fails the vector and restarts the harness."""
MAX_RESTARTS = 5
"""Consecutive vectors a harness may die on before the run stops."""
_READ = 1 << 16


class HarnessGaveUp(ToolkitError):
    """The harness keeps dying (exit 2), or a signal to us ended the run (128+N)."""

    def __init__(self, message: str, exit_status: int = 2) -> None:
        super().__init__(message)
        self.exit_status = exit_status


@dataclass(frozen=True)
class Answer:
    value: object = None
    """The decoded answer (None with ``failure``)."""
    failure: str | None = None
    """Why there is no answer: a timeout, an exit, a line that is not JSON."""


class Harness:
    """Started on first use; :meth:`ask` sends one request and waits ``timeout`` seconds.

    ``per_vector``: a fresh process for each vector, its stdin closed after the
    request, for implementations that read all of stdin and answer once.
    """

    def __init__(self, command: Sequence[str], timeout: float, per_vector: bool = False) -> None:
        self._command = list(command)
        self._timeout = timeout
        self._per_vector = per_vector
        self._stack = ExitStack()
        self._group: ProcessGroup | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._deaths = 0
        self.interrupted: int | None = None

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()

    def _start(self) -> tuple[ProcessGroup, subprocess.Popen[bytes]]:
        if self._group is None or self._process is None:
            group = ProcessGroup(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            self._process = self._stack.enter_context(group)
            self._group = group
            self._buffer.clear()
            for pipe in (self._process.stdin, self._process.stdout):
                assert pipe is not None
                os.set_blocking(pipe.fileno(), False)
        return self._group, self._process

    def _stop(self, kill: bool = False) -> None:
        if self._group is not None and kill:
            self._group.kill()
        if self._process is not None and self._process.stdin is not None:
            with suppress(OSError):
                self._process.stdin.close()
        if self._group is not None and self._group.wait(time.monotonic() + 2.0) is None:
            self._group.kill()
            self._group.wait(time.monotonic() + 2.0)
        if self._group is not None and self._group.interrupted is not None:
            self.interrupted = int(self._group.interrupted)
        self._stack.close()
        self._stack = ExitStack()
        self._group = self._process = None

    def _died(self, why: str) -> Answer:
        self._deaths += 1
        self._stop(kill=True)
        if self.interrupted is not None:
            name = signal_name(self.interrupted)
            raise HarnessGaveUp(f"interrupted by SIG{name}", 128 + self.interrupted)
        if self._deaths >= MAX_RESTARTS:
            raise HarnessGaveUp(
                f"the harness failed {MAX_RESTARTS} vectors in a row (last: {why}); stopping"
            )
        return Answer(failure=why)

    def _exit_text(self) -> str:
        assert self._group is not None
        code = self._group.wait(time.monotonic() + 1.0)
        return "the harness exited" + ("" if code is None else f" ({exit_reason(code)})")

    def ask(self, request: dict[str, Any]) -> Answer:
        if self._group is not None and self._group.interrupted is not None:
            return self._died("interrupted")  # a harness that survived the signal: stop
        group, process = self._start()
        assert process.stdin is not None
        assert process.stdout is not None
        data = memoryview((json.dumps(request, ensure_ascii=True) + "\n").encode("ascii"))
        deadline = time.monotonic() + self._timeout
        stdin, stdout = process.stdin.fileno(), process.stdout.fileno()
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                break
            if len(self._buffer) > MAX_ANSWER_BYTES:
                return self._died(f"answer longer than {MAX_ANSWER_BYTES} bytes")
            ready = group.select([stdout], [stdin] if data else [], deadline)
            if ready is None:
                if group.interrupted is not None:
                    return self._died("interrupted")
                return self._died(f"no answer within {self._timeout:g} s")
            readable, writable = ready
            if writable:
                try:
                    written = os.write(stdin, data[:_READ])
                except BlockingIOError:
                    written = 0
                except BrokenPipeError:
                    return self._died(self._exit_text())
                data = data[written:]
                if not data and self._per_vector:
                    process.stdin.close()
            if readable:
                chunk = os.read(stdout, _READ)
                if not chunk:
                    return self._died(self._exit_text())
                self._buffer += chunk
        self._deaths = 0
        if self._per_vector:
            self._stop()
        try:
            return Answer(json.loads(line.decode("utf-8")))
        except (UnicodeDecodeError, ValueError, RecursionError):
            shown = line[:80].decode("utf-8", "replace")
            return Answer(failure=one_line(f"the answer is not one line of JSON: {shown!r}"))
