"""The shell library, ``shell/bernstein-signals.sh``: fixed helpers plus one function per kind.

The fixed part is the template ``templates/shell/bernstein-signals.sh``. Each kind's
function is generated here from its schema: required scalars are positional in
``required`` order, the other fields are ``--<property> VALUE`` options (an array
repeats its option; a required array with no item is ``[]``), and every keyword
that constrains a value becomes a check in shell. What the shell compiles is the
``shell`` column of ``keywords.KEYWORDS``; a field whose schema uses anything else,
or a value the shell cannot check faithfully, is left out of the helper's options
(its ``--help`` names it; ``bernstein_emit`` reaches it), so no check is ever
silently lost and no field refuses the whole vocabulary. A kind whose helper could
not build a valid payload (a required field left out, a kind-level rule the shell
refuses) gets a helper that says so and fails, and nothing else changes.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
import textwrap
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType
from typing import TypeGuard

from ..ecma_regex import EcmaPatternError, translate
from ..errors import SourceError
from ..keywords import MESSAGE_KEYWORD, Support, refusals, support
from ..model import JSONValue, Kind, Property, Vocabulary
from ..names import IDENTIFIER_KIND, check_shell_names, check_vocabulary
from ..roles import ROLES, VERSION_ROLE, check_roles, role_field
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

_CLASS_ESCAPE = r"\\[dw]|\\[!-/:-@\[-`{-~]"
_ONE_CLASS = re.compile(
    r"\^(?P<atom>" + _CLASS_ESCAPE + r"|\[(?!\^)(?:" + _CLASS_ESCAPE + r"|[ -\[^-~])+\])"
    r"(?P<count>[?*+]|\{(?P<low>\d+)(?P<comma>,(?P<high>\d*))?\})?\$"
)
"""Patterns the shell checks besides the .sdd/ rule: one ASCII class over the whole
value, ``^[a-z0-9_-]+$``, ``^\\d{3}$``, ``^\\w*$``. The class holds ASCII
characters, ranges, ``\\d``, ``\\w`` and escaped punctuation only, so it matches no
other code point; its members are read off ``ecma_regex.translate`` itself."""
_MAX_SHELL_COUNT = 10**9
_UNTRANSLATED = (
    "its pattern has no shell translation (the shell checks the .sdd/ path rule and one"
    " ASCII class over the whole value, such as ^[a-z0-9_-]+$)"
)


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

_SCALARS = ("string", "integer", "boolean")
_RESERVED_OPTIONS = frozenset({"help"})
_MAX_DIVISOR = 10**9
"""The largest multipleOf the shell checks (``_bsig_int_mod``: nine digits a step in 64 bits)."""
_NUMERIC = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf")
_STRING = ("minLength", "maxLength", "pattern")
_ARRAY = ("items", "minItems", "maxItems", "uniqueItems")
_OBJECT = ("properties", "required", "additionalProperties")
"""Keywords that constrain only values of one JSON type: a no-op on a field of another type."""
_BUILT = {"type", "enum", "const", *_NUMERIC, *_STRING, *_ARRAY, *_OBJECT}
"""Every keyword this module compiles when the table says the shell compiles it."""


@dataclass(frozen=True)
class _Check:
    head: str
    """The shell command before the value (``_bsig_len_ge``)."""
    tail: str
    """What follows the value: further arguments, each a quoted word or a number."""
    message: str

    def render(self, value: str) -> str:
        return f"{self.head} {value}{self.tail}"


@dataclass(frozen=True)
class _Field:
    prop: Property
    scalar: str
    """The JSON type of the value (of each item, for an array): string, integer or boolean."""
    checks: tuple[_Check, ...]
    """Checks on the value (on each item, for an array)."""
    array_checks: tuple[_Check, ...]
    """Checks on the item count of an array; empty for scalars."""
    unique: bool = False
    """An array whose items must differ (uniqueItems)."""

    @property
    def var(self) -> str:
        return f"_bsig_v_{self.prop.name}"

    @property
    def is_set(self) -> str:
        return f"_bsig_s_{self.prop.name}"

    @property
    def positional(self) -> bool:
        """Required scalars are positional; arrays are repeated options, required or not."""
        return self.prop.required and not self.prop.is_array


@dataclass(frozen=True)
class _PythonOnly(Exception):
    """A field the shell cannot carry: the kind's helper leaves it out."""

    reason: str


@dataclass(frozen=True)
class _Plan:
    """What a kind's helper carries, what it leaves to bernstein_emit, and whether it exists."""

    fields: tuple[_Field, ...]
    python_only: tuple[tuple[Property, str], ...]
    unavailable: str
    """Why the helper cannot build a valid payload ('' when it can)."""
    stamped: tuple[Property, ...] = ()
    """Optional fields with role vocabulary-version: always the library's version."""


def _message(schema: dict[str, JSONValue], keyword: str, default: str) -> str:
    """The schema's plain message for ``keyword`` (``x-bernstein-message``), else ``default``."""
    given = schema.get(MESSAGE_KEYWORD)
    if isinstance(given, dict):
        given = given.get(keyword)
    return given if isinstance(given, str) and given.strip() else default


def _is_number(value: JSONValue) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _choice(value: JSONValue, scalar: str) -> str | None:
    """``value`` as the shell argument that gives it, if a ``scalar`` argument can."""
    if scalar == "string":
        return value if isinstance(value, str) and "\0" not in value else None
    if scalar == "boolean":
        return ("false", "true")[value] if isinstance(value, bool) else None
    if _is_number(value) and math.isfinite(value) and value == int(value):
        return str(int(value))
    return None


def _choices(schema: dict[str, JSONValue], keyword: str, scalar: str) -> _Check:
    values = schema[keyword]
    listed = values if keyword == "enum" and isinstance(values, list) else [values]
    words = [word for value in listed if (word := _choice(value, scalar)) is not None]
    if not words:
        raise _PythonOnly(f"no {keyword} value can be a {scalar} argument")
    shown = ", ".join(json.dumps(value, ensure_ascii=False) for value in listed)
    default = f"must be {shown}" if keyword == "const" else f"must be one of {shown}"
    tail = "".join(f" {_quote(word)}" for word in dict.fromkeys(words))
    return _Check("_bsig_in", tail, _message(schema, keyword, default))


def _bound(keyword: str, value: JSONValue) -> tuple[str, int]:
    """The inclusive integer bound a number keyword sets on an integer: (test, bound)."""
    if not _is_number(value) or not math.isfinite(value):
        raise _PythonOnly(f"{keyword} {value!r} is not a finite number")
    exact = Fraction(value)
    if keyword == "minimum":
        return "_bsig_int_ge", math.ceil(exact)
    if keyword == "exclusiveMinimum":
        return "_bsig_int_ge", math.floor(exact) + 1
    if keyword == "maximum":
        return "_bsig_int_le", math.floor(exact)
    return "_bsig_int_le", math.ceil(exact) - 1


_BOUND_WORDS = {
    "minimum": "at least",
    "exclusiveMinimum": "greater than",
    "maximum": "at most",
    "exclusiveMaximum": "less than",
}


def _value_checks(schema: dict[str, JSONValue], scalar: str) -> list[_Check]:
    """Checks on one shell argument holding a ``scalar`` value under ``schema``."""
    checks = []
    if scalar == "integer":
        checks.append(_Check("_bsig_is_int", "", _message(schema, "type", "must be an integer")))
    elif scalar == "boolean":
        checks.append(
            _Check("_bsig_is_bool", "", _message(schema, "type", "must be true or false"))
        )
    for key, value in schema.items():
        if key in ("enum", "const"):
            checks.append(_choices(schema, key, scalar))
        elif scalar == "integer" and key in _BOUND_WORDS:
            test, bound = _bound(key, value)
            shown = json.dumps(value)
            message = _message(schema, key, f"must be {_BOUND_WORDS[key]} {shown}")
            checks.append(_Check(test, f" {bound}", message))
        elif scalar == "integer" and key == "multipleOf":
            if not _is_number(value) or value != int(value) or not 0 < value <= _MAX_DIVISOR:
                raise _PythonOnly(
                    f"multipleOf {value!r} is not a whole number up to {_MAX_DIVISOR}"
                )
            message = _message(schema, key, f"must be a multiple of {json.dumps(value)}")
            checks.append(_Check("_bsig_int_mod", f" {int(value)}", message))
        elif scalar == "string" and key in ("minLength", "maxLength") and isinstance(value, int):
            test, word = (
                ("_bsig_len_ge", "at least") if key == "minLength" else ("_bsig_len_le", "at most")
            )
            default = f"must be {word} {value} character(s) long"
            if key == "minLength" and value == 1:
                default = "must not be empty"
            if (key, value) != ("minLength", 0):
                checks.append(_Check(test, f" {value}", _message(schema, key, default)))
        elif scalar == "string" and key == "pattern":
            message = _message(schema, key, f"must match the pattern {value}")
            checks += _pattern_checks(value, message)
    return checks


def _pattern_checks(pattern: JSONValue, message: str) -> list[_Check]:
    """The shell checks for ``pattern``, or _PythonOnly when it has no faithful translation."""
    if pattern == SDD_PATH_PATTERN:
        return [_Check("_bsig_is_sdd_path", "", message)]
    found = _ONE_CLASS.fullmatch(pattern) if isinstance(pattern, str) else None
    try:
        atom = found and re.compile(translate(f"^{found['atom']}$"))
        translate(str(pattern))
    except EcmaPatternError:
        atom = None
    if found is None or not atom:
        raise _PythonOnly(_UNTRANSLATED)
    members = "".join(chr(code) for code in range(32, 127) if atom.search(chr(code)))
    low, high = {"?": (0, 1), "*": (0, None), "+": (1, None), None: (1, 1)}.get(
        found["count"], (0, 0)
    )
    if found["low"] is not None:
        low = int(found["low"])
        high = None if found["comma"] and not found["high"] else int(found["high"] or low)
    if not members or max(low, high or 0) > _MAX_SHELL_COUNT:
        raise _PythonOnly(_UNTRANSLATED)
    checks = [_Check("_bsig_only", f" {_quote(members)}", message)]
    if low:
        checks.append(_Check("_bsig_len_ge", f" {low}", message))
    if high is not None:
        checks.append(_Check("_bsig_len_le", f" {high}", message))
    return checks


def _scalar_type(types: list[str]) -> str:
    concrete = [t for t in types if t != "null"]
    if len(concrete) != 1 or concrete[0] not in _SCALARS:
        raise _PythonOnly(f"type {types} is not a string, integer or boolean")
    return concrete[0]


def _field(prop: Property) -> _Field:
    """The shell option or argument for ``prop``, or _PythonOnly saying why it has none."""
    schema = prop.schema
    for pointer, keyword, _why in refusals(schema, "shell"):
        raise _PythonOnly(f"{keyword!r} at {pointer} is not compiled for the shell")
    unbuilt = sorted(
        key for key in schema if support(key, "shell") is Support.COMPILED and key not in _BUILT
    )
    if unbuilt:  # never silently dropped: tests keep _BUILT equal to the table's column
        raise _PythonOnly(f"the shell emitter does not build {unbuilt[0]!r}")
    if not prop.is_array:
        scalar = _scalar_type(list(prop.types))
        return _Field(prop, scalar, tuple(_value_checks(schema, scalar)), ())
    if len([t for t in prop.types if t != "null"]) != 1:
        raise _PythonOnly(f"type {list(prop.types)} mixes an array with another type")
    if "enum" in schema or "const" in schema:
        raise _PythonOnly("enum or const of whole arrays")
    items = schema.get("items")
    if not isinstance(items, dict):
        raise _PythonOnly("an array without an 'items' schema")
    item_type = items.get("type")
    scalar = _scalar_type([item_type] if isinstance(item_type, str) else ["(none)"])
    array_checks = []
    for key, word in (("minItems", "needs at least"), ("maxItems", "takes at most")):
        count = schema.get(key)
        if isinstance(count, int) and not isinstance(count, bool):
            test = "_bsig_int_ge" if key == "minItems" else "_bsig_int_le"
            message = _message(schema, key, f"{word} {count} item(s)")
            array_checks.append(_Check(test, f" {count}", message))
    unique = schema.get("uniqueItems") is True
    return _Field(prop, scalar, tuple(_value_checks(items, scalar)), tuple(array_checks), unique)


def _unavailable(kind: Kind) -> str:
    """Why no shell helper can build a valid payload of ``kind`` ('' when one can)."""
    # Kind-level rules other than the members: the helper writes only declared
    # members, so additionalProperties holds whatever it says; $defs asserts
    # nothing itself (a member that refers into it is Python-only by its $ref).
    outside = ("properties", "additionalProperties", "$defs")
    rest = {k: v for k, v in kind.schema.items() if k not in outside}
    for pointer, keyword, _why in refusals(rest, "shell"):
        return f"the kind's {keyword!r} (at {pointer}) is not compiled for the shell"
    return ""


def _plan(kind: Kind) -> _Plan:
    fields: list[_Field] = []
    python_only: list[tuple[Property, str]] = []
    stamped: list[Property] = []
    for prop in kind.properties:
        if prop.role == VERSION_ROLE and not prop.required:
            stamped.append(prop)
            continue
        try:
            fields.append(_field(prop))
        except _PythonOnly as exc:
            python_only.append((prop, exc.reason))
    unavailable = _unavailable(kind)
    missing = [prop.name for prop, _ in python_only if prop.required]
    if missing and not unavailable:
        unavailable = f"required field(s) {', '.join(missing)} cannot be shell arguments"
    return _Plan(tuple(fields), tuple(python_only), unavailable, tuple(stamped))


_quote = shell_single_quoted


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(
        text, width=78, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    ) or [indent]


def _metavar(prop: Property) -> str:
    return prop.name.upper()


def _positional(kind: Kind, plan: _Plan) -> list[_Field]:
    """The positional arguments, in the schema's ``required`` order."""
    by_name = {field.prop.name: field for field in plan.fields if field.positional}
    return [by_name[name] for name in kind.required if name in by_name]


def _usage(kind: Kind, plan: _Plan) -> str:
    words = [f"bernstein_{kind.snake}"]
    if plan.unavailable:
        return " ".join([*words, "--help"])
    words += [_metavar(field.prop) for field in _positional(kind, plan)]
    for field in plan.fields:
        if field.positional:
            continue
        option = f"--{field.prop.name} VALUE"
        if field.prop.is_array:
            words.append(f"{option}..." if field.prop.required else f"[{option}]...")
        else:
            words.append(f"[{option}]")
    return " ".join(words)


_EMIT_NOTE = (
    "bernstein_emit {kind} key=value key:=JSON... reaches every field (it does not check the"
    " payload against the schema)."
)


def _help_text(kind: Kind, plan: _Plan, version: str) -> str:
    lines = [f"Usage: {_usage(kind, plan)}", ""]
    lines += _wrap(f"Emit {kind.name}. {kind.description}", "")
    if plan.unavailable:
        lines += ["", *_wrap(f"Not available in shell: {plan.unavailable}.", "")]
        lines += _wrap(_EMIT_NOTE.format(kind=kind.name), "")
    elif plan.fields:
        lines += ["", "Arguments (after --, every argument is positional):"]
    positional = _positional(kind, plan)
    options = [field for field in plan.fields if not field.positional]
    for field in [] if plan.unavailable else positional + options:
        prop = field.prop
        name = _metavar(prop) if field.positional else f"--{prop.name} VALUE"
        if prop.is_array:
            name += " (repeat for each item"
            name += "; none gives [])" if prop.required else ")"
        rules = list(
            dict.fromkeys([field.scalar] + [c.message for c in field.checks + field.array_checks])
        )
        if field.unique:
            rules.append("no item twice")
        lines.append(f"  {name}")
        lines += _wrap(f"{'; '.join(rules)}. {prop.description}", "      ")
    if plan.stamped and not plan.unavailable:
        lines += ["", "Filled by the library (not options here):"]
        for prop in plan.stamped:
            lines.append(f"  {prop.name}")
            lines += _wrap(
                f"always {version}, the vocabulary version of this library;"
                f" bernstein_emit {kind.name} writes any other value or none."
                f" {prop.description}",
                "      ",
            )
    if plan.python_only:
        lines += ["", "Python-only fields (not options here):"]
        for prop, reason in plan.python_only:
            lines.append(f"  {prop.name}")
            lines += _wrap(f"{reason}. {prop.description}", "      ")
        if not plan.unavailable:
            lines += _wrap(_EMIT_NOTE.format(kind=kind.name), "")
    return "\n".join(line.rstrip() for line in lines)


def _help(kind: Kind, plan: _Plan, version: str) -> list[str]:
    return [
        "# shellcheck disable=SC2016 # help text, printed as it is",
        f"_bsig_help_{kind.snake}() {{",
        "  _bsig_out " + _quote(_help_text(kind, plan, version)),
        "}",
    ]


_FIXED_HELP = re.compile(r"^_bsig_help_(\w+)\(\) \{\n  _bsig_out '(.*?)'\n\}$", re.S | re.M)


def help_texts(vocabulary: Vocabulary) -> dict[str, str]:
    """Every helper's ``--help`` text by function name, for editors to show on hover."""
    template = template_text(TEMPLATE)
    for marker, value in _role_markers(vocabulary).items():
        template = template.replace(marker, value)
    texts = {
        f"bernstein_{name}": body.replace("'\"'\"'", "'")
        for name, body in _FIXED_HELP.findall(template)
    }
    for kind in vocabulary.kinds:
        texts[f"bernstein_{kind.snake}"] = _help_text(kind, _plan(kind), vocabulary.version)
    return texts


def _fail(message: str) -> str:
    return f"{{ _bsig_err {_quote(message)}; return 2; }}"


def _apply(checks: tuple[_Check, ...], value: str, label: str, indent: str) -> list[str]:
    return [
        f"{indent}{check.render(value)} || {_fail(f'{label} {check.message}')}" for check in checks
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


def _stamp(prop: Property, version: str) -> str:
    """The line appending ``,"name":"version"`` to _bsig_p, the version written as JSON."""
    member = f",{json.dumps(prop.name)}:{json.dumps(version, ensure_ascii=False)}"
    return f'_bsig_p=$_bsig_p"{shell_double_quoted(member)}"'


def _refusing_function(kind: Kind, plan: _Plan, version: str) -> list[str]:
    """A helper that cannot build a valid payload: --help says why, any other call fails."""
    message = (
        f"not available in shell: {plan.unavailable}; use bernstein_emit {kind.name} (try --help)"
    )
    return [
        "",
        f"# {_usage(kind, plan)}",
        *_help(kind, plan, version),
        "",
        "# shellcheck disable=SC2120 # may be called without arguments",
        f"_bsig_do_{kind.snake}() {{",
        f"  _bsig_fn=bernstein_{kind.snake}",
        f"  case ${{1-}} in --help) _bsig_help_{kind.snake}; return ;; esac",
        f"  _bsig_err {_quote(message)}",
        "  return 2",
        "}",
    ]


def _function(kind: Kind, version: str) -> list[str]:
    plan = _plan(kind)
    if plan.unavailable:
        return _refusing_function(kind, plan, version)
    fields = list(plan.fields)
    positional = _positional(kind, plan)
    options = [f for f in fields if not f.positional]
    resets = ["_bsig_pos=0 _bsig_dd=''"]
    for field in fields:
        resets.append(f"{field.is_set}='' {field.var}=''")
        if field.prop.is_array:
            resets.append(f"_bsig_a_{field.prop.name}='' _bsig_n_{field.prop.name}=0")
    lines = [
        "",
        f"# {_usage(kind, plan)}",
        *_help(kind, plan, version),
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
    for field in options:
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
        label = _metavar(field.prop) if field.positional else f"--{field.prop.name}"
        if field.prop.is_array:
            count = f'"$_bsig_n_{field.prop.name}"'
            checks_lines = _apply(field.array_checks, count, label, "    ")
        else:
            checks_lines = _apply(field.checks, f'"${field.var}"', label, "    ")
        if checks_lines and field.prop.required:
            lines += [line[2:] for line in checks_lines]
        elif checks_lines:
            lines += [f'  if [ -n "${field.is_set}" ]; then', *checks_lines, "  fi"]
    lines.append("  _bsig_p=''")
    # Members in code point order of their names, as the binding writes them.
    members: list[tuple[str, list[str]]] = [
        (prop.name, [f"  {_stamp(prop, version)}"]) for prop in plan.stamped
    ]
    for field in fields:
        member = _member(field)
        if field.prop.required:
            members.append((field.prop.name, [f"  {line}" for line in member]))
        else:
            test = f'  if [ -n "${field.is_set}" ]; then'
            members.append((field.prop.name, [test, *(f"    {m}" for m in member), "  fi"]))
    for _, member in sorted(members, key=lambda item: item[0].encode()):
        lines += member
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


def _check_options(vocabulary: Vocabulary) -> None:
    """A property may not take an option every helper has: a name clash, refused like one."""
    for kind in vocabulary.kinds:
        for prop in kind.properties:
            if prop.name in _RESERVED_OPTIONS:
                raise SourceError(
                    kind.file_name,
                    "shell",
                    f"property {prop.name!r}: --{prop.name} is reserved by every shell function",
                )


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


def _role_markers(vocabulary: Vocabulary) -> dict[str, str]:
    """``@QUESTION_ID@`` and the like: the field names bernstein_ask and bernstein_guard use.

    A field name is lower_snake_case (load checks it), a word that needs no
    quoting in a case pattern, an option or a JSON key.
    """
    markers = {}
    for role in ROLES:
        field = role_field(vocabulary, role.document, role.name)
        if field is not None:
            markers[f"@{role.constant}@"] = field
    return markers


def emit(vocabulary: Vocabulary) -> dict[str, str]:
    check_vocabulary(vocabulary)
    check_roles(vocabulary)
    _check_options(vocabulary)
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
            functions += _function(kind, vocabulary.version)
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
        **_role_markers(vocabulary),
    }
    for marker, value in replacements.items():
        text = text.replace(marker, value)
    return {LIBRARY: python_header(vocabulary) + text}
