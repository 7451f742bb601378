"""Every shell test runs once per shell; see shell_support.SHELLS."""

from __future__ import annotations

import pytest
from shell_support import SHELLS, shell_command


@pytest.fixture(params=list(SHELLS))
def shell(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    shell_command(name)
    return name
