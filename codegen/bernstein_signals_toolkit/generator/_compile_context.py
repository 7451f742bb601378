"""Where the schema compiler stands while it walks a document, apart from what keywords mean.

A :class:`Site` is the value being checked (its variable, pointer, depth, and the
description and messages in force); :class:`CompileContext` holds the document
and the target, and makes what every keyword needs: a refusal naming the
target, a failure in the schema's own words, a pattern every target can run,
a subschema's verdict and each ``$ref`` target compiled once.
:mod:`.schema_compiler` subclasses it with the keywords.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bernstein_signals_toolkit.toolkit_errors import SourceError

from .ecma_regex import EcmaPatternError
from .keywords import MESSAGE_KEYWORD, refusals
from .pattern_cost import check_linear
from .schema_checks import Check, Fail, Pointer, Subschema, Var
from .schema_messages import MESSAGE_SHAPE, message, plain_messages
from .schema_refs import ref_target

__all__ = ["CompileContext", "Site"]


@dataclass(frozen=True)
class Site:
    """Where checks run: the value, its pointer, the depth its children's variables take,
    the description and messages in force."""

    var: Var
    pointer: Pointer
    depth: int
    description: str
    messages: dict[str, str]

    @classmethod
    def argument(cls, description: str = "") -> Site:
        """A schema checked on its own, as a function's argument ``value``."""
        return cls(Var("value", 0), Pointer(True), 0, description, {})

    def at(self, var: Var, pointer: Pointer) -> Site:
        """A value below this one: the description carries on, the messages do not."""
        return Site(var, pointer, self.depth + 1, self.description, {})


@dataclass
class CompileContext(ABC):
    """The schemas of one document compiled into checks, refusing for ``target``."""

    file_name: str
    root: dict[str, Any]
    target: str
    refs: dict[str, tuple[Check, ...]] = field(default_factory=dict)

    @abstractmethod
    def value(self, schema: object, site: Site, pointer: str) -> Iterator[Check]:
        """Checks of the value at ``site`` against ``schema`` (at ``pointer`` in the document)."""

    def refuse(self, pointer: str, keyword: str, why: str) -> SourceError:
        return SourceError(
            self.file_name,
            "keyword",
            f"at {pointer or '/'}: {keyword!r} cannot be compiled for the {self.target} target:"
            f" {why}",
        )

    def check_refusals(self, schema: object) -> None:
        for pointer, keyword, why in refusals(schema, self.target):
            raise self.refuse(pointer, keyword, why)

    def fail(self, site: Site, rule: str, detail: str) -> Fail:
        """The schema's message for ``rule`` (or for all its rules), else ``detail``."""
        text = message(site.messages, rule, detail, site.description)
        return Fail(site.pointer, rule, text, detail)

    def messages(self, schema: dict[str, Any], pointer: str) -> dict[str, str]:
        """The ``x-bernstein-message`` of ``schema``: "" -> message, or keyword -> message."""
        given = plain_messages(schema)
        if given is None:
            raise self.refuse(pointer, MESSAGE_KEYWORD, MESSAGE_SHAPE)
        return given

    def pattern(self, source: str, pointer: str) -> str:
        """``source`` when it is an ECMA-262 pattern every target can run, in time linear in
        the value, else a refusal."""
        try:
            check_linear(source)
        except EcmaPatternError as exc:
            raise self.refuse(pointer, "pattern", str(exc)) from None
        return source

    def subschema(self, schema: object, subject: Var, pointer: str) -> Subschema:
        """The verdict of ``schema`` on ``subject``, for an applicator."""
        if schema is True or schema == {}:
            return Subschema(True)
        if schema is False:
            return Subschema(False)
        return Subschema(None, tuple(self.value(schema, Site.argument(), pointer)))

    def ref(self, ref: str, pointer: str, description: str) -> str:
        """Compile the local target of ``$ref`` once (it may refer to itself)."""
        if ref in self.refs:
            return ref
        try:
            target = ref_target(self.root, ref)
        except LookupError as exc:
            raise self.refuse(pointer, "$ref", str(exc)) from None
        self.refs[ref] = ()  # taken before its body, which may refer back
        self.refs[ref] = tuple(self.value(target, Site.argument(description), ref[1:]))
        return ref
