"""``wrap``: run a command that knows nothing of the protocol and end its output with a terminal.

stderr is inherited, so it passes through untouched; stdout is relayed byte for
byte while a :class:`bernstein_signals.SignalScanner` watches it for terminal
signals. When the command emitted none, ``wrap`` appends COMPLETED, or FAILED
with reason ``exit N`` or ``signal NAME`` (after a newline when the output did
not end with one). The exit status is the command's (128+N for signal N); a
command that cannot be started exits 127 (not found) or 126, as in a shell.

The command runs in its own process group. SIGINT, SIGTERM and SIGHUP sent to
``wrap`` go to that whole group (a Ctrl-C at a terminal reaches it exactly
once); a group still running a grace period later is killed. An interrupted
run ends with FAILED ``signal NAME`` (unless the command printed a terminal)
and ``wrap`` exits 128+N for the signal N it received.

With ``--native claude|codex`` the command's stdout is its native JSON event
stream: each event that maps to a signal is relayed as that signal's line,
every other line as it came (:mod:`._native_run`), and whether a terminal was
emitted is read from that mapped stream.

With ``--fence`` the command gets a fresh key on a socket
(:func:`bernstein_signals.key_handover`) and its stdout goes through
:class:`._fence_relay.FencedRelay`: a line marked with the key is relayed as
the signal without its mark; in any other line each signal prefix gets
``[unauthenticated] `` glued before it (so no reader downstream, however it
splits lines or strips blanks, takes it) and the line one diagnostic on stderr;
the key's text is masked, in either case (:mod:`..key_mask`); only accepted
terminals count, so a run whose only COMPLETED is forged ends with wrap's own
terminal. A key the command left in its socket by its first output is drained
(warning), and wrap holding a key is not dumpable. ``--allow-kinds`` refuses
other kinds the same way (BS603), with or without ``--fence``, and must allow
COMPLETED and FAILED, which wrap appends; ``--native`` with ``--fence`` is
refused (a native CLI marks nothing). wrap inside a fenced run (the binding
took a key at import) marks its own terminal, and with ``--fence`` the signals
its key accepted, with that key; nothing else it relays is vouched for, so
without ``--fence`` a terminal the command printed counts as absent and wrap
always writes its own, marked.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES
from bernstein_signals_toolkit.generator.roles import VERSION_ROLE
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..runtime_vocabulary import RuntimeVocabulary
from ._fence_handover import KEY_NOT_TAKEN
from ._fence_options import (
    add_allow_kinds_argument,
    add_fence_argument,
    allow_kinds_of,
    refuse_native_fence,
)
from ._inputs import add_vocabulary_argument, vocabulary_of
from ._native_run import NativeStream, add_native_argument, check_command, native_of
from ._process import (
    PIPE_READ_BYTES,
    ProcessGroup,
    add_command_argument,
    command_of,
    exit_reason,
    signal_name,
    write_all,
)

if TYPE_CHECKING:  # the fence loads only for a fenced run
    from bernstein_signals import SignalKey, SignalMarker

    from ._fence_relay import FencedRelay

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    add_native_argument(
        parser,
        what="each event that maps to a signal is relayed as that signal's line, the rest as"
        " it came",
    )
    add_fence_argument(
        parser,
        what="they are relayed without the mark, any other signal line after"
        " '[unauthenticated] ' with a diagnostic on stderr",
    )
    add_allow_kinds_argument(parser)
    add_vocabulary_argument(parser)
    add_command_argument(parser)


@dataclass(frozen=True)
class _Terminals:
    """The lines wrap writes itself, built with the vocabulary's role-bearing fields."""

    vocabulary: RuntimeVocabulary
    reason: str
    """FAILED's field with role failure-reason."""
    stamps: dict[str, str]
    """Kind -> its field with role vocabulary-version, for the kinds that have one."""

    def line(self, reason: str | None, marker: SignalMarker | None = None) -> str:
        """``marker``: the key of the fenced run wrap runs in, if any."""
        kind = "COMPLETED" if reason is None else "FAILED"
        payload: dict[str, str] = {} if reason is None else {self.reason: reason}
        if kind in self.stamps:
            # wrap built this line, so it speaks for the vocabulary wrap runs with.
            payload[self.stamps[kind]] = self.vocabulary.version
        if marker is not None:
            return marker.mark(kind, payload or None)
        return self.vocabulary.format_signal(kind, payload or None)


def _terminals(vocabulary: RuntimeVocabulary) -> _Terminals:
    """Refuse, before the command runs, a vocabulary in which wrap cannot end a run."""
    reason = vocabulary.role_field("FAILED", "failure-reason")
    stamps = {
        kind: field
        for kind in ("COMPLETED", "FAILED")
        if (field := vocabulary.role_field(kind, VERSION_ROLE)) is not None
    }
    try:
        if reason is None:
            raise ValueError("FAILED has no field with role failure-reason")
        terminals = _Terminals(vocabulary, reason, stamps)
        terminals.line(None)
        terminals.line("exit 1")
    except ValueError as exc:
        raise UsageError(
            f"wrap ends runs with COMPLETED and FAILED {{reason}}, which {vocabulary.describe()}"
            f" cannot carry: {exc}"
        ) from None
    return terminals


def _relay(
    group: ProcessGroup,
    process: subprocess.Popen[bytes],
    vocabulary: RuntimeVocabulary,
    native: NativeStream | None,
    fenced: FencedRelay | None,
    *,
    counted: bool,
) -> tuple[bool, bytes]:
    """Copy the command's stdout (mapped, with ``native``; filtered, with ``fenced``) to
    ours; whether it emitted a terminal (one the fence accepted; never, unless ``counted``),
    and its last byte."""
    assert process.stdout is not None
    source, target = process.stdout.fileno(), sys.stdout.fileno()
    scanner = vocabulary.signal_scanner() if counted and fenced is None else None
    terminal, last = False, b"\n"
    while True:
        chunk = b"" if group.select([source], []) is None else os.read(source, PIPE_READ_BYTES)
        ended = not chunk
        if fenced is not None and group.key_left_over():
            _warn(f"warning: {KEY_NOT_TAKEN}")
        if native is not None:
            chunk = native.close() if ended else native.feed(chunk)
        if fenced is not None:
            chunk = fenced.close() if ended else fenced.feed(chunk)
        if chunk:
            write_all(target, chunk)
            last = chunk[-1:]
            if not terminal and scanner is not None:
                terminal = any(record.signal.is_terminal for record in scanner.feed(chunk))
        if ended:
            break
    if not counted:
        return False, last
    if fenced is not None:
        return fenced.terminal, last
    if not terminal and scanner is not None:
        terminal = any(record.signal.is_terminal for record in scanner.close())
    return terminal, last


def _counted(marker: SignalMarker | None, key: SignalKey | None) -> bool:
    """Whether a terminal the command printed can end the run, so that wrap writes none.

    Only one the reader downstream takes can: holding the key of the fenced run it is
    part of, wrap relays marked only what its own key accepted (``--fence``), so without
    one every terminal the command printed is unmarked and counts as absent there.
    """
    return marker is None or key is not None


def _warn(line: str) -> None:
    """One diagnostic line of ``--fence`` on stderr, which the command shares."""
    print(f"wrap: {line}", file=sys.stderr, flush=True)


def _fence(
    fence: bool,
    outer: SignalKey | None,
    allow_kinds: frozenset[str] | None,
    vocabulary: RuntimeVocabulary,
) -> tuple[SignalMarker | None, SignalKey | None, FencedRelay | None]:
    """The outer key's marker, this run's key (``--fence``) and the relay that checks lines."""
    from bernstein_signals import SignalKey, protect_process

    from ._fence_relay import FencedRelay

    marker = None if outer is None else vocabulary.signal_marker(outer)
    key = SignalKey.generate() if fence else None
    if key is not None:
        protect_process()  # no process of the user reads the key from our memory
    if key is None and allow_kinds is None:
        return marker, key, None
    relay = FencedRelay(
        vocabulary.fence_verifier(key, allow_kinds),
        vocabulary,
        DEFAULT_MAX_LINE_BYTES,
        _warn,
        key_text=None if key is None else key.text(),
        marker=None if key is None else marker,  # only lines our own key vouches for
    )
    return marker, key, relay


def run(args: argparse.Namespace) -> int:
    command = command_of(args)
    vocabulary = vocabulary_of(args)
    terminals = _terminals(vocabulary)
    refuse_native_fence(args)
    allow_kinds = allow_kinds_of(args, vocabulary)
    if allow_kinds is not None and not {"COMPLETED", "FAILED"} <= allow_kinds:
        raise UsageError(
            "--allow-kinds: wrap ends every run with COMPLETED or FAILED, so it must allow both"
        )
    # wrap is itself an adapter of a fenced run: the binding took the key at import, and
    # loaded the fence only then (a run handed no key, without --fence, loads none of it).
    taken = sys.modules.get("bernstein_signals.fence")
    outer = None if taken is None else taken.process_key()
    marker: SignalMarker | None = None
    key: SignalKey | None = None
    fenced: FencedRelay | None = None
    if outer is not None or args.fence or allow_kinds is not None:
        marker, key, fenced = _fence(args.fence, outer, allow_kinds, vocabulary)
    cli = native_of(args)
    if cli is not None:
        check_command(cli, command)
    native = None if cli is None else NativeStream(cli, vocabulary, keep=True)
    sys.stdout.flush()
    group = ProcessGroup(command, key=key, stdout=subprocess.PIPE)
    with group as process:
        try:
            terminal, last = _relay(
                group, process, vocabulary, native, fenced, counted=_counted(marker, key)
            )
        except BrokenPipeError:
            # Our reader went away: close the pipe so that the command gets SIGPIPE too.
            assert process.stdout is not None
            process.stdout.close()
            returncode = group.wait()
            assert returncode is not None
            return group.exit_status(returncode)
        returncode = group.wait()
        assert returncode is not None
    if not terminal:
        if group.interrupted is not None:
            reason: str | None = f"signal {signal_name(group.interrupted)}"
        else:
            reason = None if returncode == 0 else exit_reason(returncode)
        prefix = b"" if last == b"\n" else b"\n"
        write_all(sys.stdout.fileno(), prefix + terminals.line(reason, marker).encode() + b"\n")
    return group.exit_status(returncode)
