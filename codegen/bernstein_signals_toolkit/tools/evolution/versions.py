"""Semver for the version check: how far NEW's version moved, and whether that is enough."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .rules import Bump

__all__ = ["Verdict", "bump_between", "verdict"]

_CORE: Final = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def _core(version: str) -> tuple[int, int, int]:
    """major.minor.patch; pre-release and build parts do not order releases here."""
    match = _CORE.match(version)
    if match is None:  # the loader accepts only semver; keep the check total anyway
        return (0, 0, 0)
    return int(match[1]), int(match[2]), int(match[3])


def bump_between(old: str, new: str) -> Bump | None:
    """The component NEW raised (NONE when equal), or None when NEW is lower than OLD."""
    before, after = _core(old), _core(new)
    if after < before:
        return None
    if after[0] > before[0]:
        return Bump.MAJOR
    if after[1] > before[1]:
        return Bump.MINOR
    if after[2] > before[2]:
        return Bump.PATCH
    return Bump.NONE


@dataclass(frozen=True)
class Verdict:
    old_version: str
    new_version: str
    required: Bump
    actual: Bump | None
    """None: the version went down."""

    @property
    def passed(self) -> bool:
        return self.actual is not None and self.actual.value >= self.required.value

    @property
    def actual_label(self) -> str:
        return "lowered" if self.actual is None else self.actual.label

    def sentence(self) -> str:
        """One line for people: what the changes need and what the version did."""
        moved = f"version {self.old_version} -> {self.new_version} ({self.actual_label})"
        if self.actual is None:
            return f"{moved}: the version must not go down"
        needs = (
            "no bump needed"
            if self.required is Bump.NONE
            else f"the changes need a {self.required.label} bump"
        )
        if self.passed:
            return f"{moved}: {needs}, ok"
        return (
            f"{moved}: {needs}; raise the {self.required.label} version in schema/vocabulary.json"
        )


def verdict(old_version: str, new_version: str, bumps: Iterable[Bump]) -> Verdict:
    required = max(bumps, key=lambda bump: bump.value, default=Bump.NONE)
    return Verdict(old_version, new_version, required, bump_between(old_version, new_version))
