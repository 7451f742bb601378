"""The ``repo`` fixture: a committed copy of the vocabulary (see diff_support)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.evolution.diff_support import committed_copy


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root: Path = committed_copy(tmp_path)
    return root
