"""The CLI's commands: one module each, with ``configure(parser)`` and ``run(args) -> int``.

Modules are imported only when their command runs, so ``generate`` never
imports the generated binding it is about to rewrite (a stale or broken
binding must not stop its own regeneration), and ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Mapping
from typing import Protocol, cast

__all__ = ["COMMANDS", "Command", "load"]


class Command(Protocol):
    def configure(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


COMMANDS: Mapping[str, str] = {
    "conform": "run an adapter, answer its questions from a script and report its conformance",
    "conformance": "certify an implementation: run the kit's vectors through its harness",
    "diff": "list the changes between two vocabularies per side and check the version bump",
    "emit": "print one validated signal line (KIND [key=value | key:=JSON]...)",
    "generate": "generate the bindings, shell helpers and docs from schema/ and grammar/",
    "lsp": "run the language server over stdio (diagnostics, hover, completion, code actions)",
    "parse": "write the signals of a stream as JSON Lines (plain records or CloudEvents 1.0)",
    "schema": "print the JSON Schema of a kind (or the reply), or write an editor catalog",
    "shell": "print the shell helpers for wrapper scripts, or with --path where they are",
    "validate": "check recorded adapter stdout for signals that break the protocol",
    "vendor": "copy the Python binding (standard library only) into DIR/bernstein_signals",
    "wrap": "run a command, relay its output and end it with COMPLETED or FAILED if it did not",
}
"""Command name -> one-line help; the module of the same name implements it."""


def load(name: str) -> Command:
    return cast(Command, importlib.import_module(f".{name}", __package__))
