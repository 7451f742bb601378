"""The checked namespace: which identifiers the sources may give generated code.

Kind and property names become Python functions, enum members, parameters and
TypedDict names, and shell functions and variables. Each is checked here
against every name the generated module already holds (derived from the
templates and the generated code itself, never listed by hand where it can be
derived), Python keywords and builtins. Text that no target can carry (a lone
surrogate, a line break in the prefix) is refused here too. ``load`` can call
:func:`check_vocabulary`; every emitter calls it, so no target depends on that.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Iterator

from bernstein_signals_toolkit.generator import json_pointer
from bernstein_signals_toolkit.toolkit_errors import SourceError, one_line

from .model import JSONValue, SchemaDocument, Vocabulary

__all__ = [
    "IDENTIFIER_KIND",
    "PROPERTY_NAME",
    "PROPERTY_NAME_FIRST",
    "PROPERTY_NAME_REST",
    "check_kind_token",
    "check_python_names",
    "check_shell_names",
    "check_vocabulary",
    "python_reserved",
]

IDENTIFIER_KIND = re.compile(r"[A-Z][A-Z0-9_]*")
"""Kind names every binding can use as an identifier (and bernstein_emit checks)."""
PROPERTY_NAME = re.compile(r"[a-z][a-z0-9_]*")
"""A property name (a payload key), lower_snake_case: a Python identifier, a shell word and
a JSON key as is. load refuses any other; the CLI's emit and the shell's bernstein_emit
check keys with it (the shell through the two lists below, substituted into its template)."""
PROPERTY_NAME_FIRST = "".join(c for c in map(chr, range(128)) if PROPERTY_NAME.fullmatch(c))
"""The characters a property name may start with."""
PROPERTY_NAME_REST = "".join(c for c in map(chr, range(128)) if PROPERTY_NAME.fullmatch("a" + c))
"""The characters of a property name, in code point order (the shell sorts keys by it)."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def _strings(value: JSONValue, pointer: str) -> Iterator[tuple[str, str]]:
    """Every string in a JSON value, keys included, with its JSON pointer."""
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{pointer}/{index}")
    elif isinstance(value, dict):
        for key, item in value.items():
            below = json_pointer.child(pointer, key)
            yield below, key
            yield from _strings(item, below)


def _documents(vocabulary: Vocabulary) -> Iterator[SchemaDocument]:
    yield from vocabulary.kinds
    yield vocabulary.reply


def check_kind_token(vocabulary: Vocabulary, target: str, who: str) -> None:
    """A target whose ``who`` checks KIND with :data:`IDENTIFIER_KIND` needs the grammar to spell
    that very pattern, or the target and the grammar would disagree on what a kind is."""
    found = vocabulary.grammar.kind_pattern
    if found != IDENTIFIER_KIND.pattern:
        raise SourceError(
            vocabulary.grammar.file_name,
            target,
            f"{who} checks KIND as /{IDENTIFIER_KIND.pattern}/, but the grammar says"
            f" /{one_line(found)}/ (target {target})",
        )


def check_vocabulary(vocabulary: Vocabulary) -> None:
    """Refuse text no target can carry: lone surrogates anywhere, a prefix that is not one line."""
    texts = [
        ("vocabulary.json", "/name", vocabulary.name),
        ("vocabulary.json", "/description", vocabulary.description),
    ]
    for document in _documents(vocabulary):
        texts += [(document.file_name, p, s) for p, s in _strings(document.schema, "")]
    for file_name, pointer, text in texts:
        if _SURROGATE.search(text):
            raise SourceError(
                file_name, "text", f"at {pointer or '/'}: a lone surrogate is not Unicode text"
            )
    prefix = vocabulary.grammar.prefix
    if not prefix or one_line(prefix) != prefix or _SURROGATE.search(prefix):
        raise SourceError(
            vocabulary.grammar.file_name,
            "prefix",
            f"PREFIX {one_line(prefix)!r} must be non-empty text without control characters:"
            " a signal is one line",
        )
    for kind in vocabulary.kinds:
        if not IDENTIFIER_KIND.fullmatch(kind.name):
            raise SourceError(
                kind.file_name,
                "kind-name",
                f"kind {one_line(kind.name)!r} must match /{IDENTIFIER_KIND.pattern}/"
                " so every binding can name it",
            )
    names = [document.type_name for document in _documents(vocabulary)]
    for document in _documents(vocabulary):
        if names.count(document.type_name) > 1:
            raise SourceError(
                document.file_name,
                "kind-name",
                f"its payload type {document.type_name} is also another schema's",
            )


def python_reserved(module_names: frozenset[str]) -> frozenset[str]:
    """Names a generated module-level identifier must not take in the Python binding."""
    return frozenset(
        {*keyword.kwlist, *keyword.softkwlist, *dir(builtins), *module_names, "SignalPayload"}
    )


def check_python_names(
    vocabulary: Vocabulary, module_names: frozenset[str], body_names: frozenset[str]
) -> None:
    """Kinds' functions and types against ``module_names``; parameters against ``body_names``.

    ``module_names``: every name the binding's modules define, import or export
    (and the modules themselves). ``body_names``: every name a constructor body
    reads or binds besides its parameters.
    """
    reserved = python_reserved(module_names)
    for kind in vocabulary.kinds:
        for name, role in ((kind.snake, "constructor"), (kind.type_name, "payload type")):
            if name in reserved:
                raise SourceError(
                    kind.file_name,
                    "python-name",
                    f"kind {kind.name}: its {role} {name!r} would shadow a name of the"
                    " Python binding, a builtin or a keyword (target python)",
                )
        for prop in kind.properties:
            if prop.name in body_names:
                raise SourceError(
                    kind.file_name,
                    "python-name",
                    f"at /properties/{prop.name}: the parameter {prop.name!r} would shadow"
                    " a name the constructor uses (target python)",
                )


def check_shell_names(fixed: frozenset[str], generated: dict[str, list[str]]) -> None:
    """Names kinds generate (``generated``: file -> names) against the library's ``fixed`` ones."""
    seen: dict[str, str] = {}
    for file_name, names in generated.items():
        for name in names:
            if name in fixed or name in seen:
                raise SourceError(
                    file_name,
                    "shell-name",
                    f"the shell name {name} is already the library's"
                    f"{'' if name in fixed else ' (from ' + seen[name] + ')'} (target shell)",
                )
            seen[name] = file_name
