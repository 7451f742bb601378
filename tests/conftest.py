"""Test-wide settings: a deterministic Hypothesis profile for CI."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from shell_support import SHELLS, shell_command

# CI: derandomized (the same examples every run), no deadline (CI machines are
# noisy), and failures print the blob that reproduces them.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(params=list(SHELLS))
def shell(request: pytest.FixtureRequest) -> str:
    """Every shell test runs once per supported shell (see shell_support.SHELLS)."""
    name: str = request.param
    shell_command(name)
    return name
