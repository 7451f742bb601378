"""The fence's command-line options, shared by ``validate``, ``wrap`` and ``conform``.

``--allow-kinds K,K`` (all three), ``--fence`` (``wrap``, ``conform``: a fresh
key for the run, handed over on fd 3) and ``--key-file PATH`` (``validate``:
the key a recorded run was marked with). A bad value is a usage error (one
line, exit 2) before anything runs; no message ever shows a key file's content.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..runtime_vocabulary import RuntimeVocabulary
from . import _arguments
from ._fence_handover import KEY_CHANNEL

if TYPE_CHECKING:  # the fence is loaded only when an option asks for it
    from bernstein_signals import SignalKey

__all__ = [
    "MAX_KEY_FILE_BYTES",
    "add_allow_kinds_argument",
    "add_fence_argument",
    "add_key_file_argument",
    "allow_kinds_of",
    "key_from_file",
    "refuse_native_fence",
]

MAX_KEY_FILE_BYTES = 4096
"""The most of a ``--key-file`` that is read: a key text is 81 characters."""


def _kinds(value: str) -> list[str]:
    return [part.strip() for part in _arguments.text(value).split(",") if part.strip()]


def add_allow_kinds_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-kinds",
        type=_kinds,
        action="extend",
        metavar="KINDS",
        help="the only kinds the run may emit (comma-separated, repeatable); a signal of"
        " any other kind is plain output, error BS603",
    )


def add_fence_argument(parser: argparse.ArgumentParser, *, what: str) -> None:
    parser.add_argument(
        "--fence",
        action="store_true",
        help=f"make a fresh key for the run and hand it to the command on {KEY_CHANNEL};"
        f" only lines marked with it are signals: {what}",
    )


def add_key_file_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--key-file",
        metavar="PATH",
        help="the key the run was marked with (a file holding the key text): only marked"
        " lines are signals, any other signal line is error BS601, a replay BS602",
    )


def allow_kinds_of(
    args: argparse.Namespace, vocabulary: RuntimeVocabulary
) -> frozenset[str] | None:
    """``--allow-kinds`` as kinds of ``vocabulary`` (None without the option)."""
    names: list[str] | None = args.allow_kinds
    if names is None:
        return None
    if not names:
        raise UsageError(f"--allow-kinds: no kind given (kinds: {', '.join(vocabulary.kinds)})")
    names = [name.upper() for name in names]
    unknown = [name for name in names if not vocabulary.knows(name)]
    if unknown:
        shown = ", ".join(_arguments.printable(name)[:40] for name in unknown)
        raise UsageError(
            f"--allow-kinds: unknown kind(s) {shown} ({vocabulary.describe()} knows"
            f" {', '.join(vocabulary.kinds)})"
        )
    try:
        vocabulary.fence_verifier(None, names)  # the vocabulary's own fence judges its kinds
    except ValueError as exc:
        raise UsageError(
            f"--allow-kinds: the fence of {vocabulary.describe()} refuses it: {exc}"
        ) from None
    return frozenset(names)


def key_from_file(path: str) -> SignalKey:
    """The key in ``path``: its text, one trailing newline allowed (as on a key descriptor);
    never quoted in an error (the binding's own message says what a key looks like)."""
    from bernstein_signals import SignalKey

    name = _arguments.printable(path)
    data = _arguments.option_file("--key-file", path, MAX_KEY_FILE_BYTES)
    text = data.decode("ascii", "replace")  # parse allows one "\\n"
    try:
        return SignalKey.parse(text)
    except ValueError as exc:
        raise UsageError(f"--key-file {name}: {exc}") from None


def refuse_native_fence(args: argparse.Namespace) -> None:
    """``--native`` with ``--fence``: native CLIs print their own events and mark nothing."""
    if args.fence and args.native is not None:
        raise UsageError(
            "--fence cannot be used with --native: a native CLI does not mark its output,"
            " so every line would be refused"
        )
