"""The random pass (issue 23): every property test is in it, and its seed replays it.

``scripts/random-pass`` runs ``pytest -m hypothesis`` with a fresh seed. Hypothesis
marks a test that is itself ``@given``; ``tests/conftest.py`` marks a test that
defines one inside it (a ``check`` per shell); a test that reaches one through a
helper function is marked by hand. A property test no rule marks would never see
a fresh seed: that fails here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import property_support
from property_support import TESTS, runners, unreached

ROOT = TESTS.parent
SCRIPT = ROOT / "scripts" / "random-pass"


def test_every_property_test_is_in_the_random_pass() -> None:
    paths = sorted(str(path) for path in TESTS.rglob("*.py"))
    tests = [path for path in paths if Path(path).name.startswith("test_")]
    missed = [
        f"{Path(p).relative_to(ROOT)}:{line} {name}" for p, line, name in unreached(paths, tests)
    ]
    assert missed == [], (
        f"@given tests that -m hypothesis (the random pass) would not run: {missed}"
    )


SAMPLE = """
from hypothesis import given, strategies as st
from sample_support import DRIVEN, drive_there

def test_outer():
    @given(st.integers())
    def check(n): pass
    check()

class TestBox:
    def test_inner(self):
        @hypothesis.given(st.none())
        def check(x): pass

@given(st.integers())
def _drive(n): pass

def _also():
    @given(st.none())
    def run(x): pass

TABLE = {"a": _drive, "b": _also}

def test_driven(name):
    TABLE[name]()

def test_imported():
    drive_there()

def test_plain():
    assert DRIVEN

@given(st.none())
def _nobody(x): pass
"""
SUPPORT = """
from hypothesis import given
DRIVEN = 1
@given()
def _inner(): pass
def drive_there():
    _inner()
"""


def test_the_rule_finds_nested_driven_and_imported_properties(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A @given inside a test, one reached through a table or an import: marked; a plain
    test: not; a @given no test reaches: reported."""
    monkeypatch.setattr(property_support, "TESTS", tmp_path)
    module, support = tmp_path / "test_sample.py", tmp_path / "sample_support.py"
    module.write_text(SAMPLE, encoding="utf-8")
    support.write_text(SUPPORT, encoding="utf-8")
    expected = {"test_outer", "TestBox.test_inner", "test_driven", "test_imported"}
    assert runners(str(module)) == expected
    line = SAMPLE.splitlines().index("def _nobody(x): pass") + 1
    assert unreached([str(module), str(support)], [str(module)]) == [(str(module), line, "_nobody")]


def test_the_pass_prints_its_seed_and_refuses_a_bad_one() -> None:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    bad = subprocess.run(
        [str(SCRIPT), "12x"], stdin=subprocess.DEVNULL, capture_output=True, env=env, check=False
    )
    assert (bad.returncode, bad.stdout) == (2, b"")
    message = b"random-pass: the seed must be a decimal number of at most 18 digits, not '12x'\n"
    assert bad.stderr == message
    # Seed 9 runs share 0/3, where this test falls (a CRC of its id).
    run = subprocess.run(
        [str(SCRIPT), "9", "-n", "0", "tests/generator/test_errors.py"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env,
        check=False,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout.decode() + run.stderr.decode()
    assert run.stdout.startswith(
        b"== random Hypothesis pass, seed 9, share 0/3 (replay: scripts/random-pass 9)\n"
    )
    assert b"1 passed" in run.stdout
