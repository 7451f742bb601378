"""`pip install .` ships both packages and the sources of truth; editable installs find them too."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bernstein_signals_toolkit.sources import packaged_sources

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        args,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--quiet",
        "--wheel-dir",
        str(out),
        str(ROOT),
    )
    [built] = out.glob("bernstein_signals-*.whl")
    return built


def test_wheel_holds_binding_toolkit_and_sources(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = "bernstein_signals_toolkit/_sources"
    expected = {
        "bernstein_signals/__init__.py",
        "bernstein_signals/kinds.py",
        "bernstein_signals/py.typed",
        "bernstein_signals_toolkit/cli.py",
        f"{sources}/grammar/signal.lark",
        f"{sources}/schema/vocabulary.json",
        *(f"{sources}/schema/{path.name}" for path in (ROOT / "schema").glob("*.schema.json")),
    }
    assert expected <= names, sorted(expected - names)
    assert not any(name.startswith(("tests/", "generated/", "codegen/")) for name in names)


def test_installed_wheel_finds_its_sources_and_regenerates_the_same_tree(
    wheel: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    _run(
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--target",
        str(site),
        str(wheel),
    )
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import bernstein_signals_toolkit as t, bernstein_signals as b\n"
        "from bernstein_signals_toolkit.sources import packaged_sources\n"
        "from bernstein_signals_toolkit.load import load_vocabulary\n"
        "from bernstein_signals_toolkit.cli import main\n"
        "s = packaged_sources()\n"
        "assert str(s.schema_dir).startswith(sys.argv[1]), s\n"
        "assert b.__file__.startswith(sys.argv[1]), b.__file__\n"
        "assert len(load_vocabulary(s.schema_dir, s.grammar).kinds) == 6\n"
        "sys.exit(main(['generate', '--check']))\n"
    )
    output = _run(sys.executable, "-c", probe, str(site))
    assert "up to date" in output


def test_installed_wheel_ships_the_shell_library(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    shipped = site / "bernstein_signals_toolkit" / "_sources" / "shell" / "bernstein-signals.sh"
    assert shipped.read_bytes() == (ROOT / "generated/shell/bernstein-signals.sh").read_bytes()
    output = _run(
        sys.executable,
        "-m",
        "bernstein_signals_toolkit.cli",
        "shell",
        "--path",
        cwd=tmp_path,
        env={"PYTHONPATH": str(site)},
    )
    assert Path(output.strip()) == shipped


def test_editable_install_uses_the_checkout() -> None:
    sources = packaged_sources()
    assert sources.schema_dir == ROOT / "schema"
    assert sources.grammar == ROOT / "grammar" / "signal.lark"
