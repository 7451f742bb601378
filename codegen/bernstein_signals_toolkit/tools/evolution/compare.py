"""Every change between two loaded vocabularies, per kind and JSON pointer.

Each change is judged by one rule of :mod:`.rules`; the schema trees are walked
by :mod:`._schema_walk`, the grammar is compared by its terminals and rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from lark import Lark
from lark.exceptions import LarkError

from bernstein_signals_toolkit.generator.model import JSONValue, SchemaDocument, Vocabulary

from ._schema_walk import RENAMED_FROM, SchemaWalk
from .rules import Bump, Category, Rule, rule

__all__ = [
    "GRAMMAR_WHERE",
    "RENAMED_FROM",
    "REPLY_WHERE",
    "VOCABULARY_WHERE",
    "Change",
    "compare_grammars",
    "compare_schemas",
    "compare_vocabularies",
]

REPLY_WHERE: Final = "reply"
GRAMMAR_WHERE: Final = "grammar"
VOCABULARY_WHERE: Final = "vocabulary"


@dataclass(frozen=True)
class Change:
    """One change: where it is, the rule that judges it, and the verdict per side."""

    rule: Rule
    where: str
    """The kind (``QUESTION``), or ``reply``, ``grammar``, ``vocabulary``."""
    file: str
    """The source file, relative to its folder (``question.schema.json``)."""
    pointer: str
    """A JSON pointer into that file (into OLD's file for what NEW no longer has)."""
    message: str
    swapped: bool = False
    """The reply: adapters read it, so the rule's two columns trade places."""

    @property
    def producers(self) -> Category:
        return self.rule.consumers if self.swapped else self.rule.producers

    @property
    def consumers(self) -> Category:
        return self.rule.producers if self.swapped else self.rule.consumers

    @property
    def bump(self) -> Bump:
        return self.rule.bump


def compare_schemas(
    old: JSONValue, new: JSONValue, *, where: str, file: str, swapped: bool = False
) -> list[Change]:
    """Every change between two schema documents, judged for producers and consumers."""
    changes: list[Change] = []

    def emit(rule_id: str, pointer: str, message: str) -> None:
        changes.append(Change(rule(rule_id), where, file, pointer, message, swapped))

    SchemaWalk(emit).node(old, new, "")
    return changes


def _document(old: SchemaDocument, new: SchemaDocument, where: str, swapped: bool) -> list[Change]:
    return compare_schemas(old.schema, new.schema, where=where, file=new.file_name, swapped=swapped)


def _grammar_shape(text: str) -> tuple[dict[str, str], list[str]]:
    """Terminals (name -> pattern) and rules of a grammar, comments and layout aside."""
    try:
        parser = Lark(text, parser="lalr")
    except LarkError:  # the loader already accepted it; a failure here is a changed grammar
        return {}, [text]
    terminals = {t.name: f"{t.pattern!r} priority {t.priority}" for t in parser.terminals}
    return terminals, sorted(repr(r) for r in parser.rules)


def compare_grammars(old: Vocabulary, new: Vocabulary) -> Iterator[Change]:
    """PREFIX, KIND and everything else of the wire grammar."""
    name = new.grammar.file_name

    def change(rule_id: str, pointer: str, message: str) -> Change:
        return Change(rule(rule_id), GRAMMAR_WHERE, name, pointer, message)

    if old.grammar.prefix != new.grammar.prefix:
        yield change(
            "grammar-prefix-changed",
            "/PREFIX",
            f"PREFIX {old.grammar.prefix!r} -> {new.grammar.prefix!r}",
        )
    if old.grammar.kind_pattern != new.grammar.kind_pattern:
        yield change(
            "grammar-kind-changed",
            "/KIND",
            f"KIND /{old.grammar.kind_pattern}/ -> /{new.grammar.kind_pattern}/",
        )
    if old.grammar.text == new.grammar.text:
        return
    old_terms, old_rules = _grammar_shape(old.grammar.text)
    new_terms, new_rules = _grammar_shape(new.grammar.text)
    for terminal in sorted((old_terms.keys() | new_terms.keys()) - {"PREFIX", "KIND"}):
        if old_terms.get(terminal) != new_terms.get(terminal):
            yield change("grammar-changed", f"/{terminal}", f"terminal {terminal} changed")
    if old_rules != new_rules:
        yield change("grammar-changed", "/rules", "the grammar's rules changed")


def compare_vocabularies(old: Vocabulary, new: Vocabulary) -> list[Change]:
    """Every change from OLD to NEW: vocabulary text, grammar, kinds, then the reply."""
    changes: list[Change] = []
    for field in ("name", "description"):
        if getattr(old, field) != getattr(new, field):
            changes.append(
                Change(
                    rule("annotation-changed"),
                    VOCABULARY_WHERE,
                    "vocabulary.json",
                    f"/{field}",
                    f"vocabulary {field} changed",
                )
            )
    changes.extend(compare_grammars(old, new))
    old_kinds = {kind.name: kind for kind in old.kinds}
    new_kinds = {kind.name: kind for kind in new.kinds}
    for name in sorted(old_kinds.keys() | new_kinds.keys()):
        before, after = old_kinds.get(name), new_kinds.get(name)
        if after is None:
            assert before is not None
            changes.append(
                Change(rule("kind-removed"), name, before.file_name, "", f"kind {name} removed")
            )
        elif before is None:
            rule_id = "kind-added-terminal" if after.terminal else "kind-added"
            terminal = "terminal " if after.terminal else ""
            changes.append(
                Change(rule(rule_id), name, after.file_name, "", f"{terminal}kind {name} added")
            )
        else:
            if before.terminal != after.terminal:
                state = "terminal" if after.terminal else "not terminal"
                changes.append(
                    Change(
                        rule("kind-terminal-changed"),
                        name,
                        after.file_name,
                        "/x-bernstein-terminal",
                        f"kind {name} is now {state}",
                    )
                )
            changes.extend(_document(before, after, name, swapped=False))
    changes.extend(_document(old.reply, new.reply, REPLY_WHERE, swapped=True))
    return changes
