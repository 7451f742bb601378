"""The hostile-input driver for ``diff``: broken, mutated and odd vocabularies on either side.

``drive_diff()`` runs Hypothesis over it (tests/tools/evolution/test_diff_hostile.py
calls it; the CLI suite's DRIVERS table in tests/hostile/test_cli_commands.py
can register it as the ``diff`` driver). Every run must end with a documented
status (0, 1 or 2), no traceback, and a usage error as one line with nothing
on stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.cli import main

__all__ = ["drive_diff"]

ROOT = Path(__file__).resolve().parents[3]
FILES = [
    "blocked.schema.json",
    "question.schema.json",
    "reply.schema.json",
    "vocabulary.json",
    "completed.schema.json",
]
FORMATS = ["text", "json", "sarif", "github", "markdown"]
_IDENTITY = {
    "GIT_AUTHOR_NAME": "h",
    "GIT_AUTHOR_EMAIL": "h@example.invalid",
    "GIT_COMMITTER_NAME": "h",
    "GIT_COMMITTER_EMAIL": "h@example.invalid",
}

_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12
) | st.sampled_from(
    ["", "\n", "\x00", "~1/..", "$ref", "#/$defs/x", "BERNSTEIN:", "-", "x-bernstein-renamed-from"]
)
_VALUES: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)
_PLAUSIBLE = st.sampled_from(
    ["string", ["string", "null"], ["integer"], 0, 1, 5, 2.5, True, False, [], ["a"], [None, 1],
     {"type": "string"}, {}, "^a$", "(", {"a": {"type": "string"}}, {"a": ["b"]}, "#/$defs/x"]
)  # fmt: skip
_KEYWORDS = st.sampled_from(
    [
        "type", "enum", "const", "minLength", "maxLength", "pattern", "items", "required",
        "additionalProperties", "properties", "minimum", "multipleOf", "not", "$ref", "$defs",
        "x-bernstein-renamed-from", "x-bernstein-terminal", "x-bernstein-kind", "uniqueItems",
        "prefixItems", "allOf", "description", "examples",
    ]
)  # fmt: skip
_KEYWORD = st.tuples(st.just("keyword"), st.tuples(_KEYWORDS, _PLAUSIBLE | _VALUES, st.booleans()))
_MUTATIONS = st.one_of(
    _KEYWORD,
    _KEYWORD,
    _KEYWORD,
    _KEYWORD,
    st.tuples(st.just("bytes"), st.binary(max_size=64)),
    st.tuples(st.just("remove"), st.none()),
    st.tuples(st.just("folder"), st.none()),
    st.tuples(st.just("link"), st.none()),
    st.tuples(st.just("deep"), st.integers(1, 200)),
)


def _mutate(schema_dir: Path, name: str, mutation: tuple[str, Any]) -> None:
    path = schema_dir / name
    kind, detail = mutation
    if kind == "bytes":
        path.write_bytes(detail)
    elif kind == "remove":
        path.unlink()
    elif kind == "folder":
        path.unlink()
        path.mkdir()
    elif kind == "link":
        path.unlink()
        path.symlink_to(path.name)  # a loop
    elif kind == "deep":
        path.write_text("[" * detail + "]" * detail)
    else:
        keyword, value, in_field = detail
        document = json.loads(path.read_text())
        target = document
        fields = document.get("properties") if isinstance(document, dict) else None
        if in_field and isinstance(fields, dict) and fields:
            target = fields[sorted(fields)[0]]
        if isinstance(target, dict):
            target[keyword] = value
        if isinstance(document, dict) and "examples" in document:
            document["examples"] = []  # the change is what is tested, not the examples
        path.write_text(json.dumps(document))


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args],
        cwd=repo,
        env={**os.environ, **_IDENTITY},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
    )


def _run(args: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    out, err = io.BytesIO(), io.BytesIO()
    fake_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    fake_err = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace")
    fake_err.reconfigure(write_through=True)
    with (
        contextlib.chdir(cwd),
        mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(b""))),
        mock.patch.object(sys, "stdout", fake_out),
        mock.patch.object(sys, "stderr", fake_err),
    ):
        try:
            status = main(args)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 2
        fake_out.flush()
        fake_err.flush()
    return status, out.getvalue(), err.getvalue()


def _check(status: int, stdout: bytes, stderr: bytes, output_format: str) -> None:
    err = stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert status in (0, 1, 2), (status, err)
    if status == 2:
        assert len(err.splitlines()) == 1, f"a usage error is one line: {err!r}"
        assert err.startswith("bernstein-signals"), err
        assert stdout == b"", "no partial output after a usage error"
        return
    assert err == "", err
    text = stdout.decode("utf-8")
    if output_format in ("json", "sarif"):
        json.loads(text)
    if output_format in ("text", "github", "markdown"):  # one item per line, whatever the text
        assert len(text.splitlines()) == text.count("\n"), text
    if output_format in ("text", "github"):
        assert all(line for line in text.splitlines())


@contextlib.contextmanager
def _project() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="bsig-diff-hostile-") as folder:
        root = Path(folder)
        for side in ("old", "new"):
            shutil.copytree(ROOT / "schema", root / side / "schema")
            shutil.copytree(ROOT / "grammar", root / side / "grammar")
        yield root


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    name=st.sampled_from(FILES),
    mutation=_MUTATIONS,
    mutate_old=st.booleans(),
    through_git=st.booleans(),
    output_format=st.sampled_from(FORMATS),
)
def drive_diff(
    name: str, mutation: tuple[str, Any], mutate_old: bool, through_git: bool, output_format: str
) -> None:
    with _project() as root:
        side = root / ("old" if mutate_old else "new")
        _mutate(side / "schema", name, mutation)
        if through_git:  # OLD read from a commit of the same project
            _git(side, "init", "-q")
            _git(side, "add", "-A")
            _git(side, "commit", "-q", "-m", "hostile")
            other = root / ("new" if mutate_old else "old")
            old, new = (
                ("git:HEAD", str(other / "schema"))
                if mutate_old
                else (str(other / "schema"), "git:HEAD")
            )
            cwd = side
        else:
            old, new, cwd = str(root / "old" / "schema"), str(root / "new" / "schema"), root
        status, stdout, stderr = _run(["diff", "--format", output_format, old, new], cwd)
        _check(status, stdout, stderr, output_format)


def drive_diff_arguments() -> None:
    """Hostile revisions and paths on the command line."""
    _arguments()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=st.one_of(
        st.text(max_size=20).map(lambda text: "git:" + text),
        st.text(max_size=20),
        st.sampled_from(["git:", "git:-h", "git:--output=/tmp/x", "git:HEAD:schema", "git:@{-1}"]),
    ),
    first=st.booleans(),
)
def _arguments(spec: str, first: bool) -> None:
    with _project() as root:
        _git(root / "old", "init", "-q")
        _git(root / "old", "add", "-A")
        _git(root / "old", "commit", "-q", "-m", "base")
        args = [spec, "schema"] if first else ["schema", spec]
        status, stdout, stderr = _run(["diff", *args], root / "old")
        _check(status, stdout, stderr, "text")
