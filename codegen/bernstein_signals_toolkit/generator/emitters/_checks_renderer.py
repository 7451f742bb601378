"""What every renderer of the schema compiler's checks shares, whatever its language.

A module's registry of constants, functions and ``$ref`` functions (each made
once, by first use), and the walk: which method writes which node of
:mod:`..schema_checks`, a function for each verdict an applicator needs, one for
each ``$ref`` target. A target (``_python_checks``, ``_typescript_checks``)
subclasses :class:`ChecksRenderer` and writes only the nodes, in its language.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..schema_checks import (
    Check,
    Conditional,
    Const,
    Contains,
    Count,
    DependentRequired,
    Document,
    EachItem,
    EachMember,
    Enum,
    Fail,
    IfPresent,
    ItemAt,
    Member,
    MultipleOf,
    Not,
    NumberBound,
    Pattern,
    RefCall,
    Required,
    Size,
    Subschema,
    TypeSwitch,
    Unique,
    Var,
)

__all__ = ["ChecksRenderer", "RenderedModule"]


@dataclass
class RenderedModule:
    """What the documents of one module share: constants and functions, by first use."""

    constants: dict[str, str] = field(default_factory=dict)
    functions: list[str] = field(default_factory=list)
    refs: dict[tuple[str, str], str] = field(default_factory=dict)
    """The function of each (document, ``$ref`` target), made once."""

    def constant(self, prefix: str, expression: str) -> str:
        """A module-level name for ``expression`` (shared when it repeats)."""
        for name, existing in self.constants.items():
            if existing == expression and name.startswith(f"_{prefix}_"):
                return name
        name = f"_{prefix}_{len(self.constants)}"
        self.constants[name] = expression
        return name


_S = TypeVar("_S")
"""A target's statement: a line of text, or a node it prints later."""
_M = TypeVar("_M", bound=RenderedModule)


@dataclass
class ChecksRenderer(ABC, Generic[_S, _M]):
    """Writes one document's checks as statements of a target language into ``module``."""

    document: Document
    module: _M

    # -- what each target writes -------------------------------------------------------

    @abstractmethod
    def function_text(self, name: str, statements: list[_S]) -> str:
        """A module function ``name(value, pointer, errors, depth)`` running ``statements``."""

    @abstractmethod
    def ref_function_text(self, name: str, target: str) -> str:
        """The function of a ``$ref`` target: past the nesting bound, it records
        ``REF_TOO_DEEP`` and returns; else it runs the target's checks."""

    @abstractmethod
    def boolean(self, value: bool) -> str: ...

    @abstractmethod
    def passes_call(self, function: str, subject: Var) -> str:
        """An expression: does ``subject`` pass the checks of ``function``?"""

    @abstractmethod
    def fail(self, fail: Fail) -> _S: ...

    @abstractmethod
    def ref_call(self, function: str, check: RefCall) -> _S: ...

    @abstractmethod
    def scalar_check(
        self, check: Size | NumberBound | MultipleOf | Pattern | Unique
    ) -> list[_S]: ...

    @abstractmethod
    def equality_check(self, check: Enum | Const) -> list[_S]: ...

    @abstractmethod
    def type_switch(self, check: TypeSwitch) -> list[_S]: ...

    @abstractmethod
    def array(self, check: ItemAt | EachItem | Contains) -> list[_S]: ...

    @abstractmethod
    def member(self, check: Required | DependentRequired | IfPresent | Member) -> list[_S]: ...

    @abstractmethod
    def each_member(self, check: EachMember) -> list[_S]: ...

    @abstractmethod
    def applicator(self, check: Count | Not | Conditional) -> list[_S]:
        """Count, Not and Conditional: the checks that need verdicts of subschemas."""

    # -- the walk ----------------------------------------------------------------------

    def function(self, checks: tuple[Check, ...]) -> str:
        """A module function running ``checks``; the functions it needs come after it."""
        name = f"_schema_{len(self.module.functions)}"
        self.module.functions.append("")  # reserve the slot: nested functions come after
        slot = len(self.module.functions) - 1
        self.module.functions[slot] = self.function_text(name, self.checks(checks))
        return name

    def ref_function(self, target: str) -> str:
        """The function checking the document's ``$ref`` target (made once)."""
        key = (self.document.file_name, target)
        if key in self.module.refs:
            return self.module.refs[key]
        name = f"_ref_{len(self.module.refs)}"
        self.module.refs[key] = name
        self.module.functions.append(self.ref_function_text(name, target))
        return name

    def passes(self, schema: Subschema, subject: Var) -> str:
        """An expression: does ``subject`` pass ``schema``?"""
        if schema.always is not None:
            return self.boolean(schema.always)
        return self.passes_call(self.function(schema.checks), subject)

    def checks(self, checks: Iterable[Check]) -> list[_S]:
        statements: list[_S] = []
        for check in checks:
            statements += self.check(check)
        return statements

    def check(self, check: Check) -> list[_S]:
        if isinstance(check, Fail):
            return [self.fail(check)]
        if isinstance(check, TypeSwitch):
            return self.type_switch(check)
        if isinstance(check, (Size, NumberBound, MultipleOf, Pattern, Unique)):
            return self.scalar_check(check)
        if isinstance(check, (ItemAt, EachItem, Contains)):
            return self.array(check)
        if isinstance(check, (Required, DependentRequired, IfPresent, Member)):
            return self.member(check)
        if isinstance(check, EachMember):
            return self.each_member(check)
        if isinstance(check, (Enum, Const)):
            return self.equality_check(check)
        if isinstance(check, RefCall):
            return [self.ref_call(self.ref_function(check.target), check)]
        return self.applicator(check)
