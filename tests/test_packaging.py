"""`pip install .` ships both packages and the sources of truth; editable installs find them too."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from bernstein_signals import completed
from bernstein_signals_toolkit.generator.emitters._header import MARKER
from bernstein_signals_toolkit.generator.load import load_vocabulary
from bernstein_signals_toolkit.generator.sources import packaged_sources
from vendor_support import drive_vendor

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
        "from bernstein_signals_toolkit.generator.sources import packaged_sources\n"
        "from bernstein_signals_toolkit.generator.load import load_vocabulary\n"
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


# ---------------------------------------------------------------------------
# The binding alone (issue 16, item 16): its own distribution, and `vendor`
# ---------------------------------------------------------------------------

BINDING = ROOT / "generated" / "python"


@pytest.fixture(scope="module")
def binding_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The binding's own wheel, built from a copy of generated/python (the tree stays clean)."""
    source = tmp_path_factory.mktemp("binding") / "python"
    shutil.copytree(BINDING, source, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("binding-wheel")
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
        str(source),
    )
    [built] = out.glob("bernstein_signals_binding-*.whl")
    return built


def test_the_binding_wheel_holds_the_binding_and_needs_nothing(binding_wheel: Path) -> None:
    archive = zipfile.ZipFile(binding_wheel)
    names = archive.namelist()
    packaged = {name.split("/", 1)[1] for name in names if name.startswith("bernstein_signals/")}
    shipped = {p.name for p in (BINDING / "bernstein_signals").iterdir() if p.is_file()}
    assert packaged == shipped
    assert all(
        name.startswith(("bernstein_signals/", "bernstein_signals_binding-")) for name in names
    )
    [metadata] = [name for name in names if name.endswith(".dist-info/METADATA")]
    fields = archive.read(metadata).decode().splitlines()
    assert "Name: bernstein-signals-binding" in fields
    assert f"Version: {_vocabulary_version()}" in fields
    assert not [field for field in fields if field.startswith("Requires-Dist:")]


def _vocabulary_version() -> str:
    version: str = json.loads((ROOT / "schema" / "vocabulary.json").read_text())["version"]
    return version


_BINDING_PROBE = """
import importlib.metadata as metadata, sys
import bernstein_signals as b
assert b.__file__.startswith(sys.prefix), b.__file__
line = b.question("Apply?", options=["yes", "no"], id="q-1")
signal = b.parse_signal(line)
assert signal is not None and signal.payload["id"] == "q-1", signal
names = sorted(d.metadata["Name"] for d in metadata.distributions())
print(" ".join(names))
"""


@pytest.mark.timeout(300)
def test_the_binding_installs_into_a_fresh_venv_alone(binding_wheel: Path, tmp_path: Path) -> None:
    """No index, no other wheel: the install works only because nothing else is needed."""
    venv = tmp_path / "fresh"
    _run(sys.executable, "-m", "venv", str(venv))
    python = str(venv / "bin" / "python")
    before = set(_run(python, "-I", "-m", "pip", "list", "--format=freeze").split())
    _run(python, "-I", "-m", "pip", "install", "--quiet", "--no-index", str(binding_wheel))
    after = set(_run(python, "-I", "-m", "pip", "list", "--format=freeze").split())
    assert after - before == {f"bernstein-signals-binding=={_vocabulary_version()}"}
    found = _run(python, "-I", "-c", _BINDING_PROBE, cwd=tmp_path).split()
    assert "bernstein-signals-binding" in found
    assert not {"jsonschema", "lark", "ruff", "pydantic"} & {name.lower() for name in found}


def test_the_binding_builds_with_the_toolkits_backend() -> None:
    """One backend for both distributions: the generated pyproject copies the toolkit's."""
    toolkit = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    binding = tomllib.loads((BINDING / "pyproject.toml").read_text())["build-system"]
    assert binding == {"requires": toolkit["requires"], "build-backend": toolkit["build-backend"]}


@pytest.mark.parametrize(
    ("semver", "pep440"),
    [
        ("1.0.0", "1.0.0"),
        ("2.1.0-rc.1", "2.1.0.dev0"),
        ("1.0.0+build.7", "1.0.0"),
        ("0.3.9-a-b+c", "0.3.9.dev0"),
    ],
)
def test_the_binding_version_is_the_vocabulary_version(semver: str, pep440: str) -> None:
    from bernstein_signals_toolkit.generator.emitters.python import _distribution_version

    assert _distribution_version(semver) == pep440


def _vendor(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bernstein_signals_toolkit.cli", "vendor", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _package_files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_vendor_copies_the_binding_with_its_headers(tmp_path: Path) -> None:
    result = _vendor("lib", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    copied = tmp_path / "lib" / "bernstein_signals"
    assert _package_files(copied) == _package_files(BINDING / "bernstein_signals")
    for name, content in _package_files(copied).items():
        assert MARKER.encode() in content.splitlines()[0], name
    probe = (
        "import sys; sys.path.insert(0, 'lib'); import bernstein_signals as b; print(b.completed())"
    )
    # The vendored copy writes what the binding writes (completed() stamps the vocabulary).
    assert _run(sys.executable, "-I", "-c", probe, cwd=tmp_path) == completed() + "\n"

    again = _vendor("lib", cwd=tmp_path)
    assert again.returncode == 0
    assert again.stdout.endswith(" 0 written\n")
    assert _vendor("--check", "lib", cwd=tmp_path).returncode == 0


def test_vendor_updates_an_old_copy_and_keeps_hand_written_files(tmp_path: Path) -> None:
    copied = tmp_path / "lib" / "bernstein_signals"
    assert _vendor("lib", cwd=tmp_path).returncode == 0
    (copied / "kinds.py").write_text(f"# {MARKER} long ago\nOLD = 1\n")
    (copied / "retired.py").write_text(f"# {MARKER} long ago\n")
    (copied / "mine.py").write_text("MINE = 1\n")

    checked = _vendor("--check", "lib", cwd=tmp_path)
    assert checked.returncode == 1
    assert "stale: kinds.py" in checked.stdout
    assert "-OLD = 1" in checked.stdout
    assert "orphaned: retired.py" in checked.stdout
    assert checked.stderr.count("\n") == 1

    result = _vendor("lib", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "retired.py (deleted)" in result.stdout
    assert "mine.py (kept, not generated by this tool)" in result.stdout
    assert _package_files(copied) == {
        **_package_files(BINDING / "bernstein_signals"),
        "mine.py": b"MINE = 1\n",
    }


def test_vendor_never_writes_through_a_symlink(tmp_path: Path) -> None:
    victim = tmp_path / "victim.py"
    victim.write_text("victim\n")
    copied = tmp_path / "lib" / "bernstein_signals"
    copied.mkdir(parents=True)
    (copied / "kinds.py").symlink_to(victim)
    result = _vendor("lib", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert "is a symlink" in line
    assert victim.read_text() == "victim\n"
    assert sorted(p.name for p in copied.iterdir()) == ["kinds.py"], "nothing written"


def test_an_installed_toolkit_vendors_the_binding_it_ships(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    result = subprocess.run(
        [sys.executable, "-I", "-c", _VENDOR_PROBE, str(site), str(tmp_path / "lib")],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"{site / 'bernstein_signals'}\n")
    copied = _package_files(tmp_path / "lib" / "bernstein_signals")
    assert copied == _package_files(site / "bernstein_signals")


_VENDOR_PROBE = (
    "import sys; sys.path.insert(0, sys.argv[1])\n"
    "from bernstein_signals_toolkit.tools.commands.vendor import binding_package\n"
    "from bernstein_signals_toolkit.cli import main\n"
    "print(binding_package())\n"
    "sys.exit(main(['vendor', sys.argv[2]]))\n"
)


def test_the_binding_pyproject_is_toml_whatever_the_sources_hold() -> None:
    """Source text reaches it only in the header's comments, escaped to one line each."""
    from bernstein_signals_toolkit.generator.emitters.python import _pyproject
    from generator.hostile_sources_support import HOSTILE

    vocabulary = load_vocabulary(ROOT / "schema", ROOT / "grammar" / "signal.lark")
    for text in HOSTILE:
        odd = dataclasses.replace(vocabulary, name=text, source_names=(text, f"{text}/x"))
        project = tomllib.loads(_pyproject(odd))["project"]
        assert project["name"] == "bernstein-signals-binding"
        assert project["dependencies"] == []


@pytest.mark.parametrize(("verb", "extras"), [("demo", False), ("generate", False), ("test", True)])
def test_make_demo_installs_the_toolkit_without_its_test_tools(
    tmp_path: Path, verb: str, extras: bool
) -> None:
    """What each verb would run in a fresh clone (no .venv): only test and lint add the extras."""
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    planned = _run("make", "-n", verb, cwd=tmp_path)
    installs = [line for line in planned.splitlines() if "pip install" in line]
    assert any(line.endswith("-e .") for line in installs), planned
    assert any("[test]" in line for line in installs) == extras, planned


@pytest.mark.timeout(300)
def test_vendor_survives_hostile_folders() -> None:
    drive_vendor()
