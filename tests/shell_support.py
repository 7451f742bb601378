"""Running the generated shell library under every supported shell."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import strategies as st

from bernstein_signals import VOCABULARY_VERSION, format_signal
from bernstein_signals.fields import COMPLETED_VOCABULARY, FAILED_VOCABULARY
from bernstein_signals_toolkit.generator.emitters import shell as shell_emitter
from bernstein_signals_toolkit.generator.load import load_vocabulary

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "generated" / "shell" / "bernstein-signals.sh"
UTF8 = "C.UTF-8"

SHELLS: dict[str, tuple[str, ...]] = {
    "bash": ("bash",),
    "dash": ("dash",),
    "busybox": ("busybox", "sh"),
    "zsh": ("zsh",),
    "mksh": ("mksh",),
    "ksh93": ("ksh93",),
}
"""The shells the library supports (tests and benchmarks run each): name -> command.
Each is a Debian package of the same name (ksh93: ksh93u+m)."""
NO_EXTERNALS = ("bash", "zsh", "mksh", "ksh93")
"""Shells that must emit without starting any external program."""


ARGUMENT_CHARACTERS = st.characters(codec="utf-8", exclude_characters="\0")
"""The characters a caller can pass in an argument as text: UTF-8 without NUL. An argument
is bytes: a lone surrogate has no UTF-8 form, and bytes that are not UTF-8 are given as
bytes (``run`` takes both)."""


def argument_bytes(argument: str | bytes) -> bytes:
    """An argument as the shell gets it: bytes as they are, text as strict UTF-8.

    Not ``os.fsencode``: its surrogateescape would turn "\\udc80" into the byte 0x80, a
    value the test did not mean; a lone surrogate in text is the test's mistake.
    """
    if isinstance(argument, bytes):
        return argument
    try:
        return argument.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"argument {argument!r} has a lone surrogate at {exc.start}: no caller can pass it"
            " as text; draw from ARGUMENT_CHARACTERS, or pass the bytes meant"
        ) from None


def shell_command(name: str) -> tuple[str, ...]:
    """The absolute command for a shell; a missing one fails under CI=true, else skips."""
    command = SHELLS[name]
    found = shutil.which(command[0])
    if found is None:
        message = f"shell {name} is not installed (run scripts/ensure-test-shells as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return (found, *command[1:])


@dataclass(frozen=True)
class Result:
    status: int
    stdout: bytes
    stderr: bytes

    @property
    def lines(self) -> list[bytes]:
        return self.stdout.split(b"\n")[:-1] if self.stdout else []


def run(
    shell: str,
    body: str,
    *args: str | bytes,
    stdin: bytes = b"",
    locale: str = UTF8,
    path: str | None = None,
    timeout: float = 60,
    library: Path = LIBRARY,
) -> Result:
    """Run ``body`` after sourcing ``library`` (the generated one), with ``args`` as "$@"."""
    script = f'. "$BSIG_LIB"\n{body}\n'
    env = {
        "BSIG_LIB": str(library),
        "PATH": os.environ.get("PATH", "") if path is None else path,
        "HOME": os.environ.get("HOME", "/tmp"),
        "LC_ALL": locale,
    }
    completed = subprocess.run(
        [*shell_command(shell), "-c", script, "wrapper", *map(argument_bytes, args)],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    return Result(completed.returncode, completed.stdout, completed.stderr)


def reference_format(kind: str, payload: dict[str, object] | None = None) -> bytes:
    """The canonical line, as the Python binding's format_signal writes it.

    Any kind name is accepted (tests generate temporary vocabularies): the JSON
    comes from format_signal itself. A helper given no field prints no payload,
    so an empty payload means none here.
    """
    if not payload:
        return f"BERNSTEIN:{kind}".encode()
    body = format_signal("COMPLETED", payload, validate=False).removeprefix("BERNSTEIN:COMPLETED ")
    return f"BERNSTEIN:{kind} {body}".encode()


STAMPS: dict[str, str] = {"COMPLETED": COMPLETED_VOCABULARY, "FAILED": FAILED_VOCABULARY}
"""The fields the kinds' helpers fill with the library's version (role vocabulary-version)."""


def helper_format(kind: str, payload: dict[str, object] | None = None) -> bytes:
    """The line ``bernstein_<kind>`` writes: reference_format plus the version stamp, if any."""
    full = dict(payload or {})
    if kind in STAMPS:
        full[STAMPS[kind]] = VOCABULARY_VERSION
    return reference_format(kind, full)


GRAMMAR = ROOT / "grammar" / "signal.lark"


def kind_schema(
    kind: str,
    properties: Mapping[str, object],
    required: Sequence[str] = (),
    **keywords: object,
) -> dict[str, object]:
    """A kind schema for a temporary vocabulary (``keywords`` add kind-level rules)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://example.invalid/{kind.lower()}.schema.json",
        "title": kind,
        "description": f"A test kind {kind}.",
        "type": "object",
        "x-bernstein-kind": kind,
        "x-bernstein-terminal": False,
        "required": list(required),
        "properties": dict(properties),
        "examples": [],
        **keywords,
    }


def temporary_library(folder: Path, *schemas: dict[str, object]) -> Path:
    """The shell library for the built-in vocabulary plus ``schemas``, written under ``folder``."""
    schema_dir = folder / "schema"
    shutil.copytree(ROOT / "schema", schema_dir, dirs_exist_ok=True)
    for schema in schemas:
        name = f"{str(schema['x-bernstein-kind']).lower()}.schema.json"
        (schema_dir / name).write_text(json.dumps(schema), encoding="utf-8")
    vocabulary = load_vocabulary(schema_dir, GRAMMAR)
    library = folder / "bernstein-signals.sh"
    library.write_text(shell_emitter.emit(vocabulary)[shell_emitter.LIBRARY], encoding="utf-8")
    return library
