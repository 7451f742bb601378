"""diff against hostile vocabularies and arguments (the driver lives in hostile_diff.py)."""

from __future__ import annotations

import pytest

from tools.evolution.hostile_diff import drive_diff, drive_diff_arguments


@pytest.mark.timeout(600)
def test_diff_survives_hostile_vocabularies() -> None:
    drive_diff()


@pytest.mark.timeout(600)
def test_diff_survives_hostile_arguments() -> None:
    drive_diff_arguments()
