"""Hostile vocabularies for the generator: every string slot of the sources, filled on demand.

A vocabulary is the project's own schema/ and grammar/, copied, with chosen
slots replaced. Injected code only ever tries to create the file ``PWNED`` in
the current folder, so a check runs each program in a scratch folder and
looks for that file afterwards.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import scratch_support
from scratch_support import assert_runs_cleanly

ROOT = Path(__file__).resolve().parents[2]
SENTINEL = scratch_support.SENTINEL

HOSTILE: tuple[str, ...] = (
    '"',
    "'",
    "`",
    "\\",
    'ends in a quote"',
    "ends in a backslash\\",
    '"""',
    "'''",
    f'"""\nopen("{SENTINEL}", "w")\n"""',
    f"x\nimport os; os.mkdir({SENTINEL!r})\n#",
    f"x\r__import__('os').mkdir({SENTINEL!r})",
    f"$(touch {SENTINEL})",
    f"`touch {SENTINEL}`",
    f'"; touch {SENTINEL}; "',
    f"'; touch {SENTINEL}; '",
    f"x\ntouch {SENTINEL}\n",
    "${HOME}${x:=1}",
    "%s%n%d%%",
    "# not a comment",
    "a\u2028b\u2029c\x85d",
    "nul\x00here",
    "tab\there\x0cff\x0bvt\x1besc",
    "--> <!-- <script>x</script> | cell |",
    "```\n# heading\n> quote",
    "\ud800",
    "",
    " ",
)
"""Quotes of each kind, backslashes, line breaks, NUL, shell and Python syntax, Markdown."""

OWN_NAMES: tuple[str, ...] = (
    "format_signal",
    "parse_signal",
    "validate_payload",
    "signal_kind",
    "payload",
    "extras",
    "kinds",
    "constructors",
    "list",
    "str",
    "any",
    "help",
    "if",
    "match",
    "signal",
)
"""Names the binding, Python or the shell library already use (lower case; kinds upper it)."""


@dataclass(frozen=True)
class Slot:
    """One place in the sources a string can go, and how to put it there."""

    name: str
    put: Callable[[Path, str], None]


def _edit_json(path: Path, change: Callable[[Any], None]) -> None:
    value = json.loads(path.read_text(encoding="utf-8"))
    change(value)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")


def _schema(root: Path, kind: str) -> Path:
    return root / "schema" / f"{kind}.schema.json"


def _set(kind: str, *keys: str) -> Callable[[Path, str], None]:
    def put(root: Path, text: str) -> None:
        def change(schema: Any) -> None:
            target = schema
            for key in keys[:-1]:
                target = target[key]
            target[keys[-1]] = text

        _edit_json(_schema(root, kind), change)

    return put


def _vocabulary(key: str) -> Callable[[Path, str], None]:
    def put(root: Path, text: str) -> None:
        def change(meta: Any) -> None:
            meta[key] = text if key != "version" else f"1.0.0+{text}"

        _edit_json(root / "schema" / "vocabulary.json", change)

    return put


def _new_property(schema_part: dict[str, Any], *, named: bool) -> Callable[[Path, str], None]:
    """Add an optional property to QUESTION: the text is its name, or goes into ``schema_part``."""

    def put(root: Path, text: str) -> None:
        def change(schema: Any) -> None:
            part = json.loads(json.dumps(schema_part).replace("@TEXT@", json.dumps(text)[1:-1]))
            name = text if named else "extra_field"
            schema["properties"][name] = {"description": "A field.", **part}

        _edit_json(_schema(root, "question"), change)

    return put


def _example_value(root: Path, text: str) -> None:
    def change(schema: Any) -> None:
        schema["examples"].append({"question": text or "?", "id": text or "x", "note": text})

    _edit_json(_schema(root, "question"), change)


def _new_kind(root: Path, text: str) -> None:
    name = text.upper()
    schema = json.loads(_schema(root, "completed").read_text(encoding="utf-8"))
    schema.update({"x-bernstein-kind": name, "title": name, "$id": f"urn:kind:{name}"})
    try:
        (root / "schema" / f"{name.lower()}.schema.json").write_text(
            json.dumps(schema), encoding="utf-8"
        )
    except (OSError, ValueError):
        # A name no file can carry (NUL, a slash): the kind lives in a file with a
        # tame name, and load must refuse the mismatch.
        (root / "schema" / "odd.schema.json").write_text(json.dumps(schema), encoding="utf-8")


def _prefix(root: Path, text: str) -> None:
    grammar = root / "grammar" / "signal.lark"
    literal = json.dumps(text)
    source = grammar.read_text(encoding="utf-8")
    grammar.write_text(source.replace('PREFIX: "BERNSTEIN:"', f"PREFIX: {literal}"), "utf-8")


SLOTS: tuple[Slot, ...] = (
    Slot("vocabulary name", _vocabulary("name")),
    Slot("vocabulary description", _vocabulary("description")),
    Slot("version build metadata", _vocabulary("version")),
    Slot("$id", _set("question", "$id")),
    Slot("title", _set("question", "title")),
    Slot("kind description", _set("question", "description")),
    Slot("reply description", _set("reply", "description")),
    Slot("property description", _set("question", "properties", "question", "description")),
    Slot("property title", _set("question", "properties", "question", "title")),
    Slot("examples", _example_value),
    Slot("property name", _new_property({"type": "string"}, named=True)),
    Slot("enum value", _new_property({"type": "string", "enum": ["@TEXT@", "b"]}, named=False)),
    Slot("pattern", _new_property({"type": "string", "pattern": "@TEXT@"}, named=False)),
    Slot(
        "rule message",
        _new_property(
            {"type": "string", "minLength": 1, "x-bernstein-message": "@TEXT@"}, named=False
        ),
    ),
    Slot("kind name", _new_kind),
    Slot("prefix", _prefix),
)
"""Every string slot of the sources the issue names."""
TEXT_SLOTS = tuple(slot for slot in SLOTS if slot.name not in {"kind name", "property name"})
NAME_SLOTS = tuple(slot for slot in SLOTS if slot.name in {"kind name", "property name"})


def make_sources(folder: Path, filled: list[tuple[Slot, str]]) -> tuple[Path, Path]:
    """A copy of the project's sources in ``folder`` with each slot of ``filled`` replaced."""
    shutil.copytree(ROOT / "schema", folder / "schema")
    shutil.copytree(ROOT / "grammar", folder / "grammar")
    for slot, text in filled:
        slot.put(folder, text)
    return folder / "schema", folder / "grammar" / "signal.lark"


_PYTHON_CHECK = """
import json, sys
sys.path.insert(0, sys.argv[1])
import bernstein_signals as b
from bernstein_signals import constructors
schema_dir = sys.argv[2]
for kind in b.SignalKind:
    with open(f"{schema_dir}/{kind.value.lower()}.schema.json", encoding="utf-8") as f:
        schema = json.load(f)
    examples = schema["examples"]
    stamps = [name for name, field in schema.get("properties", {}).items()
              if field.get("x-bernstein-role") == "vocabulary-version"]
    for example in examples:
        line = getattr(constructors, kind.value.lower())(**example)
        signal = b.parse_signal(line)
        assert signal is not None and signal.kind == kind, (line, signal)
        expected = {k: v for k, v in example.items() if v is not None}
        # A field with role vocabulary-version defaults to the binding's version.
        for stamp in stamps:
            if stamp not in example:
                expected[stamp] = b.VOCABULARY_VERSION
        assert signal.payload == expected, (signal.payload, expected)
        assert line.startswith(b.SIGNAL_PREFIX)
print("ok")
"""


def check_python(package_root: Path, schema_dir: Path, scratch: Path) -> None:
    """Import the binding (isolated mode) and round-trip every example through its constructor."""
    command = [sys.executable, "-I", "-c", _PYTHON_CHECK, str(package_root), str(schema_dir)]
    assert_runs_cleanly(command, scratch, "importing the binding")


def check_shell(
    command: tuple[str, ...], library: Path, prefix: str, help_text: str, scratch: Path
) -> None:
    """Source the library in one shell: nothing runs, a signal line carries the prefix, and
    QUESTION's --help prints the schema's text as it is (quotes, ``%``, ``$`` and all)."""
    script = (
        '. "$BSIG_LIB" && bernstein_emit COMPLETED && bernstein_question --help && echo sourced'
    )
    environment = {"BSIG_LIB": str(library), "PATH": os.environ.get("PATH", ""), "LC_ALL": "C"}
    result = subprocess.run(
        [*command, "-c", script],
        cwd=scratch,
        capture_output=True,
        env=environment,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert not (scratch / SENTINEL).exists(), f"sourcing the library in {command} ran code"
    expected = f"{prefix}COMPLETED\n{help_text}\nsourced\n".encode("utf-8", "surrogateescape")
    assert result.returncode == 0, (command, result.stderr)
    assert result.stdout == expected, (command, result.stdout, result.stderr)


ONE_LINE_ERROR = re.compile(r"bernstein-signals: error: [^\n]+\n")
