"""The CLI's commands. Each module has HELP, ``configure(parser)`` and ``run(args) -> int``."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Protocol

from . import conform, emit, generate, parse, schema, validate, wrap

__all__ = ["COMMANDS", "Command"]


class Command(Protocol):
    HELP: str

    def configure(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


COMMANDS: Mapping[str, Command] = {
    "generate": generate,
    "schema": schema,
    "validate": validate,
    "emit": emit,
    "parse": parse,
    "wrap": wrap,
    "conform": conform,
}
