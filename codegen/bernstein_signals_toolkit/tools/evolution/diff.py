"""One comparison: both sides loaded, every change, and the version verdict."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bernstein_signals_toolkit.generator.load import load_vocabulary

from .compare import Change, compare_vocabularies
from .sources import Side, opened
from .versions import Verdict, verdict

__all__ = ["Diff", "diff_against", "diff_sides", "diff_sources"]


@dataclass(frozen=True)
class SideSummary:
    """What a report needs of a side once its temporary folder is gone."""

    label: str
    version: str
    files: str
    grammar_file: str


@dataclass(frozen=True)
class Diff:
    old: SideSummary
    new: SideSummary
    changes: tuple[Change, ...]
    verdict: Verdict

    @property
    def passed(self) -> bool:
        return self.verdict.passed

    def file_of(self, change: Change) -> str:
        """The changed file as reports name it (under NEW, or OLD for what NEW dropped)."""
        if change.where == "grammar":
            return self.new.grammar_file
        return f"{self.new.files}{change.file}"


def _summary(side: Side) -> SideSummary:
    return SideSummary(side.label, side.vocabulary.version, side.files, side.grammar_file)


def diff_sides(old: Side, new: Side) -> Diff:
    changes = tuple(compare_vocabularies(old.vocabulary, new.vocabulary))
    return Diff(
        _summary(old),
        _summary(new),
        changes,
        verdict(old.vocabulary.version, new.vocabulary.version, (c.bump for c in changes)),
    )


def diff_sources(old: str, new: str, *, cwd: Path | None = None) -> Diff:
    """Load OLD and NEW (folders or ``git:REF``) and compare them."""
    with opened(old, cwd=cwd) as before, opened(new, cwd=cwd) as after:
        return diff_sides(before, after)


def diff_against(baseline: str, schema_dir: Path, grammar: Path) -> Diff:
    """NEW given as the folders ``generate`` reads, OLD as a folder or ``git:REF``."""
    with opened(baseline) as before:
        after = Side(
            str(schema_dir), f"{schema_dir}/", str(grammar), load_vocabulary(schema_dir, grammar)
        )
        return diff_sides(before, after)
