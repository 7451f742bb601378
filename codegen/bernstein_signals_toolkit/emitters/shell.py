"""The shell library, ``shell/bernstein-signals.sh``: fixed helpers plus one function per kind.

The fixed part is the template ``templates/shell/bernstein-signals.sh``. Each kind's
function is generated here from its schema: required fields are positional in
``required`` order, the others are ``--<property> VALUE`` options (an array repeats
its option), and every schema keyword that constrains a value becomes a check
in shell. A keyword this emitter cannot enforce in shell is a SourceError, so a
new schema can never silently lose a check.
"""

from __future__ import annotations

import importlib.util
import math
import re
import sys
import textwrap
from dataclasses import dataclass
from types import ModuleType

from ..errors import SourceError
from ..keywords import MESSAGE_KEYWORD, Support, support
from ..model import JSONValue, Kind, Property, Vocabulary
from ..names import IDENTIFIER_KIND, check_shell_names, check_vocabulary
from ._escape import comment_text, shell_double_quoted, shell_single_quoted
from ._header import python_header
from ._templates import TEMPLATES, template_text

__all__ = ["LIBRARY", "SDD_PATH_PATTERN", "SHELLS", "emit", "help_texts"]

LIBRARY = "shell/bernstein-signals.sh"
SHELLS: dict[str, tuple[str, ...]] = {
    "bash": ("bash",),
    "dash": ("dash",),
    "busybox": ("busybox", "sh"),
    "zsh": ("zsh",),
    "mksh": ("mksh",),
    "ksh93": ("ksh93",),
}
"""The shells the library supports (tests and benchmarks run each): name -> command."""
TEMPLATE = "shell/bernstein-signals.sh"

SDD_PATH_PATTERN = "^\\.sdd(?:/(?!\\.\\.?(?:/|$))[^/\\\\\\u0000-\\u001f]+)+$"
"""The plan-path rule of the schemas; the shell enforces it with ``_bsig_is_sdd_path``."""

_KNOWN_PATTERNS = {SDD_PATH_PATTERN: "_bsig_is_sdd_path {v}"}
"""Patterns the shell enforces with its own test; the message is the schema's
``x-bernstein-message``, as in every binding."""


_FIXED = {"emit": True, "run": False, "ask": True, "guard": False}
"""The template's public functions (its ``_bsig_do_*``), and whether each runs in
the helpers' own locale and zsh options. bernstein_run runs the caller's
command as the caller would; bernstein_guard sets traps that must outlive it."""
_QUIET_ENTRY = (
    "  # shellcheck disable=SC3043,SC2034 # bash and zsh keep the caller's locale outside\n"
    "  { case $_bsig_sh in bash) builtin local LC_ALL=C ;;"
    " zsh) emulate -LR zsh; local LC_ALL=C ;; esac; _bsig_enter; } 2>/dev/null"
)
_PLAIN_ENTRY = "  { _bsig_enter; } 2>/dev/null"
"""Entry lines: the trace of entering goes to /dev/null, then nothing is traced."""

_SCALARS = {"string", "integer", "boolean"}
_RESERVED_OPTIONS = frozenset({"help"})


@dataclass(frozen=True)
class _Check:
    test: str
    """A shell command with ``{v}`` for the quoted value; status 0 when the value is fine."""
    message: str


@dataclass(frozen=True)
class _Field:
    prop: Property
    scalar: str
    """The JSON type of the value (of each item, for an array): string, integer or boolean."""
    checks: tuple[_Check, ...]
    """Checks on the value (on each item, for an array)."""
    array_checks: tuple[_Check, ...]
    """Checks on the whole array, with ``{n}`` for the item count; empty for scalars."""
    unique: bool = False
    """An array whose items must differ (uniqueItems)."""

    @property
    def var(self) -> str:
        return f"_bsig_v_{self.prop.name}"

    @property
    def is_set(self) -> str:
        return f"_bsig_s_{self.prop.name}"


def _refuse(kind: Kind, prop: str, message: str) -> SourceError:
    return SourceError(kind.file_name, "shell", f"property {prop!r}: {message}")


def _message(schema: dict[str, JSONValue], keyword: str, default: str) -> str:
    """The schema's plain message for ``keyword`` (``x-bernstein-message``), else ``default``."""
    given = schema.get(MESSAGE_KEYWORD)
    if isinstance(given, dict):
        given = given.get(keyword)
    return given if isinstance(given, str) and given.strip() else default


def _scalar_checks(kind: Kind, name: str, schema: dict[str, JSONValue]) -> list[_Check]:
    checks = []
    for key, value in schema.items():
        if key == "type" or support(key, "shell") is Support.ANNOTATION:
            continue
        if key == "minLength" and value in (0, 1):
            if value == 1:
                checks.append(_Check("[ -n {v} ]", _message(schema, key, "must not be empty")))
        elif key == "pattern" and value in _KNOWN_PATTERNS:
            message = _message(schema, key, f"must match the pattern {value}")
            checks.append(_Check(_KNOWN_PATTERNS[value], message))
        else:
            raise _refuse(
                kind,
                name,
                f"the shell emitter cannot enforce {key!r}={value!r}"
                " (it knows minLength 0 or 1 and the .sdd/ path pattern)",
            )
    return checks


def _scalar_type(kind: Kind, name: str, types: list[str]) -> str:
    concrete = [t for t in types if t != "null"]
    if len(concrete) != 1 or concrete[0] not in _SCALARS:
        raise _refuse(
            kind, name, f"type {types} cannot be a shell argument (string, integer or boolean)"
        )
    return concrete[0]


def _type_checks(scalar: str) -> list[_Check]:
    if scalar == "integer":
        return [_Check("_bsig_is_int {v}", "must be an integer")]
    if scalar == "boolean":
        return [_Check("_bsig_is_bool {v}", "must be true or false")]
    return []


def _field(kind: Kind, prop: Property) -> _Field:
    if prop.name in _RESERVED_OPTIONS:
        raise _refuse(kind, prop.name, f"--{prop.name} is reserved by every shell function")
    schema = prop.schema
    types = [t for t in prop.types if t != "null"]
    if not prop.is_array:
        scalar = _scalar_type(kind, prop.name, list(prop.types))
        checks = _type_checks(scalar) + _scalar_checks(kind, prop.name, schema)
        return _Field(prop, scalar, tuple(checks), ())
    if len(types) != 1:
        raise _refuse(kind, prop.name, f"type {list(prop.types)} mixes an array with a scalar")
    if prop.required:
        raise _refuse(kind, prop.name, "a required array cannot be a positional argument")
    items = schema.pop("items", None)
    if not isinstance(items, dict):
        raise _refuse(kind, prop.name, "an array needs an 'items' schema")
    scalar = _scalar_type(kind, f"{prop.name}[]", [items.pop("type", "")])
    item_checks = _type_checks(scalar) + _scalar_checks(kind, f"{prop.name}[]", items)
    array_checks = []
    for key, value in schema.items():
        if key == "type" or support(key, "shell") is Support.ANNOTATION:
            continue
        if key == "minItems" and isinstance(value, int):
            array_checks.append(_Check(f"[ {{n}} -ge {value} ]", f"needs at least {value} item(s)"))
        elif key == "maxItems" and isinstance(value, int):
            array_checks.append(_Check(f"[ {{n}} -le {value} ]", f"takes at most {value} item(s)"))
        elif key == "uniqueItems" and isinstance(value, bool):
            pass  # checked as each item arrives
        else:
            raise _refuse(kind, prop.name, f"the shell emitter cannot enforce {key!r}={value!r}")
    unique = schema.get("uniqueItems") is True
    return _Field(prop, scalar, tuple(item_checks), tuple(array_checks), unique)


_quote = shell_single_quoted


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(
        text, width=78, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    ) or [indent]


def _metavar(prop: Property) -> str:
    return prop.name.upper()


def _usage(kind: Kind, fields: list[_Field]) -> str:
    words = [f"bernstein_{kind.snake}"]
    words += [_metavar(kind.property(name)) for name in kind.required]
    for field in fields:
        if not field.prop.required:
            option = f"[--{field.prop.name} VALUE]"
            words.append(option + ("..." if field.prop.is_array else ""))
    return " ".join(words)


def _help_text(kind: Kind, fields: list[_Field]) -> str:
    lines = [f"Usage: {_usage(kind, fields)}", ""]
    lines += _wrap(f"Emit {kind.name}. {kind.description}", "")
    if fields:
        lines += ["", "Arguments (after --, every argument is positional):"]
    positional = [f for name in kind.required for f in fields if f.prop.name == name]
    for field in positional + [f for f in fields if not f.prop.required]:
        prop = field.prop
        name = _metavar(prop) if prop.required else f"--{prop.name} VALUE"
        if prop.is_array:
            name += " (repeat for each item)"
        rules = [field.scalar] + [c.message for c in field.checks + field.array_checks]
        if field.unique:
            rules.append("no item twice")
        lines.append(f"  {name}")
        lines += _wrap(f"{'; '.join(rules)}. {prop.description}", "      ")
    return "\n".join(line.rstrip() for line in lines)


def _help(kind: Kind, fields: list[_Field]) -> list[str]:
    return [
        "# shellcheck disable=SC2016 # help text, printed as it is",
        f"_bsig_help_{kind.snake}() {{",
        "  _bsig_out " + _quote(_help_text(kind, fields)),
        "}",
    ]


_FIXED_HELP = re.compile(r"^_bsig_help_(\w+)\(\) \{\n  _bsig_out '(.*?)'\n\}$", re.S | re.M)


def help_texts(vocabulary: Vocabulary) -> dict[str, str]:
    """Every helper's ``--help`` text by function name, for editors to show on hover."""
    texts = {
        f"bernstein_{name}": body.replace("'\"'\"'", "'")
        for name, body in _FIXED_HELP.findall(template_text(TEMPLATE))
    }
    for kind in vocabulary.kinds:
        texts[f"bernstein_{kind.snake}"] = _help_text(
            kind, [_field(kind, prop) for prop in kind.properties]
        )
    return texts


def _fail(message: str) -> str:
    return f"{{ _bsig_err {_quote(message)}; return 2; }}"


def _apply(checks: tuple[_Check, ...], value: str, label: str, indent: str) -> list[str]:
    return [
        f"{indent}{check.test.format(v=value)} || {_fail(f'{label} {check.message}')}"
        for check in checks
    ]


def _json_value(field: _Field, value: str) -> list[str]:
    """Lines that leave the JSON form of ``value`` in _bsig_j."""
    if field.scalar == "string":
        return [f"_bsig_esc {value}"]
    return [f"_bsig_j={value}"]


def _option_branch(field: _Field) -> list[str]:
    name = field.prop.name
    lines = [f"        --{name})", '          _bsig_need "$#" "$1" || return']
    if field.prop.is_array:
        lines += _apply(field.checks, '"$2"', f"each --{name} item", "          ")
        element = "$_bsig_j" if field.scalar != "string" else '\\"$_bsig_j\\"'
        lines += [f"          {line}" for line in _json_value(field, '"$2"')]
        if field.unique:
            duplicate = _fail(f"each --{name} item must differ from the others")
            lines.append(
                f'          case "$_bsig_a_{name}," in *",{element},"*) {duplicate} ;; esac'
            )
        lines += [
            f"          _bsig_a_{name}=$_bsig_a_{name},{element}",
            f"          _bsig_n_{name}=$((_bsig_n_{name} + 1)) {field.is_set}=1",
        ]
    else:
        lines += [
            f'          [ -z "${field.is_set}" ] || {_fail(f"--{name} given twice")}',
            f"          {field.is_set}=1 {field.var}=$2",
        ]
    return [*lines, "          shift 2", "          continue", "          ;;"]


def _member(field: _Field) -> list[str]:
    """Lines appending ``,"name":value`` to _bsig_p; the field is known to be set."""
    name = field.prop.name
    if field.prop.is_array:
        return [f'_bsig_p=$_bsig_p,\\"{name}\\":[${{_bsig_a_{name}#,}}]']
    quote = '\\"' if field.scalar == "string" else ""
    return [
        *_json_value(field, f'"${field.var}"'),
        f'_bsig_p=$_bsig_p,\\"{name}\\":{quote}$_bsig_j{quote}',
    ]


def _function(kind: Kind) -> list[str]:
    fields = [_field(kind, prop) for prop in kind.properties]
    positional = [next(f for f in fields if f.prop.name == name) for name in kind.required]
    optional = [f for f in fields if not f.prop.required]
    resets = ["_bsig_pos=0 _bsig_dd=''"]
    for field in fields:
        resets.append(f"{field.is_set}='' {field.var}=''")
        if field.prop.is_array:
            resets.append(f"_bsig_a_{field.prop.name}='' _bsig_n_{field.prop.name}=0")
    lines = [
        "",
        f"# {_usage(kind, fields)}",
        *_help(kind, fields),
        "",
        "# shellcheck disable=SC2120 # may be called without arguments",
        f"_bsig_do_{kind.snake}() {{",
        f"  _bsig_fn=bernstein_{kind.snake}",
        *(f"  {line}" for line in resets),
        '  while [ "$#" -gt 0 ]; do',
        '    if [ -z "$_bsig_dd" ]; then',
        "      case $1 in",
        "        --)",
        "          _bsig_dd=1",
        "          shift",
        "          continue",
        "          ;;",
        f"        --help) _bsig_help_{kind.snake}; return ;;",
    ]
    for field in optional:
        lines += _option_branch(field)
    lines += [
        '        -?*) _bsig_unknown "$1" || return ;;',
        "      esac",
        "    fi",
    ]
    too_many = _fail("too many arguments (try --help)")
    if positional:
        lines.append("    case $_bsig_pos in")
        for index, field in enumerate(positional):
            lines.append(f"      {index}) {field.is_set}=1 {field.var}=$1 ;;")
        lines += [
            f"      *) {too_many} ;;",
            "    esac",
            "    _bsig_pos=$((_bsig_pos + 1))",
            "    shift",
        ]
    else:
        lines += [
            f"    _bsig_err {_quote('takes no positional argument (try --help)')}",
            "    return 2",
        ]
    lines.append("  done")
    if positional:
        names = " ".join(_metavar(f.prop) for f in positional)
        lines.append(
            f'  [ "$_bsig_pos" -ge {len(positional)} ] || '
            + _fail(f"missing argument(s): {names} (try --help)")
        )
    for field in fields:
        label = _metavar(field.prop) if field.prop.required else f"--{field.prop.name}"
        if field.prop.is_array:
            count = f'"$_bsig_n_{field.prop.name}"'
            checks = [_Check(c.test.replace("{n}", count), c.message) for c in field.array_checks]
            checks_lines = _apply(tuple(checks), "", f"--{field.prop.name}", "    ")
        else:
            checks_lines = _apply(field.checks, f'"${field.var}"', label, "    ")
        if checks_lines and field.prop.required:
            lines += [line[2:] for line in checks_lines]
        elif checks_lines:
            lines += [f'  if [ -n "${field.is_set}" ]; then', *checks_lines, "  fi"]
    lines.append("  _bsig_p=''")
    for field in sorted(fields, key=lambda f: f.prop.name.encode()):
        member = _member(field)
        if field.prop.required:
            lines += [f"  {line}" for line in member]
        else:
            lines += [f'  if [ -n "${field.is_set}" ]; then', *(f"    {m}" for m in member), "  fi"]
    lines += [f'  _bsig_line {kind.name} "$_bsig_p"', "}"]
    return lines


def _wrapper(name: str, quiet: bool) -> list[str]:
    """bernstein_NAME: the caller's state saved around _bsig_do_NAME, on every path."""
    return [
        "",
        "# shellcheck disable=SC2120 # may be called without arguments",
        f"bernstein_{name}() {{",
        _QUIET_ENTRY if quiet else _PLAIN_ENTRY,
        f'  if _bsig_do_{name} "$@"; then _bsig_st=0; else _bsig_st=$?; fi',
        "  _bsig_leave",
        "}",
    ]


def _binding_limits() -> ModuleType:
    """The Python binding's limits module, read from its template: one home for the limits."""
    spec = importlib.util.spec_from_file_location(
        "_bernstein_binding_limits", TEMPLATES / "python" / "limits.py"
    )
    if spec is None or spec.loader is None:
        raise SourceError("templates/python/limits.py", "shell", "cannot load the binding's limits")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _float_limit() -> str:
    """The digits of the least number Python's float() rounds to infinity.

    It is the largest double plus half its last-place unit (an exact tie
    rounds to even, which is infinity); checked against float() itself.
    """
    largest = sys.float_info.max
    limit = int(largest) + int(math.ulp(largest)) // 2
    if not math.isinf(float(str(limit))) or math.isinf(float(f"{limit - 1}.{'9' * 40}")):
        raise AssertionError("the float threshold does not match float()")
    return str(limit)


def _limit_markers() -> dict[str, str]:
    limits = _binding_limits()
    depth: int = limits.MAX_NESTING_DEPTH
    digits: int = limits.MAX_INTEGER_DIGITS
    float_limit = _float_limit()
    return {
        # A key:= value sits inside the payload object, which counts as one level.
        "@MAX_VALUE_DEPTH@": str(depth - 1),
        "@MAX_INTEGER_DIGITS@": str(digits),
        "@FLOAT_LIMIT_DIGITS@": float_limit.rstrip("0"),
        "@FLOAT_LIMIT_EXPONENT@": str(len(float_limit)),
    }


_FUNCTION_NAMES = ("bernstein_{}", "_bsig_do_{}", "_bsig_help_{}")
"""The shell functions each kind gets (see _function, _help and _wrapper)."""
_VARIABLE_NAMES = ("_bsig_v_{}", "_bsig_s_{}", "_bsig_a_{}", "_bsig_n_{}")
"""The variables each property gets (see _Field and _option_branch)."""


def _check_names(vocabulary: Vocabulary, template: str) -> None:
    """Kinds' functions and properties' variables never take a name the fixed library uses."""
    # The template calls some kinds' functions (bernstein_run emits COMPLETED):
    # those names are references to what this emitter generates, not clashes.
    own = {name.format(kind.snake) for kind in vocabulary.kinds for name in _FUNCTION_NAMES}
    defined = re.findall(r"(?m)^\s*((?:bernstein|_bsig)_\w+)\s*\(\)", template)
    fixed = (
        frozenset(re.findall(r"\b_bsig_\w+", template)) - own
        | frozenset(defined)
        | {name.format(helper) for helper in _FIXED for name in _FUNCTION_NAMES}
    )
    check_shell_names(
        fixed,
        {
            kind.file_name: [name.format(kind.snake) for name in _FUNCTION_NAMES]
            for kind in vocabulary.kinds
        },
    )
    for kind in vocabulary.kinds:
        variables = [name.format(prop.name) for prop in kind.properties for name in _VARIABLE_NAMES]
        check_shell_names(fixed, {kind.file_name: variables})


def _check_words(vocabulary: Vocabulary) -> None:
    """Text the library quotes must fit in a shell word: no NUL (the one byte a word lacks)."""
    for kind in vocabulary.kinds:
        texts = [("/description", kind.description)]
        texts += [(f"/properties/{p.name}/description", p.description) for p in kind.properties]
        for pointer, text in texts:
            if "\0" in text:
                raise SourceError(
                    kind.file_name,
                    "shell",
                    f"at {pointer}: a NUL character cannot be in a shell word (target shell)",
                )


def emit(vocabulary: Vocabulary) -> dict[str, str]:
    check_vocabulary(vocabulary)
    _check_words(vocabulary)
    if vocabulary.grammar.kind_pattern != IDENTIFIER_KIND.pattern:
        raise SourceError(
            vocabulary.grammar.file_name,
            "shell",
            f"bernstein_emit checks KIND as /{IDENTIFIER_KIND.pattern}/, but the grammar says"
            f" /{vocabulary.grammar.kind_pattern}/",
        )
    functions: list[str] = []
    wrappers: list[str] = []
    for name, quiet in _FIXED.items():
        wrappers += _wrapper(name, quiet)
    for kind in vocabulary.kinds:
        try:
            functions += _function(kind)
        except ValueError as exc:  # from _quote: text _check_words did not know about
            raise SourceError(kind.file_name, "shell", f"{exc} (target shell)") from None
        wrappers += _wrapper(kind.snake, quiet=True)
    text = template_text(TEMPLATE)
    _check_names(vocabulary, text)
    # Each marker's value is escaped for where the template puts it: @VOCABULARY@
    # and @KINDS@ in a `#` comment line, @PREFIX@ between double quotes.
    replacements = {
        "@VOCABULARY@": comment_text(f"{vocabulary.name} {vocabulary.version}"),
        "@KINDS@": ", ".join(kind.snake for kind in vocabulary.kinds),
        "@PREFIX@": shell_double_quoted(vocabulary.grammar.prefix),
        "@TERMINALS@": " | ".join(kind.name for kind in vocabulary.terminal_kinds),
        "@KIND_FUNCTIONS@": "\n".join(functions).lstrip("\n"),
        "@WRAPPERS@": "\n".join(wrappers).lstrip("\n"),
        **_limit_markers(),
    }
    for marker, value in replacements.items():
        text = text.replace(marker, value)
    return {LIBRARY: python_header(vocabulary) + text}
