"""Every CLI option that takes a path, fed a path the system refuses (issue 23 item 10).

The options are read from the parsers themselves: every action of every
command whose metavar names a file or folder (:data:`PATH_METAVARS`). A metavar
this file has not classified fails :func:`test_every_metavar_is_classified`, so
a new option is either a path (and driven here) or said not to be one.

Each path option gets a name longer than NAME_MAX (ENAMETOOLONG), a path
through a regular file (ENOTDIR), an unreadable one (EACCES; as root, where
modes do not bind, a symlink loop: ELOOP) and, except for stream inputs (where
a FIFO is a legitimate ``<(cmd)``), a FIFO. Each must end with exit status 2
and one stderr line naming the option and the path: never a traceback, a hang,
or a silent success.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bernstein_signals_toolkit.cli import build_parser
from bernstein_signals_toolkit.tools.commands import COMMANDS
from bernstein_signals_toolkit.tools.commands._arguments import printable
from hostile.test_cli_commands import Outcome, _in_process, _process

ROOT = Path(__file__).resolve().parents[2]

PATH_METAVARS = frozenset({"PATH", "DIR", "FILE", "OLD", "NEW", "REF"})
"""Metavars of values that name a file or folder (OLD, NEW and REF: a folder or git:REF)."""
OTHER_METAVARS = frozenset(
    {
        "CODE",
        "CODES",
        "ID=TEXT",
        "KIND",
        "KINDS",
        "N",
        "SECONDS",
        "TEXT",
        "URI",
        "[--] CMD [ARG]...",  # a command to run: its own errors are exit 126/127 (wrap, conform)
        "key=value | key:=JSON",
    }
)
"""Metavars of values that are no path."""

OUT = "<a fresh output folder>"
"""In a base command line: replaced by a folder of the test's own."""
_ADAPTER = [sys.executable, "-c", "print('BERNSTEIN:COMPLETED')"]
_HARNESS = [sys.executable, str(ROOT / "conformance" / "harness" / "python.py")]


@dataclass(frozen=True)
class Base:
    """A command line on which each of a command's path options is reached when it is bad."""

    options: list[str] = field(default_factory=list)
    """Valid values for the command's other options, before the one under test."""
    positionals: dict[str, str] = field(default_factory=dict)
    """A valid value for each positional path (dest -> value)."""
    after: list[str] = field(default_factory=list)
    """What follows the options (``-- CMD``)."""
    process: bool = False
    """Run as a real process (commands that start children or serve)."""


BASES: dict[str, Base] = {
    "conform": Base(after=["--", *_ADAPTER], process=True),
    "conformance": Base(
        options=["--vectors", str(ROOT / "conformance" / "vectors")],
        after=["--", *_HARNESS],
        process=True,
    ),
    "diff": Base(positionals={"old": str(ROOT / "schema"), "new": str(ROOT / "schema")}),
    "emit": Base(positionals={"kind": "COMPLETED"}),
    "generate": Base(
        options=[
            "--schema",
            str(ROOT / "schema"),
            "--grammar",
            str(ROOT / "grammar" / "signal.lark"),
            "--out",
            OUT,
        ],
    ),
    "lsp": Base(process=True),
    "parse": Base(positionals={"paths": "-"}),
    "validate": Base(positionals={"paths": "-"}),
    "schema": Base(),
    "vendor": Base(),
    "wrap": Base(after=["--", *_ADAPTER], process=True),
}
"""Per command with a path option: how to reach it. A new command with one needs an entry."""

_NEEDS = {("generate", "--baseline"): ["--check"]}
"""Options that are read only with another one."""


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser([command])
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[command]  # type: ignore[no-any-return]
    raise AssertionError("the CLI has no subcommands")


def _valued_actions() -> Iterator[tuple[str, argparse.Action]]:
    for command in sorted(COMMANDS):
        for action in _subparser(command)._actions:
            if action.nargs != 0 and action.choices is None:
                yield command, action


def _name(action: argparse.Action) -> str:
    return action.option_strings[0] if action.option_strings else action.dest


PATH_OPTIONS = sorted(
    (command, _name(action))
    for command, action in _valued_actions()
    if str(action.metavar) in PATH_METAVARS
)


def test_every_metavar_is_classified() -> None:
    """An option added with a new metavar must be classified here: path or not."""
    unknown = {
        f"{command} {_name(action)}: {action.metavar!r}"
        for command, action in _valued_actions()
        if str(action.metavar) not in PATH_METAVARS | OTHER_METAVARS
    }
    assert not unknown, f"classify these metavars in PATH_METAVARS or OTHER_METAVARS: {unknown}"


def test_the_path_options_are_found() -> None:
    """The enumeration sees the options the issue names (a broken one would test nothing)."""
    found = set(PATH_OPTIONS)
    for expected in [
        ("validate", "--vocabulary"),
        ("validate", "--key-file"),
        ("validate", "paths"),
        ("conform", "--answers"),
        ("generate", "--out"),
        ("vendor", "folder"),
        ("diff", "old"),
    ]:
        assert expected in found
    assert {command for command, _ in PATH_OPTIONS} <= set(BASES)


_STREAM_INPUTS = {("validate", "paths"), ("parse", "paths")}
"""Positional inputs read as streams: a FIFO there is a legitimate input."""


def _hostile(folder: Path, case: str) -> str:
    """A path the system refuses, of the given kind."""
    if case == "too-long":
        return str(folder / ("x" * (os.pathconf(folder, "PC_NAME_MAX") + 1)))
    if case == "not-a-folder":
        (folder / "file").write_bytes(b"a regular file\n")
        return str(folder / "file" / "inside")
    if case == "unreadable":
        locked = folder / "locked"
        locked.mkdir()
        locked.chmod(0)
        try:
            os.stat(locked / "inside")
        except PermissionError:
            return str(locked / "inside")  # EACCES
        except FileNotFoundError:  # modes do not bind (root): a loop fails for everyone
            os.symlink("loop", folder / "loop")
            return str(folder / "loop" / "inside")  # ELOOP
        raise AssertionError("a locked folder holds an entry")
    assert case == "fifo"
    os.mkfifo(folder / "pipe")
    return str(folder / "pipe")


CASES = ["too-long", "not-a-folder", "unreadable", "fifo"]


def _command_line(command: str, option: str, value: str, out: Path) -> list[str]:
    base = BASES[command]
    parser = _subparser(command)
    args = [str(out) if arg == OUT else arg for arg in base.options]
    args = [command, *args, *_NEEDS.get((command, option), [])]
    positional = {a.dest: a for a in parser._actions if not a.option_strings}
    if option.startswith("-"):
        args += [option, value]
    for dest, action in positional.items():
        if action.nargs == argparse.REMAINDER:
            continue
        if dest == option:
            args.append(value)
        elif dest in base.positionals:
            args.append(base.positionals[dest])
        elif action.metavar in PATH_METAVARS:
            args.append(str(out))  # a required output folder: a fresh one
    return [*args, *base.after]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("command", "option"), PATH_OPTIONS)
def test_a_refused_path_is_one_line_naming_the_option(
    command: str, option: str, tmp_path: Path
) -> None:
    problems = []
    for case in CASES:
        if case == "fifo" and (command, option) in _STREAM_INPUTS:
            continue
        folder = tmp_path / case
        folder.mkdir()
        value = _hostile(folder, case)
        args = _command_line(command, option, value, tmp_path / f"out-{case}")
        run = _process if BASES[command].process else _in_process
        problem = _refused_problem(run(args), option, value)
        if problem is not None:
            problems.append(f"{case}: {problem}")
    assert not problems, "\n".join(problems)


def _refused_problem(outcome: Outcome, option: str, value: str) -> str | None:
    """What is wrong with the outcome of a refused path (None: nothing)."""
    err = outcome.stderr.decode("utf-8", "replace")
    lines = err.splitlines()
    shown = (lines[-1] if lines else "")[:300]
    if "Traceback" in err:
        return f"a traceback: {shown}"
    if outcome.status != 2 or len(lines) != 1:
        return f"status {outcome.status}, {len(lines)} stderr lines: {shown}"
    line = lines[0]
    if not line.startswith("bernstein-signals"):
        return f"not the CLI's error line: {shown}"
    if printable(value) not in line:
        return f"the path is not named: {shown}"
    if option.startswith("-") and f"{option} " not in line:
        return f"the option is not named: {shown}"
    return None
