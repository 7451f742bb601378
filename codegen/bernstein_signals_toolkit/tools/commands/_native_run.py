"""``--native claude|codex``: run a CLI that prints its own JSON event stream as an adapter.

The CLI's stdout goes through its mapper (one per run) line for line: a line
that is a native event (a JSON object) and maps to a signal is replaced by
that signal's line (the vocabulary's ``format_signal``); every other line
stays as the CLI printed it, so line numbers are the CLI's own. ``wrap``
prints that stream (events that map to nothing stay as plain output);
``conform`` checks it, with events that map to nothing as blank lines, so
the validator never reads native JSON as a near-miss. Canonical signal lines
in the CLI's output pass unchanged and are read as the protocol's.

Codex: ``thread.started`` starts a run, so the mapper is reset there (one
``codex exec`` prints it once; a script running two threads gets a terminal
for each, which conform reports). Claude reads replies on stdin only with
``--input-format stream-json --permission-prompt-tool stdio``, and then its
prompt comes on stdin too (``conform --prompt``).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from bernstein_signals._native_claude import ClaudeStreamJsonParser
from bernstein_signals._native_codex import CodexJsonParser
from bernstein_signals._native_support import NativeJsonParser
from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES, strip_terminator
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..runtime_vocabulary import RuntimeVocabulary

__all__ = [
    "CLAUDE_REPLY_OPTIONS",
    "MAX_EVENT_BYTES",
    "NATIVE_CLIS",
    "NativeCli",
    "NativeStream",
    "add_native_argument",
    "check_command",
    "has_option",
    "native_of",
    "option_text",
]

MAX_EVENT_BYTES: Final = 16 * DEFAULT_MAX_LINE_BYTES
"""Longest native event mapped: events carry whole tool results, so they may be far longer
than a signal line. A longer line is passed on unmapped (conform then reports it, BS002)."""


@dataclass(frozen=True)
class NativeCli:
    """One CLI whose native stream ``--native`` reads."""

    name: str
    """The ``--native`` value, and the program name whose command line is checked."""
    mapper: Callable[[], NativeJsonParser]
    options: tuple[tuple[str, ...], ...]
    """What the CLI's own command line must hold for it to print the native stream."""
    run_start: str | None
    """The event type that starts a run: the mapper is reset there."""
    replies: bool
    """Whether the CLI can read replies to its questions on stdin."""


NATIVE_CLIS: Final[dict[str, NativeCli]] = {
    "claude": NativeCli(
        name="claude",
        mapper=ClaudeStreamJsonParser,
        options=(("--output-format", "stream-json"),),
        run_start=None,
        replies=True,
    ),
    "codex": NativeCli(
        name="codex",
        mapper=CodexJsonParser,
        options=(("exec",), ("--json",)),
        run_start="thread.started",  # one per `codex exec`; the mapper reads no other start
        replies=False,
    ),
}

CLAUDE_REPLY_OPTIONS: Final = (
    ("--input-format", "stream-json"),
    ("--permission-prompt-tool", "stdio"),
)
"""What Claude's command line needs before it asks on stdin and reads the answers there."""


def add_native_argument(parser: argparse.ArgumentParser, *, what: str) -> None:
    parser.add_argument(
        "--native",
        choices=tuple(NATIVE_CLIS),
        help="CMD prints a native JSON event stream (claude --output-format stream-json,"
        f" codex exec --json): {what}",
    )


def native_of(args: argparse.Namespace) -> NativeCli | None:
    name: str | None = getattr(args, "native", None)
    return None if name is None else NATIVE_CLIS[name]


def has_option(command: Sequence[str], option: tuple[str, ...]) -> bool:
    """Whether ``command`` holds ``option``: ``NAME VALUE``, ``NAME=VALUE`` or a bare word."""
    name, *value = option
    for index, arg in enumerate(command):
        if not value and arg == name:
            return True
        if value and (arg == f"{name}={value[0]}" or command[index : index + 2] == [name, *value]):
            return True
    return False


def option_text(*options: tuple[str, ...]) -> str:
    """Options as a command line spells them: ``--input-format stream-json``."""
    return " ".join(word for option in options for word in option)


def check_command(cli: NativeCli, command: Sequence[str]) -> bool:
    """Whether ``command`` runs the CLI itself (then its options are checked: a usage error).

    A wrapper script is trusted to pass them: its command line says nothing.
    """
    if os.path.basename(command[0]) != cli.name:
        return False
    command = list(command)
    missing = [option_text(option) for option in cli.options if not has_option(command, option)]
    if missing:
        raise UsageError(
            f"--native {cli.name} reads the stream {cli.name} prints with {', '.join(missing)};"
            " add it to the command"
        )
    return True


class NativeStream:
    """A CLI's stdout, chunk by chunk, as the mapped stream (see the module docstring).

    Only a line that starts with ``{`` is held, up to :data:`MAX_EVENT_BYTES`;
    other lines pass as they come, so memory is bounded whatever the output.
    """

    def __init__(self, cli: NativeCli, vocabulary: RuntimeVocabulary, *, keep: bool) -> None:
        self.cli = cli
        self.mapper = cli.mapper()
        self._vocabulary = vocabulary
        self._keep = keep
        """wrap keeps events that map to nothing; conform blanks them."""
        self._start = (
            None if cli.run_start is None else f'"{cli.run_start}"'.encode()
        )  # a cheap test before the JSON one
        self._line = bytearray()
        self._at_start = True
        self._passing = False
        """Inside a line that is not an event (or an over-long one): its bytes pass as they come."""

    def feed(self, chunk: bytes) -> bytes:
        out = bytearray()
        begin = 0
        while begin < len(chunk):
            if self._at_start:
                self._at_start = False
                self._passing = chunk[begin] != ord("{")
            newline = chunk.find(b"\n", begin)
            end = len(chunk) if newline < 0 else newline + 1
            if self._passing:
                out += chunk[begin:end]
            else:
                self._line += chunk[begin:end]
                if len(self._line) > MAX_EVENT_BYTES + 2:  # "\r\n" does not count
                    out += self._line
                    self._line.clear()
                    self._passing = True
            if newline >= 0:
                if not self._passing:
                    out += self._event(bytes(self._line))
                    self._line.clear()
                self._at_start = True
            begin = end
        return bytes(out)

    def close(self) -> bytes:
        """The last line, when the output did not end with a newline."""
        line = bytes(self._line)
        self._line.clear()
        self._at_start = True
        return self._event(line) if line else b""

    def _event(self, line: bytes) -> bytes:
        """An event line (terminator included, if any) as it goes on."""
        body = strip_terminator(line)
        ending = line[len(body) :]
        text = body.decode("utf-8", "replace")
        if (
            self._start is not None
            and self._start in body
            and _event_type(text) == self.cli.run_start
        ):
            self.mapper.reset()
        signal = self.mapper.stream_signal_parser(text)
        if signal is not None:
            mapped = self._format(str(signal.kind), dict(signal.payload))
            if mapped is not None:
                return mapped.encode() + (b"\n" if ending else b"")
        if self._keep:
            return line
        return ending or b" "  # blank, but a last line without a newline still counts

    def _format(self, kind: str, payload: dict[str, object]) -> str | None:
        """The signal's line; a payload the vocabulary refuses is written unchecked (the
        validator then says why), a kind it cannot write at all leaves the event unmapped."""
        try:
            return self._vocabulary.format_signal(kind, payload)
        except (ValueError, TypeError):
            pass
        try:
            return self._vocabulary.format_signal(kind, payload, validate=False)
        except (ValueError, TypeError):
            return None


def _event_type(text: str) -> object:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value.get("type") if isinstance(value, dict) else None
