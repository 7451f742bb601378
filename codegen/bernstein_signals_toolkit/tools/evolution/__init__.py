"""Vocabulary evolution: what a change does to deployed adapters and orchestrators.

:mod:`.rules` holds the one table of change rules, :mod:`.compare` applies it
to two loaded vocabularies, :mod:`.sources` reads a side from a folder or a
commit, :mod:`.versions` checks the semver bump and :mod:`.report` renders
the result.
"""

from __future__ import annotations

from .compare import Change, compare_schemas, compare_vocabularies
from .diff import Diff, diff_against, diff_sources
from .rules import RULES, Bump, Category, Rule, rule_table_markdown
from .sources import GIT_PREFIX, NoBaseline

__all__ = [
    "GIT_PREFIX",
    "RULES",
    "Bump",
    "Category",
    "Change",
    "Diff",
    "NoBaseline",
    "Rule",
    "compare_schemas",
    "compare_vocabularies",
    "diff_against",
    "diff_sources",
    "rule_table_markdown",
]
