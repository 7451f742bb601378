"""A forked vocabulary for the run-time ``--vocabulary`` tests: the built-in one plus PROGRESS."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bernstein_signals_toolkit.generator.sources import packaged_sources

PROGRESS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.org/fork/progress.schema.json",
    "title": "PROGRESS",
    "description": "How far the run has got. Not terminal.",
    "type": "object",
    "x-bernstein-kind": "PROGRESS",
    "x-bernstein-terminal": False,
    "required": ["percent"],
    "properties": {
        "percent": {
            "description": "Percent done.",
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
        }
    },
    "examples": [{"percent": 40}],
}


FORK_VERSION = "7.3.0"
"""The fork's version: unlike the built-in one, so a test sees which vocabulary spoke."""


def make_fork(root: Path, *, version: str = FORK_VERSION) -> Path:
    """``root/schema``: the built-in schemas, PROGRESS added, the version raised; returned."""
    schema = root / "schema"
    shutil.copytree(packaged_sources().schema_dir, schema)
    (schema / "progress.schema.json").write_text(json.dumps(PROGRESS, indent=2))
    meta_path = schema / "vocabulary.json"
    meta = json.loads(meta_path.read_text())
    meta["version"] = version
    meta_path.write_text(json.dumps(meta, indent=2))
    return schema
