"""One kind's part of the shell library, rendered from its signature.

Each kind gets its tables (``_bsig_P_<kind>``: the positional fields in order,
``_bsig_O_<kind>``: the options), read by the template's one argument parser
``_bsig_args``; a function that checks the values and writes the line; and,
when it has a repeated option, ``_bsig_i_<kind>``, which checks and appends
each item as the parser meets it. An item's refusal waits in ``_bsig_e_<name>``
until the field's turn: a call's shape is refused before its values, and the
values field by field (the order ``shell_signature`` defines).
"""

from __future__ import annotations

import json
import re

from ..shell_checks import Check
from ..shell_help import help_text, usage
from ..shell_signature import Param, Signature
from ._escape import shell_double_quoted, shell_single_quoted

__all__ = ["FUNCTION_NAMES", "VARIABLE_NAMES", "kind_functions"]

FUNCTION_NAMES = ("bernstein_{}", "_bsig_do_{}", "_bsig_help_{}", "_bsig_i_{}")
"""The shell functions each kind gets."""
TABLE_NAMES = ("_bsig_P_{}", "_bsig_O_{}", "_bsig_R_{}")
"""The tables each kind gets, and the reset ``_bsig_args`` derives from them (named like
its functions: one namespace per kind)."""
VARIABLE_NAMES = ("_bsig_v_{}", "_bsig_s_{}", "_bsig_a_{}", "_bsig_n_{}", "_bsig_e_{}")
"""The variables each property gets (``_bsig_args`` sets them)."""
_NUMBER = re.compile(r"-?[0-9]+")
_quote = shell_single_quoted


def _word(text: str) -> str:
    return text if _NUMBER.fullmatch(text) else _quote(text)


def _test(check: Check, value: str) -> str:
    return " ".join([check.head, value, *map(_word, check.args)])


def _fail(message: str) -> str:
    return f"{{ _bsig_err {_quote(message)}; return 2; }}"


def _apply(checks: tuple[Check, ...], value: str, label: str, indent: str) -> list[str]:
    return [f"{indent}{_test(c, value)} || {_fail(f'{label} {c.message}')}" for c in checks]


def _held(name: str, message: str) -> str:
    """An item's refusal, kept for the field's turn (``_checks``); later items are not read."""
    return f"{{ _bsig_e_{name}={_quote(message)}; return 0; }}"


def _tables(sig: Signature) -> list[str]:
    positional = "".join(f"{p.name}:{p.metavar} " for p in sig.positionals)
    options = "".join(f" {p.name}{'+' if p.repeatable else ''}" for p in sig.options)
    return [
        f"_bsig_P_{sig.snake}={_quote(positional)}",
        f"_bsig_O_{sig.snake}={_quote(options + ' ' if options else '')}",
        f"_bsig_R_{sig.snake}=''  # _bsig_args fills it; emptied when the library is sourced",
    ]


def _help(sig: Signature, version: str) -> list[str]:
    return [
        "# shellcheck disable=SC2016 # help text, printed as it is",
        f"_bsig_help_{sig.snake}() {{",
        "  _bsig_out " + _quote(help_text(sig, version)),
        "}",
    ]


def _json_value(param: Param, value: str) -> str:
    """The line that leaves the JSON form of ``value`` in _bsig_j."""
    return f"_bsig_esc {value}" if param.scalar == "string" else f"_bsig_j={value}"


def _items(sig: Signature) -> list[str]:
    """``_bsig_i_<kind> NAME ITEM``: check one item of a repeated option and append it."""
    repeated = [p for p in sig.options if p.repeatable]
    if not repeated:
        return []
    lines = ["", f"_bsig_i_{sig.snake}() {{", "  case $1 in"]
    for param in repeated:
        name = param.name
        element = "$_bsig_j" if param.scalar != "string" else '\\"$_bsig_j\\"'
        lines += [f"    {name})", f'      [ -z "$_bsig_e_{name}" ] || return 0']
        label, item = f"each {param.option} item", '"$2"'
        lines += [
            f"      {_test(c, item)} || {_held(name, f'{label} {c.message}')}" for c in param.checks
        ]
        lines.append("      " + _json_value(param, item))
        if param.unique:
            duplicate = _held(name, f"{param.option} {param.unique_message}")
            lines.append(f'      case "$_bsig_a_{name}," in *",{element},"*) {duplicate} ;; esac')
        lines += [
            f"      _bsig_a_{name}=$_bsig_a_{name},{element}",
            f"      _bsig_n_{name}=$((_bsig_n_{name} + 1))",
            "      ;;",
        ]
    return [*lines, "  esac", "}"]


def _member(param: Param) -> list[str]:
    """Lines appending ``,"name":value`` to _bsig_p; the field is known to be set."""
    name = param.name
    if param.repeatable:
        return [f'_bsig_p=$_bsig_p,\\"{name}\\":[${{_bsig_a_{name}#,}}]']
    quote = '\\"' if param.scalar == "string" else ""
    return [
        _json_value(param, f'"$_bsig_v_{name}"'),
        f'_bsig_p=$_bsig_p,\\"{name}\\":{quote}$_bsig_j{quote}',
    ]


def _stamp(name: str, version: str) -> str:
    """The line appending ``,"name":"version"`` to _bsig_p, the version written as JSON."""
    member = f",{json.dumps(name)}:{json.dumps(version, ensure_ascii=False)}"
    return f'_bsig_p=$_bsig_p"{shell_double_quoted(member)}"'


def _refusing(sig: Signature) -> list[str]:
    """A helper that cannot build a valid payload: --help says why, any other call fails."""
    message = (
        f"not available in shell: {sig.unavailable}; use bernstein_emit {sig.kind} (try --help)"
    )
    return [
        f"_bsig_do_{sig.snake}() {{",
        # What bernstein_ask passes on (its name, a held refusal: _bsig_args takes that
        # elsewhere) is taken here too, so that it cannot reach the next call.
        f"  _bsig_fn=${{_bsig_via:-{sig.function}}} _bsig_via='' _bsig_held=''",
        f"  case ${{1-}} in --help) _bsig_help_{sig.snake}; return ;; esac",
        f"  _bsig_err {_quote(message)}",
        "  return 2",
        "}",
    ]


def _checks(param: Param) -> list[str]:
    """The checks on a whole field, run once the arguments are read: for an array, its
    first refused item (held by ``_bsig_i_<kind>``), then its count."""
    name = param.name
    held = []
    if param.repeatable:
        held = [f'  [ -z "$_bsig_e_{name}" ] || {{ _bsig_err "$_bsig_e_{name}"; return 2; }}']
        lines = _apply(param.array_checks, f'"$_bsig_n_{name}"', param.label, "  ")
    else:
        lines = _apply(param.checks, f'"$_bsig_v_{name}"', param.label, "  ")
    if lines and not param.required:
        lines = [f'  if [ -n "$_bsig_s_{name}" ]; then', *("  " + x for x in lines), "  fi"]
    return held + lines


def _emitting(sig: Signature, version: str) -> list[str]:
    lines = [
        f"_bsig_do_{sig.snake}() {{",
        # _bsig_via: the helper that called this one (bernstein_ask), named in its messages.
        f"  _bsig_fn=${{_bsig_via:-{sig.function}}} _bsig_via=''",
        f'  _bsig_args {sig.snake} "$_bsig_P_{sig.snake}" "$_bsig_O_{sig.snake}" "$@" || return',
        '  [ -z "$_bsig_hp" ] || return 0',
    ]
    for param in sig.params:
        lines += _checks(param)
    lines.append("  _bsig_p=''")
    # Members in code point order of their names, as the binding writes them.
    members = [(stamped.name, [f"  {_stamp(stamped.name, version)}"]) for stamped in sig.stamped]
    for param in sig.params:
        member = _member(param)
        if param.required:
            members.append((param.name, [f"  {line}" for line in member]))
        else:
            test = f'  if [ -n "$_bsig_s_{param.name}" ]; then'
            members.append((param.name, [test, *(f"    {m}" for m in member), "  fi"]))
    for _, member in sorted(members, key=lambda item: item[0].encode()):
        lines += member
    return [*lines, f'  _bsig_line {sig.kind} "$_bsig_p"', "}"]


def kind_functions(sig: Signature, version: str) -> list[str]:
    """The kind's lines of the library: comment, help, tables, function(s)."""
    body = _refusing(sig) if sig.unavailable else _emitting(sig, version)
    return [
        "",
        f"# {usage(sig)}",
        *_help(sig, version),
        *_tables(sig),
        "# shellcheck disable=SC2120,SC2154 # may be called without arguments; _bsig_args sets"
        " the fields' variables",
        *body,
        *([] if sig.unavailable else _items(sig)),
    ]
