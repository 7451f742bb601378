"""The TypeScript binding's own checks: ``tsc --strict`` over its declarations and a typed
usage file, and its unit and fast-check property tests under ``node --test``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from typescript.node_support import BINDING, HERE, ROOT, environment, node, tool


@pytest.mark.timeout(180)
def test_declarations_type_check_strictly() -> None:
    """usage.ts uses the API as a caller would; its expected-error lines keep the types tight."""
    result = subprocess.run(
        [str(tool("tsc")), "-p", str(HERE / "tsconfig.json")],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        check=False,
        timeout=170,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.timeout(300)
def test_node_unit_and_property_tests() -> None:
    tool("tsc")  # the lockfile's tools are installed (fast-check among them)
    result = subprocess.run(
        [node(), "--test", "--test-reporter=tap", str(HERE / "binding.test.mjs")],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=environment(),
        cwd=ROOT,
        check=False,
        timeout=290,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout
    assert "# pass 0" not in result.stdout


@pytest.mark.timeout(120)
def test_npm_packs_the_package(tmp_path: Path) -> None:
    """``npm pack`` takes the folder as it is (no build step): every module and declaration."""
    npm = shutil.which("npm")
    assert npm is not None, "the TypeScript tests need npm (Node.js >= 18) on PATH"
    result = subprocess.run(
        [npm, "pack", "--dry-run", "--json", str(BINDING)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
        check=False,
        timeout=110,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    packed = json.loads(result.stdout)[0]
    names = {entry["path"] for entry in packed["files"]}
    on_disk = {path.name for path in BINDING.iterdir() if path.is_file()}
    assert packed["name"] == "bernstein-signals"
    assert names == on_disk
    assert {"index.js", "index.d.ts", "package.json"} <= names
