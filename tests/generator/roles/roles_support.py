"""Temporary vocabularies for the role tests: copies of schema/ with one field changed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bernstein_signals_toolkit.generator.roles import REPLY_DOCUMENT, ROLE_KEYWORD, ROLES

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = ROOT / "schema"
GRAMMAR = ROOT / "grammar" / "signal.lark"


def schema_file(folder: Path, document: str) -> Path:
    """The schema file of a kind (or of the reply) in a schema folder."""
    name = "reply" if document == REPLY_DOCUMENT else document.lower()
    return folder / f"{name}.schema.json"


def copy_sources(root: Path) -> tuple[Path, Path]:
    """schema/ and grammar/ copied under ``root``; returns (schema folder, grammar file)."""
    shutil.copytree(SCHEMA, root / "schema")
    shutil.copytree(GRAMMAR.parent, root / "grammar")
    return root / "schema", root / "grammar" / GRAMMAR.name


def edit(folder: Path, document: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = schema_file(folder, document)
    value = json.loads(path.read_text(encoding="utf-8"))
    change(value)
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False), encoding="utf-8")


def role_fields() -> list[tuple[str, str, str]]:
    """(document, role, field) for every role-bearing field of schema/."""
    found = []
    for role in ROLES:
        path = schema_file(SCHEMA, role.document)
        properties = json.loads(path.read_text(encoding="utf-8")).get("properties", {})
        found += [
            (role.document, role.name, name)
            for name, subschema in properties.items()
            if subschema.get(ROLE_KEYWORD) == role.name
        ]
    return found


def rename_field(folder: Path, document: str, old: str, new: str) -> None:
    """Rename a property everywhere its schema names it: properties, required, examples."""

    def change(schema: dict[str, Any]) -> None:
        schema["properties"] = {
            (new if name == old else name): value for name, value in schema["properties"].items()
        }
        schema["required"] = [new if name == old else name for name in schema.get("required", [])]
        schema["examples"] = [
            {(new if key == old else key): value for key, value in example.items()}
            for example in schema["examples"]
        ]

    edit(folder, document, change)


def cli(*args: str, cwd: Path = ROOT, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bernstein_signals_toolkit.cli", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def generate(schema: Path, grammar: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return cli("generate", "--schema", str(schema), "--grammar", str(grammar), "--out", str(out))
