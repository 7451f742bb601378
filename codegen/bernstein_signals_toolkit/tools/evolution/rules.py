"""The one table of vocabulary change rules: what each change does to each side, and its bump.

Two sides are judged separately, because adapters and orchestrators upgrade at
different times:

- **producers**: adapters built against OLD, emitting to consumers built against NEW
  (Confluent's BACKWARD: NEW must accept everything OLD accepted);
- **consumers**: orchestrators built against OLD, reading producers built against NEW
  (Confluent's FORWARD: OLD must accept everything NEW accepts).

The question reply travels the other way (orchestrator -> adapter), so a reply
change is judged with the same rule and the two columns swapped: adapters on
OLD then *read* replies written by orchestrators on NEW.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

__all__ = [
    "RULES",
    "Bump",
    "Category",
    "Rule",
    "rule",
    "rule_table_markdown",
]


class Category(Enum):
    """What a change does to one side."""

    COMPATIBLE = "compatible"
    WARNING = "warning"
    """Some deployed payloads may break: the open-content trap and its mirror image."""
    BREAKING = "breaking"


class Bump(Enum):
    """A semver component; ordered, so that the largest a change set needs wins."""

    NONE = 0
    PATCH = 1
    MINOR = 2
    MAJOR = 3

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Rule:
    """One kind of change, with the category for each side and the anchors' views."""

    id: str
    title: str
    producers: Category
    consumers: Category
    wording: bool
    """True for changes no validator sees (text, examples): they need no bump."""
    anchors: str
    """What buf, Confluent Schema Registry and weaver say where they differ."""

    @property
    def bump(self) -> Bump:
        """Breaking on either side: major; wording: none; any other change: minor."""
        if Category.BREAKING in (self.producers, self.consumers):
            return Bump.MAJOR
        return Bump.NONE if self.wording else Bump.MINOR


_C, _W, _B = Category.COMPATIBLE, Category.WARNING, Category.BREAKING

_CONFLUENT_SAME = "Confluent: BACKWARD = producers column, FORWARD = consumers column, FULL = both"

RULES: Final[tuple[Rule, ...]] = (
    # kinds
    Rule(
        "kind-added",
        "a non-terminal kind added",
        _C,
        _W,
        False,
        "buf: MESSAGE added is not breaking; weaver: 'added'; Confluent has no notion of"
        " a new message type in a subject. Here old consumers skip the unknown kind (a warning)",
    ),
    Rule(
        "kind-added-terminal",
        "a terminal kind added",
        _C,
        _B,
        False,
        "buf, Confluent, weaver: an addition, never breaking. Here an old orchestrator"
        " never sees a terminal it knows, so the run never ends for it",
    ),
    Rule(
        "kind-removed",
        "a kind removed",
        _B,
        _C,
        False,
        "buf: MESSAGE_NO_DELETE (breaking in every category); weaver: 'removed' or"
        " 'obsoleted', no verdict",
    ),
    Rule(
        "kind-terminal-changed",
        "a kind became terminal, or stopped being terminal",
        _B,
        _B,
        False,
        "no anchor models run lifecycle; weaver would call it 'uncategorized'",
    ),
    # fields: added (the OLD object's content model decides)
    Rule(
        "field-added-required",
        "a required field added (open content)",
        _B,
        _C,
        False,
        "Confluent: BACKWARD incompatible, FORWARD compatible (same); buf: proto3 has no"
        " required, a new field is never breaking",
    ),
    Rule(
        "field-added-optional",
        "an optional field added (open content)",
        _W,
        _C,
        False,
        "the open-content trap: an old adapter may already send the name as an extra"
        " of another type. Confluent BACKWARD: incompatible"
        " (PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL); buf and weaver: a safe addition",
    ),
    Rule(
        "field-added-required-closed",
        "a required field added (additionalProperties false)",
        _B,
        _B,
        False,
        _CONFLUENT_SAME + "; buf: not breaking (unknown fields are kept)",
    ),
    Rule(
        "field-added-optional-closed",
        "an optional field added (additionalProperties false)",
        _C,
        _B,
        False,
        _CONFLUENT_SAME + "; buf: not breaking (unknown fields are kept)",
    ),
    Rule(
        "field-added-required-constrained",
        "a required field added (additionalProperties a schema)",
        _B,
        _W,
        False,
        "Confluent: partially open content model, the extras schema decides; buf: not breaking",
    ),
    Rule(
        "field-added-optional-constrained",
        "an optional field added (additionalProperties a schema)",
        _W,
        _W,
        False,
        "Confluent: compatible only if the field's schema and the extras schema agree;"
        " buf: not breaking",
    ),
    # fields: removed (the NEW object's content model decides)
    Rule(
        "field-removed-required",
        "a required field removed (open content)",
        _C,
        _B,
        False,
        "buf: FIELD_NO_DELETE breaking unless reserved; Confluent: BACKWARD compatible"
        " (PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL), FORWARD incompatible;"
        " weaver: 'removed'",
    ),
    Rule(
        "field-removed-optional",
        "an optional field removed (open content)",
        _C,
        _W,
        False,
        "the mirror of the open-content trap: a new adapter may send the old name as an"
        " extra of any type. buf: FIELD_NO_DELETE breaking; Confluent FORWARD: incompatible",
    ),
    Rule(
        "field-removed-required-closed",
        "a required field removed (additionalProperties false)",
        _B,
        _B,
        False,
        _CONFLUENT_SAME + "; buf: FIELD_NO_DELETE",
    ),
    Rule(
        "field-removed-optional-closed",
        "an optional field removed (additionalProperties false)",
        _B,
        _C,
        False,
        "Confluent: BACKWARD incompatible (PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL);"
        " buf: FIELD_NO_DELETE",
    ),
    Rule(
        "field-removed-required-constrained",
        "a required field removed (additionalProperties a schema)",
        _W,
        _B,
        False,
        "Confluent: the extras schema decides; buf: FIELD_NO_DELETE",
    ),
    Rule(
        "field-removed-optional-constrained",
        "an optional field removed (additionalProperties a schema)",
        _W,
        _W,
        False,
        "Confluent: the extras schema decides; buf: FIELD_NO_DELETE",
    ),
    Rule(
        "field-renamed",
        "a field renamed (x-bernstein-renamed-from)",
        _B,
        _B,
        False,
        "buf: FIELD_SAME_NAME / FIELD_SAME_JSON_NAME (WIRE_JSON) breaking, WIRE allows it"
        " (numbers, not names, are on the wire); weaver: 'renamed', reported as a"
        " deprecation with renamed_to, no verdict; Confluent: a removal plus an addition",
    ),
    Rule(
        "field-made-required",
        "an optional field made required",
        _B,
        _C,
        False,
        _CONFLUENT_SAME + "; buf: FIELD_SAME_CARDINALITY / FIELD_SAME_LABEL",
    ),
    Rule(
        "field-made-optional",
        "a required field made optional",
        _C,
        _B,
        False,
        _CONFLUENT_SAME + "; buf: FIELD_SAME_CARDINALITY / FIELD_SAME_LABEL",
    ),
    Rule(
        "field-order-changed",
        "required fields reordered (the shell helpers take them positionally in that order)",
        _W,
        _C,
        False,
        "not a wire change for any anchor; buf's FILE/PACKAGE categories would flag the"
        " generated code. Deployed adapters are unaffected; a wrapper script that upgrades"
        " its helpers must reorder its arguments",
    ),
    # types and constraints (at any depth)
    Rule(
        "type-narrowed",
        "a type narrowed (a JSON type dropped)",
        _B,
        _C,
        False,
        "Confluent: TYPE_NARROWED, BACKWARD incompatible; buf: FIELD_SAME_TYPE breaking"
        " both ways (and WIRE_JSON lets a few types change)",
    ),
    Rule(
        "type-widened",
        "a type widened (a JSON type added)",
        _C,
        _B,
        False,
        "Confluent: TYPE_EXTENDED, BACKWARD compatible, FORWARD incompatible;"
        " buf: FIELD_SAME_TYPE breaking",
    ),
    Rule(
        "type-changed",
        "a type changed (neither narrower nor wider)",
        _B,
        _B,
        False,
        _CONFLUENT_SAME + "; buf: FIELD_SAME_TYPE",
    ),
    Rule(
        "constraint-tightened",
        "a constraint added or tightened (bounds, lengths, counts, enum, const,"
        " uniqueItems, required, additionalProperties, multipleOf, items...)",
        _B,
        _C,
        False,
        "Confluent: e.g. MAX_LENGTH_DECREASED, ENUM_ARRAY_NARROWED, BACKWARD incompatible;"
        " buf: no constraints in Protobuf itself (protovalidate is not checked);"
        " weaver: not compared",
    ),
    Rule(
        "constraint-loosened",
        "a constraint removed or loosened",
        _C,
        _B,
        False,
        "Confluent: e.g. MAX_LENGTH_INCREASED, ENUM_ARRAY_EXTENDED, FORWARD incompatible;"
        " buf and weaver: not compared",
    ),
    Rule(
        "constraint-changed",
        "a constraint changed in a way the rules cannot order (pattern, allOf/anyOf/oneOf,"
        " not, if, $ref, patternProperties, ...)",
        _B,
        _B,
        False,
        "Confluent: pattern and combinator changes are incompatible both ways"
        " (PATTERN_CHANGED, COMBINED_TYPE_CHANGED); buf and weaver: not compared",
    ),
    # grammar
    Rule(
        "grammar-prefix-changed",
        "the signal PREFIX changed",
        _B,
        _B,
        False,
        "no anchor has a wire prefix; to buf it would be every message renamed at once",
    ),
    Rule(
        "grammar-kind-changed",
        "the KIND token changed",
        _B,
        _B,
        False,
        "no anchor has a wire grammar; judged conservatively, since languages of two"
        " regular expressions are not compared",
    ),
    Rule(
        "grammar-changed",
        "another grammar rule or terminal changed (JSON syntax, separator)",
        _B,
        _B,
        False,
        "no anchor has a wire grammar; judged conservatively",
    ),
    # wording
    Rule(
        "annotation-changed",
        "wording changed (title, description, examples, x-bernstein-message, format, $id,"
        " $comment and other annotations)",
        _C,
        _C,
        True,
        "buf: comments are ignored; weaver: brief/note changes are not reported;"
        " Confluent: ignored",
    ),
)
"""Every rule ``diff`` applies; a new kind of change needs a row here and a case in the tests."""

_BY_ID: Final = {entry.id: entry for entry in RULES}


def rule(rule_id: str) -> Rule:
    """The rule with that id (a KeyError is a bug in the comparer, not user input)."""
    return _BY_ID[rule_id]


def rule_table_markdown() -> str:
    """The table as the README and ``diff --rules`` show it."""
    lines = [
        "| Rule | Change | Producers | Consumers | Bump | buf / Confluent / weaver |",
        "|---|---|---|---|---|---|",
    ]
    for entry in RULES:
        lines.append(
            f"| `{entry.id}` | {entry.title} | {entry.producers.value}"
            f" | {entry.consumers.value} | {entry.bump.label} | {entry.anchors} |"
        )
    return "\n".join(lines) + "\n"
