"""Fixtures of the run-time vocabulary tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocabulary.vocabulary_support import make_fork


@pytest.fixture(scope="module")
def fork(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A schema folder: the built-in vocabulary plus PROGRESS {percent: integer 0..100}."""
    return make_fork(tmp_path_factory.mktemp("fork"))
