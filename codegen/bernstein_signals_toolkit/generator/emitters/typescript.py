"""The TypeScript binding, ``bernstein-signals`` on npm: ESM JavaScript with ``.d.ts`` types.

No build step and no runtime dependency: the hand-written runtime in
``binding_runtime/typescript/`` (JavaScript and declarations) is copied with the
generated header; this module writes the vocabulary's parts (kinds, limits,
field names, payload interfaces, constructors), the index and package.json.
The limits come from the Python binding's own modules, their one home.
"""

from __future__ import annotations

import json
import re

from bernstein_signals_toolkit.toolkit_errors import SourceError

from ..model import Vocabulary
from ..names import IDENTIFIER_KIND, check_kind_token, check_vocabulary
from ..roles import ROLES, check_roles, role_field
from ._escape import js_comment_text, js_string
from ._header import copied_lines, header_lines
from ._templates import python_runtime_module, template_names, template_text
from ._typescript_fence import fence_rules_files
from ._typescript_types import (
    constructor_name,
    constructors_declarations,
    constructors_module,
    payloads,
)
from ._typescript_validators import validators_declarations, validators_module

__all__ = ["FOLDER", "NPM_PACKAGE", "emit"]

FOLDER = "typescript"
NPM_PACKAGE = "bernstein-signals"
_RESERVED = frozenset(
    [
        "await",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "implements",
        "import",
        "in",
        "instanceof",
        "interface",
        "let",
        "new",
        "null",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
        "arguments",
        "eval",
        "undefined",
        "NaN",
        "Infinity",
    ]
)
"""JavaScript's reserved words and the names strict mode forbids binding."""
_EXPORTED = re.compile(
    r"^export (?:declare )?(?:async )?(?:function\*? ?|class |const |interface |type )(\w+)",
    flags=re.MULTILINE,
)


def _header(vocabulary: Vocabulary, template: str | None = None) -> str:
    """The header of a generated file; of a copied runtime file, naming the file to edit."""
    lines = header_lines(vocabulary) if template is None else copied_lines(vocabulary, template)
    return "\n".join(f"// {js_comment_text(line)}" for line in lines)


def _limits(vocabulary: Vocabulary) -> dict[str, str]:
    limits, scanning = python_runtime_module("limits"), python_runtime_module("scanning")
    values = {
        "MAX_NESTING_DEPTH": (
            int(limits.MAX_NESTING_DEPTH),
            "Deepest nesting of objects and arrays in a payload; the payload itself counts as 1.",
        ),
        "MAX_INTEGER_DIGITS": (
            int(limits.MAX_INTEGER_DIGITS),
            "Most decimal digits of an integer (sign excluded), read or written.",
        ),
        "DEFAULT_MAX_LINE_BYTES": (
            int(scanning.DEFAULT_MAX_LINE_BYTES),
            "Lines longer than this (terminator excluded) are never signals for the readers.",
        ),
    }
    header = _header(vocabulary)
    script = [header, "/** The documented limits, the same values as the Python binding's. */", ""]
    types = [header, ""]
    for name, (value, doc) in values.items():
        script += [f"/** {doc} */", f"export const {name} = {value};"]
        types += [f"/** {doc} */", f"export declare const {name}: {value};"]
    return {"limits.js": "\n".join(script), "limits.d.ts": "\n".join(types)}


def _whitespace(vocabulary: Vocabulary) -> str:
    """The whitespace of Python's ``str.split``/``strip``, which lenient mode reads lines with."""
    codes = [code for code in range(0x110000) if chr(code).isspace()]
    if any(code > 0xFFFF for code in codes):
        raise AssertionError("str.isspace holds an astral character: the JS class needs the u flag")
    return "\n".join(
        [
            _header(vocabulary),
            "/** The code points Python's str.isspace accepts: lenient mode's whitespace. */",
            f"export const LENIENT_WHITESPACE_CODES = Object.freeze({json.dumps(codes)});",
        ]
    )


def _kind_token(vocabulary: Vocabulary) -> str:
    """The grammar's KIND token, for readers of unknown kinds; the one pattern every target
    checks KIND with (``names.IDENTIFIER_KIND``), which the grammar must spell."""
    check_kind_token(vocabulary, "typescript", "the readers")
    source = js_string(f"^(?:{IDENTIFIER_KIND.pattern})$")
    return "\n".join(
        [
            _header(vocabulary),
            "/** The grammar's KIND token, whole: what an unknown kind must look like. */",
            f"export const KIND_TOKEN = new RegExp({source});",
        ]
    )


def _kinds(vocabulary: Vocabulary) -> dict[str, str]:
    header = _header(vocabulary)
    names = [js_string(kind.name) for kind in vocabulary.kinds]
    members = [
        f"  /** {js_comment_text(kind.description)} */\n  {name}: {name},"
        for kind, name in zip(vocabulary.kinds, names, strict=True)
    ]
    terminals = ", ".join(js_string(kind.name) for kind in vocabulary.terminal_kinds)
    version = js_string(vocabulary.version)
    prefix = js_string(vocabulary.grammar.prefix)
    about = js_comment_text(
        f"The version of the {vocabulary.name} vocabulary this binding implements."
    )
    script = [
        header,
        f"/** {about} */",
        f"export const VOCABULARY_VERSION = {version};",
        "/** Every signal line starts with this, at column 0 (case-sensitive). */",
        f"export const SIGNAL_PREFIX = {prefix};",
        "/** The signal kinds; each value is the name on the wire. */",
        "export const SignalKind = Object.freeze({",
        *members,
        "});",
        "/** Every kind, sorted. */",
        f"export const SIGNAL_KINDS = Object.freeze([{', '.join(names)}]);",
        "/** Kinds that end an adapter run; every run should emit at least one. */",
        f"export const TERMINAL_SIGNAL_KINDS = Object.freeze([{terminals}]);",
    ]
    kind_type = " | ".join(names) or "never"
    types = [
        header,
        f"/** {about} */",
        f"export declare const VOCABULARY_VERSION: {version};",
        "/** Every signal line starts with this, at column 0 (case-sensitive). */",
        f"export declare const SIGNAL_PREFIX: {prefix};",
        "/** A signal kind: the name on the wire. */",
        f"export type SignalKind = {kind_type};",
        "export declare const SignalKind: {",
        *(
            f"  /** {js_comment_text(kind.description)} */\n  readonly {name}: {name};"
            for kind, name in zip(vocabulary.kinds, names, strict=True)
        ),
        "};",
        "export declare const SIGNAL_KINDS: readonly SignalKind[];",
        "export declare const TERMINAL_SIGNAL_KINDS: readonly SignalKind[];",
    ]
    return {"kinds.js": "\n".join(script), "kinds.d.ts": "\n".join(types)}


def _fields(vocabulary: Vocabulary) -> dict[str, str]:
    header = _header(vocabulary)
    script, types = [header], [header]
    for role in ROLES:
        field = role_field(vocabulary, role.document, role.name)
        about = f"{role.document} field with role {role.name}: {role.feature}."
        doc = f"/** {js_comment_text(about)} */"
        value = "null" if field is None else js_string(field)
        script += [doc, f"export const {role.constant} = {value};"]
        types += [doc, f"export declare const {role.constant}: {value};"]
    return {"fields.js": "\n".join(script), "fields.d.ts": "\n".join(types)}


def _templates(vocabulary: Vocabulary) -> dict[str, str]:
    files = {}
    for suffix in (".js", ".d.ts"):
        for name in template_names(FOLDER, suffix):
            files[name.rsplit("/", 1)[-1]] = f"{_header(vocabulary, name)}\n{template_text(name)}"
    return files


def _check_names(vocabulary: Vocabulary, fixed: frozenset[str]) -> None:
    """Constructors and payload types never take a reserved word or a name the runtime exports."""
    seen: dict[str, str] = {}
    for kind in vocabulary.kinds:
        for name, role in (
            (constructor_name(kind), "constructor"),
            (kind.type_name, "payload type"),
        ):
            if name in _RESERVED or name in fixed or name in seen:
                owner = "reserved or the runtime's" if name not in seen else f"{seen[name]}'s"
                raise SourceError(
                    kind.file_name,
                    "typescript-name",
                    f"the {role} name {name} is {owner} (target {FOLDER})",
                )
            seen[name] = kind.file_name


NODE_ENTRY = "node"
"""The module of the Node-only process steps (``bernstein-signals/node``): the index leaves
it out, so the package itself imports no Node module."""


def _index(files: dict[str, str], header: str) -> dict[str, str]:
    """Re-export every public module but the Node entry; ``_`` modules stay internal."""
    public = sorted(
        path
        for path in files
        if not path.startswith("_")
        and path != "package.json"
        and path.removesuffix(".d.ts").removesuffix(".js") != NODE_ENTRY
    )
    script = [f'export * from "./{path}";' for path in public if path.endswith(".js")]
    types = [
        f'export * from "./{path.removesuffix(".d.ts")}.js";'
        for path in public
        if path.endswith(".d.ts")
    ]
    return {
        "index.js": "\n".join([header, *script]),
        "index.d.ts": "\n".join([header, *types]),
    }


def _package(vocabulary: Vocabulary) -> str:
    package = {
        "//": " ".join(header_lines(vocabulary)),
        "name": NPM_PACKAGE,
        "version": vocabulary.version,
        "description": f"The TypeScript binding of the adapter stream-signal protocol"
        f" ({vocabulary.name} {vocabulary.version}): no dependencies, no build step.",
        "license": "MIT",
        "type": "module",
        "main": "./index.js",
        "types": "./index.d.ts",
        "exports": {
            ".": {"types": "./index.d.ts", "default": "./index.js"},
            f"./{NODE_ENTRY}": {"types": f"./{NODE_ENTRY}.d.ts", "default": f"./{NODE_ENTRY}.js"},
            "./package.json": "./package.json",
        },
        "sideEffects": False,
        "engines": {"node": ">=18"},
    }
    return json.dumps(package, indent=2, ensure_ascii=True)


def emit(vocabulary: Vocabulary) -> dict[str, str]:
    check_vocabulary(vocabulary)
    check_roles(vocabulary)
    header = _header(vocabulary)
    files = _templates(vocabulary)
    generated = {
        **_kinds(vocabulary),
        **_limits(vocabulary),
        **_fields(vocabulary),
        "_whitespace.js": _whitespace(vocabulary),
        "_kind_token.js": _kind_token(vocabulary),
        "validators.js": validators_module(vocabulary, header),
        "validators.d.ts": validators_declarations(header),
        **fence_rules_files(header),
    }
    # Every name the package exports without a kind's: a constructor or payload type must
    # take none of them (``export *`` would make a clash silently ambiguous).
    fixed = {
        name for text in (*files.values(), *generated.values()) for name in _EXPORTED.findall(text)
    }
    _check_names(vocabulary, frozenset(fixed | {"SignalPayloadMap", "SignalPayload"}))
    generated |= {
        "payloads.d.ts": payloads(vocabulary, header),
        "constructors.js": constructors_module(vocabulary, header),
        "constructors.d.ts": constructors_declarations(vocabulary, header),
    }
    for path in generated:
        if path in files:
            raise SourceError(
                f"templates/{FOLDER}/{path}", FOLDER, "would replace a generated file"
            )
    files.update(generated)
    files.update(_index(files, header))
    files["package.json"] = _package(vocabulary)
    return {f"{FOLDER}/{path}": text for path, text in sorted(files.items())}
