"""Test-wide settings: a deterministic Hypothesis profile for CI."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
