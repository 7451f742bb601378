"""``emit``: print one validated signal line, for producers in any language.

``key=value`` sets a string member, ``key:=JSON`` a member of any JSON type
(``options:='["yes","no"]'``, ``steps:=4``). A payload that fails the kind's
schema, or an argument that is not one of those forms, gives a one-line
message on stderr, nothing on stdout and exit status 2.

KIND and keys follow the shell's ``bernstein_emit``, so that one line is
accepted or refused alike by both: KIND is the grammar's KIND token as
written (``IDENTIFIER_KIND``, no case folding), a key is a schema property
name (lower_snake_case, ``names.PROPERTY_NAME``). A test runs both on the same inputs.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bernstein_signals_toolkit.generator.names import IDENTIFIER_KIND, PROPERTY_NAME
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ._arguments import text
from ._inputs import add_vocabulary_argument, vocabulary_of

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "kind",
        type=text,
        metavar="KIND",
        help="the signal kind, ALL-CAPS as on the wire (COMPLETED, QUESTION...)",
    )
    parser.add_argument(
        "members",
        type=text,
        nargs="*",
        metavar="key=value | key:=JSON",
        help="payload members: a string, or any JSON value after :=; keys are lower_snake_case",
    )
    add_vocabulary_argument(parser)


def _member(argument: str) -> tuple[str, Any]:
    key, equals, value = argument.partition("=")
    if not equals:
        raise UsageError(f"{argument!r}: expected key=value or key:=JSON")
    if key.endswith(":"):
        key = key[:-1]
        try:
            parsed: Any = json.loads(value)
        except (ValueError, RecursionError) as exc:
            raise UsageError(f"{key}:= is not JSON: {exc}") from None
    else:
        parsed = value
    if not key:
        raise UsageError(f"{argument!r}: the key is empty")
    if not PROPERTY_NAME.fullmatch(key):
        raise UsageError(f"key {key!r} is not lower_snake_case ({PROPERTY_NAME.pattern})")
    return key, parsed


def run(args: argparse.Namespace) -> int:
    vocabulary = vocabulary_of(args)
    if not IDENTIFIER_KIND.fullmatch(args.kind):
        raise UsageError(
            f"KIND must be ALL-CAPS ({IDENTIFIER_KIND.pattern}), not {args.kind!r}"
            + (
                f": did you mean {args.kind.upper()}?"
                if vocabulary.knows(args.kind.upper())
                else ""
            )
        )
    kind = vocabulary.kind(args.kind)
    payload: dict[str, Any] = {}
    for argument in args.members:
        key, value = _member(argument)
        if key in payload:
            raise UsageError(f"{key!r} is given twice")
        payload[key] = value
    try:
        line = vocabulary.format_signal(kind, payload or None)
    except vocabulary.payload_error as exc:
        raise UsageError(str(exc)) from None
    except (TypeError, ValueError) as exc:
        raise UsageError(f"invalid {kind} payload: {exc}") from None
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    return 0
