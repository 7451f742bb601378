"""The checks a schema compiles to: a small frozen tree any binding's renderer walks.

:mod:`.schema_compiler` builds it from the schemas; ``emitters._python_checks``
renders it as Python, ``emitters._typescript_checks`` as TypeScript. Every verdict
is decided in the tree: which checks run on which value, in which order, under
which branch; the pointer of each error, its rule (the keyword), its raw text and
its message. A renderer only chooses how each node is written in its language.

How a renderer walks it: a :class:`Document` (a kind's or the reply's schema)
holds ``checks`` on the payload (an object: the caller checks that first). A
check is one of the node classes in :data:`Check`; the ones holding ``checks``
run them in order on the value their ``subject`` names. :class:`Var` names
values: the payload, a function's argument, and loop or member variables,
each with the depth of the object or array it came from (unique in scope).
A :class:`Subschema` is a verdict another check needs (``anyOf``, ``not``,
``if``, ``contains``): render it as a function returning whether its checks
recorded nothing. A :class:`RefCall` checks the value against the document's
``refs[target]``, a function that may call itself: a renderer makes each once
and counts ``$ref`` calls on the way down; deeper than the binding's
``MAX_NESTING_DEPTH``, the call records :data:`REF_TOO_DEEP` (rule ``$ref``, at
its pointer) and checks nothing more. A :class:`Pointer` step that is a
``key`` variable is escaped at run time (``~`` -> ``~0``, ``/`` -> ``~1``); an
``index`` variable is written as its decimal digits.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, TypeAlias

__all__ = [
    "JSON_TYPES",
    "REF_TOO_DEEP",
    "Additional",
    "Check",
    "Conditional",
    "Const",
    "Contains",
    "Count",
    "DependentRequired",
    "Document",
    "EachItem",
    "EachMember",
    "Enum",
    "Fail",
    "IfPresent",
    "ItemAt",
    "JSONType",
    "Member",
    "MemberPattern",
    "MultipleOf",
    "Not",
    "NumberBound",
    "Operator",
    "Pattern",
    "Pointer",
    "RefCall",
    "Required",
    "Size",
    "Subschema",
    "TypeBranch",
    "TypeSwitch",
    "Unique",
    "Var",
]

JSONType: TypeAlias = Literal["null", "boolean", "integer", "number", "string", "array", "object"]
JSON_TYPES: Final[dict[JSONType, str]] = {
    "null": "null",
    "boolean": "a boolean",
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "array": "an array",
    "object": "an object",
}
"""The JSON types in the order a type switch tests them, with the name messages use.
An integer is a number whose value is integral (``1.0`` is one), never a boolean."""
Operator: TypeAlias = Literal["<", ">", "<=", ">="]
"""The comparison that fails a rule: ``size < bound`` fails ``minLength``."""

REF_TOO_DEEP: Final = "nests too deeply"
"""The message (and raw text) of the ``$ref`` error past the nesting limit."""


@dataclass(frozen=True)
class Var:
    """A value in scope. ``payload`` (depth 0) is the document's root; ``value`` is a
    function's argument (depth 0) or a top-level member (depth 1); ``member``, ``key``,
    ``item``, ``index`` and ``count`` are bound at ``depth`` by the node that names them.
    """

    role: Literal["payload", "value", "member", "key", "item", "index", "count"]
    depth: int


@dataclass(frozen=True)
class Pointer:
    """The JSON pointer of an error: the root (``""``) or, in a function, its ``pointer``
    argument; then steps, each a token known now (already escaped) or the run-time value
    of an ``index`` (its digits) or ``key`` variable (escaped at run time).
    """

    from_argument: bool
    steps: tuple[str | Var, ...] = ()

    def below(self, step: str | Var) -> Pointer:
        return replace(self, steps=(*self.steps, step))


@dataclass(frozen=True)
class Fail:
    """Record an error: the pointer, the rule (a keyword, ``false`` or ``required``), the
    message shown to people and the raw rule text (``PayloadError.detail``)."""

    at: Pointer
    rule: str
    message: str
    detail: str


@dataclass(frozen=True)
class Subschema:
    """A verdict (does the value pass?) for an applicator: always, never, or its checks."""

    always: bool | None
    """True or False for the schemas ``true``/``{}`` and ``false``; None: run ``checks``."""
    checks: tuple[Check, ...] = ()


@dataclass(frozen=True)
class TypeBranch:
    types: tuple[JSONType, ...]
    """Types sharing one body, in :data:`JSON_TYPES` order: a value of any of them."""
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class TypeSwitch:
    """The first branch whose types hold the value runs; ``otherwise`` fails any other."""

    subject: Var
    branches: tuple[TypeBranch, ...]
    otherwise: Fail | None


@dataclass(frozen=True)
class Size:
    """Fail when the size (characters as code points, items, members) ``operator`` bound."""

    subject: Var
    operator: Operator
    bound: int
    fail: Fail


@dataclass(frozen=True)
class NumberBound:
    """Fail when the number ``operator`` the JSON number ``bound`` (compared exactly)."""

    subject: Var
    operator: Operator
    bound: int | float
    fail: Fail


@dataclass(frozen=True)
class MultipleOf:
    subject: Var
    divisor: int | float
    fail: Fail


@dataclass(frozen=True)
class Pattern:
    """Fail when the ECMA-262 ``source`` (unicode mode, unanchored) finds no match."""

    subject: Var
    source: str
    fail: Fail


@dataclass(frozen=True)
class Unique:
    """Fail when two items are equal as JSON (``1`` equals ``1.0``; ``true`` is not ``1``)."""

    subject: Var
    fail: Fail


@dataclass(frozen=True)
class ItemAt:
    """When the array has an item at ``position``, bind it to ``item`` and run ``checks``."""

    subject: Var
    position: int
    item: Var
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class EachItem:
    """For each item from ``start`` on: bind ``index`` and ``item``, run ``checks``."""

    subject: Var
    start: int
    index: Var
    item: Var
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class Contains:
    """Count the items passing ``test`` into ``count``; fail below ``least`` (when above 0)
    or above ``most`` (when given)."""

    subject: Var
    item: Var
    count: Var
    test: Subschema
    least: int
    most: int | None
    fail_least: Fail
    fail_most: Fail | None


@dataclass(frozen=True)
class Required:
    """Fail when the object has no member ``name``."""

    subject: Var
    name: str
    fail: Fail


@dataclass(frozen=True)
class DependentRequired:
    """Fail when the object has ``name`` but not ``needed``."""

    subject: Var
    name: str
    needed: str
    fail: Fail


@dataclass(frozen=True)
class IfPresent:
    """Run ``checks`` (on the object itself) when it has a member ``name``."""

    subject: Var
    name: str
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class Member:
    """Bind member ``name`` to ``var``: absent, ``absent`` fails (when given); present,
    ``checks`` run on it."""

    subject: Var
    name: str
    var: Var
    checks: tuple[Check, ...]
    absent: Fail | None = None


@dataclass(frozen=True)
class MemberPattern:
    """Members whose key the ECMA-262 ``source`` matches run ``checks``."""

    source: str
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class Additional:
    """Members named by no property in ``known`` and matched by no pattern run ``checks``."""

    known: tuple[str, ...]
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class EachMember:
    """For each member: bind ``key`` and ``member``; ``key_checks`` run on the key (a
    string), then each pattern's checks, then ``additional``'s."""

    subject: Var
    key: Var
    member: Var
    key_checks: tuple[Check, ...]
    patterns: tuple[MemberPattern, ...]
    additional: Additional | None


@dataclass(frozen=True)
class Enum:
    """Fail unless the value equals (as JSON) one of ``values``."""

    subject: Var
    values: tuple[Any, ...]
    fail: Fail


@dataclass(frozen=True)
class Const:
    subject: Var
    value: Any
    fail: Fail


@dataclass(frozen=True)
class RefCall:
    """Check the value against ``refs[target]`` of the document, one ``$ref`` deeper."""

    subject: Var
    at: Pointer
    target: str


@dataclass(frozen=True)
class Count:
    """``any``: fail unless one alternative passes; ``one``: unless exactly one does."""

    subject: Var
    mode: Literal["any", "one"]
    alternatives: tuple[Subschema, ...]
    fail: Fail


@dataclass(frozen=True)
class Not:
    subject: Var
    schema: Subschema
    fail: Fail


@dataclass(frozen=True)
class Conditional:
    """``then`` runs when the value passes ``test``, ``otherwise`` when it does not."""

    subject: Var
    test: Subschema
    then: tuple[Check, ...]
    otherwise: tuple[Check, ...]


Check: TypeAlias = (
    Fail
    | TypeSwitch
    | Size
    | NumberBound
    | MultipleOf
    | Pattern
    | Unique
    | ItemAt
    | EachItem
    | Contains
    | Required
    | DependentRequired
    | IfPresent
    | Member
    | EachMember
    | Enum
    | Const
    | RefCall
    | Count
    | Not
    | Conditional
)


@dataclass(frozen=True)
class Document:
    """One schema file compiled: ``checks`` run on ``subject`` (the payload at the root,
    or a function's argument for :func:`compile_schema`); ``refs`` are the ``$ref``
    targets by their reference text."""

    file_name: str
    subject: Var
    checks: tuple[Check, ...]
    refs: dict[str, tuple[Check, ...]] = field(default_factory=dict)
