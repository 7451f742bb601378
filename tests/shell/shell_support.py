"""Running the generated shell library under every supported shell."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from bernstein_signals_toolkit.emitters.shell import SHELLS as SUPPORTED_SHELLS

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "generated" / "shell" / "bernstein-signals.sh"
UTF8 = "C.UTF-8"

# name -> command; each is a Debian package of the same name (ksh93: ksh93u+m).
SHELLS = SUPPORTED_SHELLS
NO_EXTERNALS = ("bash", "zsh", "mksh", "ksh93")
"""Shells that must emit without starting any external program."""


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
) -> Result:
    """Run ``body`` after sourcing the library, with ``args`` as "$@"."""
    script = f'. "$BSIG_LIB"\n{body}\n'
    env = {
        "BSIG_LIB": str(LIBRARY),
        "PATH": os.environ.get("PATH", "") if path is None else path,
        "HOME": os.environ.get("HOME", "/tmp"),
        "LC_ALL": locale,
    }
    completed = subprocess.run(
        [*shell_command(shell), "-c", script, "wrapper", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    return Result(completed.returncode, completed.stdout, completed.stderr)


def _reference_format(kind: str, payload: dict[str, object] | None = None) -> bytes:
    """The canonical line. Mirrors ``bernstein_signals.format_signal`` (the Python binding):
    replace this with the real function once the binding has landed."""
    line = f"BERNSTEIN:{kind}"
    if payload:
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        for char in ("\u0085", "\u2028", "\u2029"):
            text = text.replace(char, f"\\u{ord(char):04x}")
        line += " " + text
    return line.encode("utf-8", "surrogateescape")


reference_format = _reference_format
