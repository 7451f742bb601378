"""The Python binding, ``bernstein_signals``: standard library only at run time.

Payload TypedDicts come from datamodel-code-generator with pinned options; the
kinds module is written here, the validators and constructors by their own
emitter modules, and the hand-written runtime modules are copied from
``binding_runtime/python/`` under a header that names the template to edit.
Formatting is left to the one pinned formatter that :mod:`..generate` runs
over every Python file.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bernstein_signals_toolkit.toolkit_errors import SourceError, ToolkitError, one_line

from ..model import Vocabulary
from ..names import check_python_names, check_vocabulary
from ..roles import ROLES, check_roles, role_field, role_fields
from ._escape import python_docstring
from ._header import copied_python_header, python_header
from ._python_constructors import body_names, constructors_module
from ._python_validators import validators_module
from ._templates import python_runtime_module, template_names, template_text

__all__ = [
    "BINDING_DISTRIBUTION",
    "BUILD_BACKEND",
    "PACKAGE",
    "PYPROJECT",
    "STANDALONE_MODULES",
    "emit",
]

PACKAGE = "python/bernstein_signals"
PYPROJECT = "python/pyproject.toml"
"""The binding's own distribution: ``pip install generated/python`` installs the binding alone."""
BINDING_DISTRIBUTION = "bernstein-signals-binding"
BUILD_BACKEND = ("hatchling==1.33.0", "hatchling.build")
"""The toolkit's own backend (its pyproject's [build-system]; a test keeps the two equal)."""

# Pinned options: changing any of them changes every payload module.
DATAMODEL_CODEGEN_OPTIONS = (
    "--input-file-type=jsonschema",
    "--output-model-type=typing.TypedDict",
    "--target-python-version=3.11",
    "--disable-timestamp",
    "--use-standard-collections",
    "--use-union-operator",
    "--use-schema-description",
    "--use-field-description",
    "--use-title-as-name",
    "--no-use-closed-typed-dict",
    "--no-formatters",
)


def _docstring(text: str, indent: str = "") -> str:
    return f'{indent}"""{python_docstring(text)}"""\n'


def _payload_schema(vocabulary: Vocabulary) -> dict[str, object]:
    """All payload schemas as one document, so one run names and orders every type."""
    defs: dict[str, object] = {}
    for document in (*vocabulary.kinds, vocabulary.reply):
        schema = document.schema
        for key in ("$schema", "$id", "examples"):
            schema.pop(key, None)
        schema["title"] = document.type_name
        defs[document.type_name] = schema
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "SignalPayload",
        "description": "The payload of any signal kind.",
        "anyOf": [{"$ref": f"#/$defs/{kind.type_name}"} for kind in vocabulary.kinds],
        "$defs": defs,
    }


def _payloads_module(vocabulary: Vocabulary) -> str:
    header = (
        python_header(vocabulary) + '"""Payload types, one TypedDict per kind and the reply."""'
    )
    with tempfile.TemporaryDirectory(prefix="bernstein-signals-") as scratch:
        source = Path(scratch) / "payloads.schema.json"
        # Author order of properties is kept: it is the order the types list fields in.
        source.write_text(json.dumps(_payload_schema(vocabulary), indent=2))
        command = [
            sys.executable,
            "-m",
            "datamodel_code_generator",
            f"--input={source}",
            f"--output={Path(scratch) / 'payloads.py'}",
            f"--custom-file-header={header}",
            *DATAMODEL_CODEGEN_OPTIONS,
        ]
        environment = {**os.environ, "PYTHONHASHSEED": "0"}
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=environment,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["no message"])[-1]
            raise ToolkitError(f"datamodel-code-generator failed: {last}")
        return (Path(scratch) / "payloads.py").read_text(encoding="utf-8")


def _kinds_module(vocabulary: Vocabulary) -> str:
    lines = [
        python_header(vocabulary),
        '"""The signal kinds, the wire prefix and the vocabulary version."""\n\n',
        "from enum import StrEnum\n",
        "from typing import Final\n\n",
        "__all__ = [",
        '"SIGNAL_PREFIX", "TERMINAL_SIGNAL_KINDS", "VOCABULARY_VERSION", "SignalKind"]\n\n',
        f"VOCABULARY_VERSION: Final = {vocabulary.version!r}\n",
        _docstring(f"The version of the {vocabulary.name} vocabulary this binding implements."),
        f"SIGNAL_PREFIX: Final = {vocabulary.grammar.prefix!r}\n",
        _docstring("Every signal line starts with this, at column 0 (case-sensitive)."),
        "\n\nclass SignalKind(StrEnum):\n",
        _docstring("A canonical signal kind; the value is the name on the wire.", "    "),
        "\n",
    ]
    for kind in vocabulary.kinds:
        lines.append(f"    {kind.name} = {kind.name!r}\n")
        lines.append(_docstring(kind.description, "    "))
    terminals = ", ".join(f"SignalKind.{kind.name}" for kind in vocabulary.terminal_kinds)
    lines += [
        "\n\nTERMINAL_SIGNAL_KINDS: Final[frozenset[SignalKind]] = frozenset({"
        + terminals
        + "})\n",
        _docstring("Kinds that end an adapter run; every run should emit at least one."),
    ]
    return "".join(lines)


def _fields_module(vocabulary: Vocabulary) -> str:
    """One constant per role (:mod:`..roles`): the runtime reads field names only through them.

    An optional role the vocabulary leaves out is None, so callers can tell.
    """
    constants = sorted({role.constant for role in ROLES} | {"ROLE_FIELDS"})
    lines = [
        python_header(vocabulary),
        '"""The names of the fields the runtime reads by role (``x-bernstein-role``)."""\n\n',
        "from typing import Final\n\n",
        "__all__ = [" + ", ".join(repr(name) for name in constants) + "]\n\n",
    ]
    for role in ROLES:
        field = role_field(vocabulary, role.document, role.name)
        if field is None:
            lines.append(f"{role.constant}: Final[str | None] = None\n")
        else:
            lines.append(f"{role.constant}: Final = {field!r}\n")
        lines.append(_docstring(f"{role.document}'s field with role {role.name}: {role.feature}."))
    table = ", ".join(f"{key!r}: {field!r}" for key, field in role_fields(vocabulary).items())
    lines.append(f"ROLE_FIELDS: Final[dict[tuple[str, str], str]] = {{{table}}}\n")
    lines.append(
        _docstring(
            "(document, role) -> field, for every field the vocabulary marks: the tools read"
            " roles here instead of loading the sources."
        )
    )
    return "".join(lines)


def _isort_key(name: str) -> tuple[int, str]:
    """isort's order for ``__all__``: CONSTANTS, then Classes, then functions."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def _exported(text: str) -> list[str]:
    """The names a module lists in ``__all__`` (a literal list of strings)."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            names = ast.literal_eval(node.value)
            if isinstance(names, list) and all(isinstance(name, str) for name in names):
                return names
    raise ToolkitError("a generated or template module has no literal __all__ list of strings")


STANDALONE_MODULES = frozenset({"compat"})
"""Public modules the package does not re-export: imported by their own name, their
names mirror the binding's (``compat`` is a drop-in for Bernstein's own module)."""


def _init_module(vocabulary: Vocabulary, modules: dict[str, str]) -> str:
    """Re-export every public module's ``__all__``; private modules (``_x``) stay internal,
    and :data:`STANDALONE_MODULES` are imported by name.

    Lazily (PEP 562): a name's module is imported when the name is first used, so
    an adapter that writes two signals never loads the readers, the native mappers
    or the fence. Type checkers read the same names from the ``TYPE_CHECKING``
    imports; the table of homes is written here, once, not built at import.

    ``payloads`` comes from datamodel-code-generator, which writes no ``__all__``.
    """
    payloads = ["SignalPayload", vocabulary.reply.type_name]
    payloads += [kind.type_name for kind in vocabulary.kinds]
    names = {
        module: sorted(payloads if module == "payloads" else _exported(text), key=_isort_key)
        for module, text in sorted(modules.items())
        if not module.startswith("_") and module not in STANDALONE_MODULES
    }
    exported = sorted((name for group in names.values() for name in group), key=_isort_key)
    homes = {name: module for module, group in names.items() for name in group}
    lines = [
        python_header(vocabulary),
        _docstring(
            f"Python binding of the {vocabulary.name} vocabulary {vocabulary.version}."
            " Standard library only, so that adapter wrappers can import it anywhere."
        ),
        "\nimport os as _os\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n",
    ]
    for module, members in names.items():
        lines.append(f"    from .{module} import {', '.join(members)}\n")
    lines.append("\n__all__ = [" + ", ".join(repr(name) for name in exported) + "]\n")
    lines.append(
        "\n_HOMES = {"
        + ", ".join(f"{name!r}: {homes[name]!r}" for name in exported)
        + "}\n"
        + _docstring("Each exported name -> the module it is imported from on first use.")
    )
    lines.append(_LAZY_NAMES)
    if "take_process_key" in names.get("fence", ()):
        lines.append(_fence_start())
    return "".join(lines)


_LAZY_NAMES = '''

def __getattr__(name: str) -> object:
    """An exported name, imported from its module on first use (then a plain global)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = __import__(f"{__name__}.{home}", fromlist=[name])
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
'''


def _fence_start() -> str:
    """The fence's start-up step, at import, before adapter code can start a child: only a
    process handed a key (either variable set) loads the fence (see fence.py)."""
    rules = python_runtime_module("fence_rules")
    return (
        "\n\n# The fence key, taken at import when one is handed over (see fence.py).\n"
        f"if {rules.KEY_VARIABLE!r} in _os.environ or {rules.KEY_FD_VARIABLE!r} in _os.environ:\n"
        "    from .fence import take_process_key as _take_process_key\n\n"
        "    _take_process_key()\n"
    )


def _template_modules(vocabulary: Vocabulary) -> dict[str, str]:
    """The hand-written runtime modules, each under a header naming its template."""
    modules = {}
    for name in template_names("python", ".py"):
        module = name.rsplit("/", 1)[-1].removesuffix(".py")
        modules[module] = copied_python_header(vocabulary, name) + template_text(name)
    return modules


def _top_level(text: str, *, imports_only: bool = False) -> list[str]:
    """The names a module binds at its top level (or imports), in order, repeats included."""
    names: list[str] = []
    for node in ast.parse(text).body:
        if imports_only and not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names += [(alias.asname or alias.name).split(".")[0] for alias in node.names]
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    return names


def _fixed_names(vocabulary: Vocabulary, modules: dict[str, str]) -> frozenset[str]:
    """What the binding names without any kind: modules, runtime and kinds-module names, imports.

    The constructors and payload types are the kinds' own names; everything
    else at the top level of any module is fixed, and a kind must not take it.
    """
    own = {kind.snake for kind in vocabulary.kinds} | {kind.type_name for kind in vocabulary.kinds}
    names = set(modules) | {"constructors", "payloads"}
    for module, text in modules.items():
        if module != "payloads":
            names |= set(_top_level(text)) - own | set(_top_level(text, imports_only=True))
    return frozenset(names)


def _parses(vocabulary: Vocabulary, modules: dict[str, str], generated: frozenset[str]) -> None:
    """Every module parses, and the ``generated`` ones bind each top-level name once.

    Else a one-line error and exit status 2.

    A source string that broke out of its escaping, or two kinds that map to
    one name, end here instead of as a traceback or a module that shadows itself.
    """
    for module, text in modules.items():
        try:
            names = _top_level(text)
        except (SyntaxError, ValueError) as exc:
            detail = getattr(exc, "msg", str(exc))
            raise ToolkitError(
                f"generated {PACKAGE}/{module}.py does not parse ({one_line(detail)}):"
                " an emitter let source text through unescaped"
            ) from None
        repeated = {name for name in names if names.count(name) > 1 and name != "__all__"}
        if repeated and module in generated:
            redefined = sorted(repeated)
            culprits = [
                kind.file_name
                for kind in vocabulary.kinds
                if {kind.snake, kind.type_name, kind.name} & repeated
            ]
            raise SourceError(
                ", ".join(culprits) or vocabulary.source_names[0],
                "python-name",
                f"the names {redefined} would be bound twice in {PACKAGE}/{module}.py:"
                " a schema's name meets another one (target python)",
            )


def _distribution_version(version: str) -> str:
    """The vocabulary's semver as a PEP 440 version: the core, ``.dev0`` for a pre-release.

    Build metadata is dropped; a pre-release sorts before its release in both schemes.
    """
    core = version.split("+", 1)[0]
    release, _, pre = core.partition("-")
    return release + (".dev0" if pre else "")


def _pyproject(vocabulary: Vocabulary) -> str:
    """A pyproject.toml beside the package: the binding alone, standard library only."""
    version = _distribution_version(vocabulary.version)
    return python_header(vocabulary) + "\n".join(
        [
            "[build-system]",
            f"requires = [{json.dumps(BUILD_BACKEND[0])}]",
            f"build-backend = {json.dumps(BUILD_BACKEND[1])}",
            "",
            "[project]",
            f"name = {json.dumps(BINDING_DISTRIBUTION)}",
            f'version = "{version}"',
            'description = "The Python binding of the adapter stream-signal protocol'
            f' (vocabulary {version}), standard library only."',
            'requires-python = ">=3.11"',
            'license = "MIT"',
            "dependencies = []",
            "",
            "[tool.hatch.build.targets.wheel]",
            'packages = ["bernstein_signals"]',
            "",
        ]
    )


def emit(vocabulary: Vocabulary) -> dict[str, str]:
    check_vocabulary(vocabulary)
    check_roles(vocabulary)
    modules = {
        "kinds": _kinds_module(vocabulary),
        "fields": _fields_module(vocabulary),
        "payloads": _payloads_module(vocabulary),
        "validators": validators_module(vocabulary),
        "constructors": constructors_module(vocabulary),
    }
    generated = frozenset({*modules, "__init__"})
    for module, text in _template_modules(vocabulary).items():
        if module in modules:
            raise ToolkitError(f"template {module}.py would replace a generated module")
        modules[module] = text
    if vocabulary.kinds:
        body = body_names(vocabulary.kinds[0])
        # Keywords and builtins first: a kind named IF leaves nothing to parse.
        check_python_names(vocabulary, frozenset(), body)
        check_python_names(vocabulary, _fixed_names(vocabulary, modules), body)
    files = {f"{PACKAGE}/{module}.py": text for module, text in modules.items()}
    files[f"{PACKAGE}/__init__.py"] = _init_module(vocabulary, modules)
    _parses(vocabulary, {**modules, "__init__": files[f"{PACKAGE}/__init__.py"]}, generated)
    files[f"{PACKAGE}/py.typed"] = python_header(vocabulary)
    files[PYPROJECT] = _pyproject(vocabulary)
    return files
