"""Field roles: the one table of the fields the hand-written runtime reads by meaning.

A schema marks such a field with ``"x-bernstein-role": "<role>"``. The loader
checks the marks (a known role, on its kind, once, of a type the runtime can
use); the emitters refuse a vocabulary missing a role the runtime needs and
write each role's field name as a constant (``bernstein_signals.fields``, the
shell library's ``_bsig_f_*`` variables), which the runtime reads instead of
literals. Renaming a role-bearing field therefore regenerates a working
runtime, and dropping one is refused naming the feature that would break.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from bernstein_signals_toolkit.toolkit_errors import SourceError

if TYPE_CHECKING:  # annotations only: wrap and conform read VERSION_ROLE without the model
    from .model import Property, SchemaDocument, Vocabulary

__all__ = [
    "REPLY_DOCUMENT",
    "ROLES",
    "ROLE_KEYWORD",
    "VERSION_ROLE",
    "Role",
    "check_document_roles",
    "check_roles",
    "role_field",
    "role_fields",
    "roles_of",
]

ROLE_KEYWORD: Final = "x-bernstein-role"
"""On a property: the field's role. (On the reply schema's root it marks the reply schema.)"""
VERSION_ROLE: Final = "vocabulary-version"
"""The role of the field producers stamp with the vocabulary's version."""
REPLY_DOCUMENT: Final = "reply"
"""The name :attr:`Role.document` gives the reply schema (kinds are named by their kind)."""


@dataclass(frozen=True, kw_only=True)
class Role:
    """One field the runtime depends on."""

    name: str
    """The value of ``x-bernstein-role`` (``question-text``)."""
    document: str
    """The kind that carries it (``QUESTION``), or :data:`REPLY_DOCUMENT`."""
    constant: str
    """The generated constant holding the field's name (``QUESTION_TEXT``)."""
    types: frozenset[str]
    """JSON types the field must admit for the runtime's values."""
    feature: str
    """What breaks without it, as error messages name it."""
    required: bool
    """Whether a vocabulary must carry the role (and so the document)."""
    any_kind: bool = False
    """Whether any kind may carry it too (a fork's own terminal kind copied from COMPLETED)."""


ROLES: Final[tuple[Role, ...]] = (
    Role(
        name="question-text",
        document="QUESTION",
        constant="QUESTION_TEXT",
        types=frozenset({"string"}),
        feature="ask(), bernstein_ask and QuestionTracker need one",
        required=True,
    ),
    Role(
        name="question-options",
        document="QUESTION",
        constant="QUESTION_OPTIONS",
        types=frozenset({"array"}),
        feature="ask(options=...), bernstein_ask and QuestionTracker's option check need one",
        required=True,
    ),
    Role(
        name="question-id",
        document="QUESTION",
        constant="QUESTION_ID",
        types=frozenset({"string"}),
        feature="ask(id=...), bernstein_ask --id and QuestionTracker's routing need one",
        required=True,
    ),
    Role(
        name="plan-path",
        document="PLAN_READY",
        constant="PLAN_READY_PATH",
        types=frozenset({"string"}),
        feature="read_plan() and the plan handoff need one",
        required=True,
    ),
    Role(
        name="plan-markdown",
        document="PLAN_DRAFT",
        constant="PLAN_DRAFT_MARKDOWN",
        types=frozenset({"string"}),
        feature="a draft carries its plan inline; the plan handoff needs one",
        required=True,
    ),
    Role(
        name="plan-draft-path",
        document="PLAN_DRAFT",
        constant="PLAN_DRAFT_PATH",
        types=frozenset({"string"}),
        feature="validate's check that each PLAN_READY path was announced by a PLAN_DRAFT reads it",
        required=False,
    ),
    Role(
        name="failure-reason",
        document="FAILED",
        constant="FAILED_REASON",
        types=frozenset({"string"}),
        feature="wrap's and bernstein_guard's FAILED line and the native mappers need one",
        required=True,
    ),
    Role(
        name=VERSION_ROLE,
        document="COMPLETED",
        constant="COMPLETED_VOCABULARY",
        types=frozenset({"string"}),
        feature="completed(), bernstein_completed and wrap stamp the vocabulary version in it",
        required=False,
        any_kind=True,
    ),
    Role(
        name=VERSION_ROLE,
        document="FAILED",
        constant="FAILED_VOCABULARY",
        types=frozenset({"string"}),
        feature="failed(), bernstein_failed, bernstein_guard and wrap stamp the version in it",
        required=False,
        any_kind=True,
    ),
    Role(
        name="reply-to",
        document=REPLY_DOCUMENT,
        constant="REPLY_IN_REPLY_TO",
        types=frozenset({"string", "null"}),
        feature="format_reply(), ask() and bernstein_ask match replies to questions by it",
        required=True,
    ),
    Role(
        name="reply-answer",
        document=REPLY_DOCUMENT,
        constant="REPLY_ANSWER",
        types=frozenset({"string"}),
        feature="format_reply(), ask() and bernstein_ask read the answer from it",
        required=True,
    ),
)


def role_fields(vocabulary: Vocabulary) -> dict[tuple[str, str], str]:
    """Every marked field: (document, role) -> the field's name, in a stable order."""
    return {
        (_document_name(candidate), role): field
        for candidate in (*vocabulary.kinds, vocabulary.reply)
        for role, field in sorted(candidate.roles.items())
    }


def _document_name(document: SchemaDocument) -> str:
    name = getattr(document, "name", None)
    return name if isinstance(name, str) else REPLY_DOCUMENT


def roles_of(document: str) -> dict[str, Role]:
    """The roles ``document`` (a kind name or :data:`REPLY_DOCUMENT`) may carry, by name."""
    anywhere = document != REPLY_DOCUMENT
    return {
        role.name: role
        for role in ROLES
        if role.document == document or (anywhere and role.any_kind)
    }


def check_document_roles(path: Path | str, document: str, properties: tuple[Property, ...]) -> None:
    """Refuse a role ``document`` cannot carry, one on two fields, or on a wrongly typed one."""
    allowed = roles_of(document)
    seen: dict[str, str] = {}
    for prop in properties:
        if prop.role is None:
            continue
        role = allowed.get(prop.role)
        if role is None:
            known = ", ".join(sorted(allowed)) or "none"
            raise SourceError(
                path,
                "role",
                f"at /properties/{prop.name}: {document} has no role {prop.role!r}"
                f" (its roles: {known})",
            )
        if prop.role in seen:
            raise SourceError(
                path,
                "role",
                f"at /properties/{prop.name}: role {prop.role} is already the field"
                f" {seen[prop.role]!r}'s: the runtime reads one field per role",
            )
        seen[prop.role] = prop.name
        if not role.types <= set(prop.types):
            raise SourceError(
                path,
                "role",
                f"at /properties/{prop.name}: role {prop.role} needs a field that admits"
                f" {' and '.join(sorted(role.types))}: {role.feature}",
            )


def check_roles(vocabulary: Vocabulary) -> None:
    """Refuse a vocabulary that drops a role the runtime needs, naming the feature that breaks.

    The generated runtime reads every required role's field, so a vocabulary
    without the kind that carries one (no QUESTION at all) is refused too.
    """
    documents: dict[str, SchemaDocument] = {kind.name: kind for kind in vocabulary.kinds}
    documents[REPLY_DOCUMENT] = vocabulary.reply
    for role in ROLES:
        document = documents.get(role.document)
        if not role.required or (document is not None and role.name in document.roles):
            continue
        where = document.file_name if document is not None else vocabulary.source_names[0]
        what = (
            f"{role.document} has no field"
            if document is not None
            else (f"there is no {role.document} kind, so no field")
        )
        raise SourceError(where, "role", f"{what} with role {role.name}: {role.feature}")


def role_field(vocabulary: Vocabulary, document: str, role: str) -> str | None:
    """The field with ``role`` in ``document``; None when either is missing."""
    for candidate in (*vocabulary.kinds, vocabulary.reply):
        if _document_name(candidate) == document:
            return candidate.roles.get(role)
    return None
