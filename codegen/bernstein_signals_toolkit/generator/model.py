"""The frozen intermediate model every emitter reads: the vocabulary, loaded and checked.

Emitters never open the sources themselves; they see only this model, so the
stages stay separate: load (:mod:`.load`), then this IR, then emit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TypeAlias

__all__ = [
    "Grammar",
    "JSONValue",
    "Kind",
    "Property",
    "ReplySchema",
    "SchemaDocument",
    "Vocabulary",
]

JSONValue: TypeAlias = "bool | int | float | str | list[JSONValue] | dict[str, JSONValue] | None"
"""A value as :func:`json.loads` returns it."""


@dataclass(frozen=True, kw_only=True)
class Property:
    """One property of a payload schema."""

    name: str
    description: str
    required: bool
    types: tuple[str, ...]
    """The JSON types the schema admits, sorted (``("null", "string")``)."""
    schema_json: str = field(repr=False)
    role: str | None = None
    """Its ``x-bernstein-role``: which runtime feature reads it (:mod:`.roles`), if any."""

    @property
    def schema(self) -> dict[str, JSONValue]:
        """A fresh copy of the property's subschema."""
        value: dict[str, JSONValue] = json.loads(self.schema_json)
        return value

    @property
    def nullable(self) -> bool:
        return "null" in self.types

    @property
    def is_array(self) -> bool:
        return "array" in self.types


@dataclass(frozen=True, kw_only=True)
class SchemaDocument:
    file_name: str
    """The schema's file name inside the schema folder."""
    type_name: str
    """The payload type's name in bindings (``PlanDraftPayload``, ``Reply``)."""
    schema_id: str
    title: str
    description: str
    properties: tuple[Property, ...]
    required: tuple[str, ...]
    """Required properties in the order of the schema's ``required`` list."""
    additional_properties: bool
    examples_json: str = field(repr=False)
    schema_json: str = field(repr=False)

    @property
    def schema(self) -> dict[str, JSONValue]:
        """A fresh copy of the whole schema document."""
        value: dict[str, JSONValue] = json.loads(self.schema_json)
        return value

    @property
    def examples(self) -> list[dict[str, JSONValue]]:
        value: list[dict[str, JSONValue]] = json.loads(self.examples_json)
        return value

    @property
    def roles(self) -> dict[str, str]:
        """Role -> field name, for the fields that carry an ``x-bernstein-role``."""
        return {prop.role: prop.name for prop in self.properties if prop.role is not None}

    def property(self, name: str) -> Property:
        for prop in self.properties:
            if prop.name == name:
                return prop
        raise KeyError(name)


@dataclass(frozen=True, kw_only=True)
class Kind(SchemaDocument):
    """A signal kind and the schema of its payload."""

    name: str
    """The wire name, ALL-CAPS (``PLAN_DRAFT``)."""
    terminal: bool

    @property
    def snake(self) -> str:
        """The name in snake case (``plan_draft``), for functions and files."""
        return self.name.lower()


@dataclass(frozen=True, kw_only=True)
class ReplySchema(SchemaDocument):
    """The question reply an orchestrator writes to an adapter's stdin."""


@dataclass(frozen=True, kw_only=True)
class Grammar:
    """The wire grammar, with the facts bindings need from it."""

    file_name: str
    text: str = field(repr=False)
    prefix: str
    """The literal signal prefix (``BERNSTEIN:``), read from the PREFIX terminal."""
    kind_pattern: str
    """The regular expression of the KIND terminal."""


@dataclass(frozen=True, kw_only=True)
class Vocabulary:
    """Everything the generator knows about one version of the protocol."""

    name: str
    version: str
    description: str
    kinds: tuple[Kind, ...]
    """Sorted by name: kinds have no meaningful order, and output must be stable."""
    reply: ReplySchema
    grammar: Grammar
    source_names: tuple[str, ...]
    """The sources as generated headers name them (folder-relative, sorted)."""

    @property
    def terminal_kinds(self) -> tuple[Kind, ...]:
        return tuple(kind for kind in self.kinds if kind.terminal)

    def kind(self, name: str) -> Kind:
        for kind in self.kinds:
            if kind.name == name:
                return kind
        raise KeyError(name)
