"""Test-wide settings: Hypothesis profiles (deterministic for CI, random for a seeded pass)."""

from __future__ import annotations

import os
import zlib

import pytest
from hypothesis import HealthCheck, settings

from property_support import runners
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
# random: fresh examples from the seed pytest is given (--hypothesis-seed; scripts/random-pass
# prints it), and no example database, so that seed alone replays a run.
settings.register_profile(
    "random",
    derandomize=False,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


SHARE = "BSIG_TEST_SHARE"
"""``I/N``: run only the tests whose share of N (a CRC of the test's id) is I; the random
pass runs one third of the property tests per seed (scripts/random-pass)."""


def _share(value: str) -> tuple[int, int]:
    index, _, count = value.partition("/")
    if not (index.isdigit() and count.isdigit() and int(index) < int(count)):
        raise pytest.UsageError(f"{SHARE}={value!r}: expected I/N with 0 <= I < N")
    return int(index), int(count)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``hypothesis`` every test that runs a property (Hypothesis marks only a test
    that is itself @given): ``-m hypothesis``, the random pass, selects them all."""
    for item in items:
        function = getattr(item, "function", None)
        path = str(item.path)
        if function is not None and path.endswith(".py") and function.__qualname__ in runners(path):
            item.add_marker(pytest.mark.hypothesis)
    if os.environ.get(SHARE):
        index, count = _share(os.environ[SHARE])
        kept = [zlib.crc32(item.nodeid.encode()) % count == index for item in items]
        config.hook.pytest_deselected(
            items=[i for i, keep in zip(items, kept, strict=True) if not keep]
        )
        items[:] = [item for item, keep in zip(items, kept, strict=True) if keep]


@pytest.fixture(params=list(SHELLS))
def shell(request: pytest.FixtureRequest) -> str:
    """Every shell test runs once per supported shell (see shell_support.SHELLS)."""
    name: str = request.param
    shell_command(name)
    return name
