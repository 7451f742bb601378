"""The shell library, ``shell/bernstein-signals.sh``: fixed helpers plus one function per kind.

The fixed part is the templates in ``binding_runtime/shell/library/``, one file a
part (:data:`LIBRARY_PARTS`, in the order the library needs them), with the one
argument parser (``_bsig_args``). Each kind's part is rendered from its
signature (:mod:`..shell_signature`: which fields are positional, which are
options, the checks on each) by :mod:`._shell_kinds`. A field the shell cannot
check faithfully is left out of the helper's options (its ``--help`` names it;
``bernstein_emit`` reaches it), so no check is ever silently lost and no field
refuses the whole vocabulary. A kind whose helper could not build a valid
payload gets a helper that says so and fails, and nothing else changes.
"""

from __future__ import annotations

import math
import re
import sys

from bernstein_signals_toolkit.toolkit_errors import SourceError

from ..model import Vocabulary
from ..names import (
    PROPERTY_NAME_FIRST,
    PROPERTY_NAME_REST,
    check_kind_token,
    check_shell_names,
    check_vocabulary,
)
from ..roles import check_roles
from ..shell_help import FIXED_HELPERS, FixedHelper, fixed_help, role_markers
from ..shell_signature import (
    ASK_OPTIONS,
    ASK_TIMEOUT_DECIMALS,
    ASK_TIMEOUT_DIGITS,
    ASK_TIMEOUT_MAX,
    ASK_TIMEOUT_RULE,
    OPTION_REST,
    OPTION_SHOWN,
    reserved_options,
    signature,
)
from ._escape import comment_text, shell_double_quoted, shell_single_quoted
from ._header import python_header
from ._shell_fence import fence_markers
from ._shell_kinds import FUNCTION_NAMES, TABLE_NAMES, VARIABLE_NAMES, kind_functions
from ._templates import python_runtime_module, template_text

__all__ = ["LIBRARY", "emit"]

LIBRARY = "shell/bernstein-signals.sh"
TEMPLATES = "shell/library/*.sh"
LIBRARY_PARTS = (
    "header",  # what the library is, its public functions, its promises
    "platform",  # which shell, and how it reaches its builtins and writes output
    "state",  # the caller's state: saved on entry, restored on return
    "escaping",  # JSON string escaping
    "line",  # building and writing a line
    "arguments",  # the calling convention's one argument parser, and the value checks
    "json",  # reading JSON strings and escapes, for key:=JSON and replies
    "json_value",  # reading a key:=JSON value: structure, depth, surrogates
    "json_number",  # key:=JSON numbers: limits, and doubles in canonical form
    "json_write",  # key:=JSON written in canonical form: levels, key order, characters
    "emit",  # bernstein_emit
    "run",  # bernstein_run
    "ask",  # bernstein_ask
    "guard",  # bernstein_guard
    "public",  # the slots for the generated helps, kinds' functions and wrappers
    "fence_gate",  # the end of sourcing for a shell handed no key: the fence is not parsed
    "fence",  # the fence: HMAC-SHA256 in shell arithmetic
    "fence_mark",  # the fence: the mark in its sorted place, by the shell that took the key
    "fence_key",  # the fence: the key taken when the library is sourced
)
"""The fixed library's parts (``binding_runtime/shell/library/NAME.sh``), in this order."""

_QUIET_ENTRY = (
    "  # shellcheck disable=SC3043,SC2034 # bash and zsh keep the caller's locale outside\n"
    "  { case $_bsig_sh in bash) builtin local LC_ALL=C ;;"
    " zsh) emulate -LR zsh; local LC_ALL=C ;; esac; _bsig_enter; } 2>/dev/null"
)
_PLAIN_ENTRY = "  { _bsig_enter; } 2>/dev/null"
"""Entry lines: the trace of entering goes to /dev/null, then nothing is traced."""


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
    limits = python_runtime_module("limits")
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


_KIND_NAMES = FUNCTION_NAMES + TABLE_NAMES


def _fixed_help(helper: FixedHelper, vocabulary: Vocabulary) -> list[str]:
    """``_bsig_help_NAME``: a fixed helper's --help, from the table in shell_help."""
    return [
        "",
        "# shellcheck disable=SC2016 # help text, printed as it is",
        f"_bsig_help_{helper.name}() {{",
        f"  _bsig_out {shell_single_quoted(fixed_help(helper, vocabulary))}",
        "}",
    ]


def _convention_markers() -> dict[str, str]:
    """The character lists of the option shape and of a key, as shell bracket expressions."""
    if not OPTION_REST.endswith("-") or "-" in OPTION_REST[:-1]:
        raise AssertionError("a bracket expression needs its '-' last")
    return {
        "@OPTION_FIRST@": PROPERTY_NAME_FIRST,
        "@OPTION_REST@": OPTION_REST,
        "@OPTION_SHOWN@": str(OPTION_SHOWN),
        "@OPTION_SHOWN_ANY@": "?" * OPTION_SHOWN,
        "@ASK_OPTIONS@": " ".join(ASK_OPTIONS),
        "@ASK_OPTIONS_CASE@": " | ".join(ASK_OPTIONS),
        "@ASK_TIMEOUT_MAX@": str(ASK_TIMEOUT_MAX),
        "@ASK_TIMEOUT_DIGITS@": str(ASK_TIMEOUT_DIGITS),
        "@ASK_TIMEOUT_DECIMALS@": str(ASK_TIMEOUT_DECIMALS),
        "@ASK_TIMEOUT_RULE@": ASK_TIMEOUT_RULE,
        "@KEY_FIRST@": PROPERTY_NAME_FIRST,
        "@KEY_REST@": PROPERTY_NAME_REST,
    }


def _check_names(vocabulary: Vocabulary, template: str) -> None:
    """Kinds' functions and properties' variables never take a name the fixed library uses."""
    # The template calls some kinds' functions (bernstein_run emits COMPLETED):
    # those names are references to what this emitter generates, not clashes.
    own = {name.format(kind.snake) for kind in vocabulary.kinds for name in _KIND_NAMES}
    defined = re.findall(r"(?m)^\s*((?:bernstein|_bsig)_\w+)\s*\(\)", template)
    fixed = (
        frozenset(re.findall(r"\b_bsig_\w+", template)) - own
        | frozenset(defined)
        | {
            name.format(helper)
            for helper in (h.name for h in FIXED_HELPERS)
            for name in _KIND_NAMES
        }
    )
    check_shell_names(
        fixed,
        {
            kind.file_name: [name.format(kind.snake) for name in _KIND_NAMES]
            for kind in vocabulary.kinds
        },
    )
    for kind in vocabulary.kinds:
        variables = [name.format(prop.name) for prop in kind.properties for name in VARIABLE_NAMES]
        check_shell_names(fixed, {kind.file_name: variables})


def _check_options(vocabulary: Vocabulary) -> None:
    """A property may not take an option every helper has: a name clash, refused like one."""
    for kind in vocabulary.kinds:
        for prop in kind.properties:
            if prop.name in reserved_options(kind):
                owner = "every shell function" if prop.name == "help" else "bernstein_ask"
                raise SourceError(
                    kind.file_name,
                    "shell",
                    f"property {prop.name!r}: --{prop.name} is reserved by {owner}",
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


def emit(vocabulary: Vocabulary) -> dict[str, str]:
    check_vocabulary(vocabulary)
    check_roles(vocabulary)
    _check_options(vocabulary)
    _check_words(vocabulary)
    check_kind_token(vocabulary, "shell", "bernstein_emit")
    functions: list[str] = []
    wrappers: list[str] = []
    markers = role_markers(vocabulary)
    for helper in FIXED_HELPERS:
        wrappers += _wrapper(helper.name, helper.quiet)
        functions += _fixed_help(helper, vocabulary)
    for kind in vocabulary.kinds:
        try:
            functions += kind_functions(signature(kind), vocabulary.version)
        except ValueError as exc:  # from _quote: text _check_words did not know about
            raise SourceError(kind.file_name, "shell", f"{exc} (target shell)") from None
        wrappers += _wrapper(kind.snake, quiet=True)
    text = "".join(template_text(f"shell/library/{part}.sh") for part in LIBRARY_PARTS)
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
        **fence_markers(),
        **_convention_markers(),
        **markers,
    }
    for marker, value in replacements.items():
        text = text.replace(marker, value)
    return {LIBRARY: python_header(vocabulary, TEMPLATES) + text}
