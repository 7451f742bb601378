"""One signature per shell helper, and the calling convention every helper call follows.

The shell emitter renders a signature as the tables the library's one argument
parser reads (``_bsig_args``) and as the helper's ``--help``; the language
server checks and rewrites helper calls with :func:`read_call` and
:func:`call_arguments`. The convention, in one place:

- a required scalar field is a positional argument, in the schema's
  ``required`` order; every other field the shell carries is an option
  ``--NAME VALUE`` (NAME the property name), and an array repeats its option
  once per item (a required array given no item is ``[]``);
- an argument is an option only if it is ``--NAME`` with NAME of the option
  shape (:data:`OPTION_SHAPE`): a known option takes the next argument as its
  value, whatever it holds; an unknown one is an error naming it; anything
  else (``-3``, ``---``, ``- step``, text with a line break) is a value;
- ``--`` ends the options (an option after it is a value, so a call that puts
  one there is told that options go before ``--``); ``--help`` prints the help;
- a call is refused for its shape before its values, with the first refusal
  only: the first argument, left to right, that breaks this convention
  (:class:`Problem`, as :func:`read_call` finds it), else a missing positional;
  then the values: bernstein_ask's own options (:data:`ASK_OPTIONS` in order,
  :func:`ask_option_problem`), then each payload field in the order of
  :attr:`Signature.params` (an array: its first refused item, then its count).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from .model import JSONValue, Kind, Vocabulary
from .names import PROPERTY_NAME_FIRST
from .roles import VERSION_ROLE
from .shell_checks import Check, PythonOnly, field_rules, kind_refusal

__all__ = [
    "ASKED_KIND",
    "ASK_OPTIONS",
    "ASK_TIMEOUT_DECIMALS",
    "ASK_TIMEOUT_DIGITS",
    "ASK_TIMEOUT_MAX",
    "ASK_TIMEOUT_RULE",
    "OPTION_REST",
    "OPTION_SHAPE",
    "OPTION_SHOWN",
    "Argument",
    "Call",
    "Excluded",
    "Param",
    "Problem",
    "Signature",
    "ask_option_problem",
    "ask_signature",
    "ask_timeout_ok",
    "call_arguments",
    "option_name",
    "read_call",
    "reserved_options",
    "signature",
    "signatures",
]

OPTION_REST = PROPERTY_NAME_FIRST + "0123456789_-"
"""The characters of an option's NAME after its first, a lowercase letter."""
OPTION_SHAPE = re.compile(f"--[{PROPERTY_NAME_FIRST}][{re.escape(OPTION_REST)}]*")
"""What an argument must look like to be read as an option (known or not)."""
OPTION_SHOWN = 32
"""How many characters of an unknown option's NAME its error message shows."""
HELP = "--help"
END = "--"


@dataclass(frozen=True)
class Param:
    """One field a helper takes: a positional argument or an option."""

    name: str
    option: str | None
    """Its spelling (``--path``), or None for a positional argument."""
    repeatable: bool
    """An array: the option is given once per item."""
    required: bool
    scalar: str
    """The JSON type of the value (of each item): string, integer or boolean."""
    help: str
    """The schema's description of the field."""
    checks: tuple[Check, ...]
    array_checks: tuple[Check, ...] = ()
    unique: bool = False
    in_payload: bool = True
    """False for an option of the helper itself (bernstein_ask's --var), not a field."""
    unique_message: str = ""
    """What a duplicate item is told, for an array whose items must differ."""
    value: str = "VALUE"
    """How usage lines name an option's value (``--timeout SECONDS``)."""

    @property
    def metavar(self) -> str:
        return self.name.upper()

    @property
    def label(self) -> str:
        """How messages name it: ``MARKDOWN`` or ``--path``."""
        return self.option or self.metavar


class Excluded(NamedTuple):
    """A field a helper does not take, with why (as ``--help`` says it)."""

    name: str
    reason: str
    help: str


@dataclass(frozen=True)
class Signature:
    """What ``bernstein_<kind>`` takes; ``unavailable`` says why it cannot emit at all."""

    kind: str
    snake: str
    description: str
    positionals: tuple[Param, ...]
    options: tuple[Param, ...]
    python_only: tuple[Excluded, ...] = ()
    stamped: tuple[Excluded, ...] = ()
    """Optional fields with role vocabulary-version: always the library's version."""
    unavailable: str = ""

    @property
    def function(self) -> str:
        return f"bernstein_{self.snake}"

    @property
    def params(self) -> tuple[Param, ...]:
        return self.positionals + self.options

    def option(self, spelling: str) -> Param | None:
        return next((p for p in self.options if p.option == spelling), None)


def signature(kind: Kind) -> Signature:
    """The helper of ``kind``: which fields are positional, which options, which left out."""
    positional: dict[str, Param] = {}
    options: list[Param] = []
    python_only: list[Excluded] = []
    stamped: list[Excluded] = []
    for prop in kind.properties:
        if prop.role == VERSION_ROLE and not prop.required:
            stamped.append(Excluded(prop.name, "", prop.description))
            continue
        try:
            rules = field_rules(prop)
        except PythonOnly as exc:
            python_only.append(Excluded(prop.name, exc.reason, prop.description))
            continue
        is_positional = prop.required and not prop.is_array
        param = Param(
            name=prop.name,
            option=None if is_positional else f"--{prop.name}",
            repeatable=prop.is_array,
            required=prop.required,
            scalar=rules.scalar,
            help=prop.description,
            checks=rules.checks,
            array_checks=rules.array_checks,
            unique=rules.unique,
            unique_message=rules.unique_message,
        )
        if is_positional:
            positional[prop.name] = param
        else:
            options.append(param)
    unavailable = kind_refusal(kind)
    missing = [e.name for e in python_only if kind.property(e.name).required]
    if missing and not unavailable:
        unavailable = f"required field(s) {', '.join(missing)} cannot be shell arguments"
    return Signature(
        kind=kind.name,
        snake=kind.snake,
        description=kind.description,
        positionals=tuple(positional[name] for name in kind.required if name in positional),
        options=tuple(options),
        python_only=tuple(python_only),
        stamped=tuple(stamped),
        unavailable=unavailable,
    )


ASK_OPTIONS = ("var", "timeout")
"""bernstein_ask's own options (its ``_bsig_do_ask`` takes them out before the question's)."""
_ASK_VALUES = ("NAME", "SECONDS")
"""How bernstein_ask's usage names the value of each of its ASK_OPTIONS."""
ASKED_KIND = "question"
"""The kind (by snake name) whose helper bernstein_ask calls, with its own options first."""


def reserved_options(kind: Kind) -> tuple[str, ...]:
    """Option names no property of ``kind`` may take: --help on every helper, and
    bernstein_ask's own on the kind it asks (it would take them out of the call)."""
    return (HELP[2:], *(ASK_OPTIONS if kind.snake == ASKED_KIND else ()))


ASK_TIMEOUT_MAX = 2147
"""bernstein_ask's largest --timeout in seconds: its microseconds fit mksh's 32-bit arithmetic."""
ASK_TIMEOUT_DECIMALS = 6
"""The most digits after the point of --timeout (the clock counts microseconds)."""
ASK_TIMEOUT_DIGITS = len(str(ASK_TIMEOUT_MAX))
ASK_TIMEOUT_RULE = (
    f"a number of seconds from 0 to {ASK_TIMEOUT_MAX}"
    f" (no leading zero, at most {ASK_TIMEOUT_DECIMALS} decimals)"
)
"""What a --timeout value must be, as the helper's message says it."""
_ASK_TIMEOUT = re.compile(
    rf"(0|[1-9][0-9]{{0,{ASK_TIMEOUT_DIGITS - 1}}})(\.[0-9]{{1,{ASK_TIMEOUT_DECIMALS}}})?"
)


_ASK_VAR = re.compile(r"(?!_bsig_)[A-Za-z_][A-Za-z0-9_]*")
"""A --var NAME bernstein_ask sets: an identifier outside the library's own ``_bsig_*``."""


def ask_option_problem(name: str, value: str) -> str | None:
    """bernstein_ask's message refusing ``--NAME VALUE`` for one of its own options, or None."""
    if name == "timeout" and not ask_timeout_ok(value):
        return f"--timeout: '{value}' is not {ASK_TIMEOUT_RULE}"
    if name == "var" and _ASK_VAR.fullmatch(value) is None:
        return f"--var: '{value}' is not a variable name this function may set"
    return None


def ask_timeout_ok(value: str) -> bool:
    """Whether bernstein_ask takes ``value`` as its --timeout (``_bsig_seconds``)."""
    found = _ASK_TIMEOUT.fullmatch(value)
    if found is None:
        return False
    whole = int(found[1])
    return whole < ASK_TIMEOUT_MAX or (
        whole == ASK_TIMEOUT_MAX and not (found[2] or "").strip(".0")
    )


def ask_signature(question: Signature) -> Signature:
    """bernstein_ask: the question's arguments plus its own options, read by the same rule."""
    own = tuple(
        Param(name, f"--{name}", False, False, "string", "", (), in_payload=False, value=value)
        for name, value in zip(ASK_OPTIONS, _ASK_VALUES, strict=True)
    )
    return replace(question, snake="ask", options=own + question.options)


def signatures(vocabulary: Vocabulary) -> dict[str, Signature]:
    """Every kind's signature by helper name (``bernstein_plan_draft``)."""
    return {sig.function: sig for sig in map(signature, vocabulary.kinds)}


def option_name(argument: str) -> str | None:
    """The NAME of ``argument`` when it has the option shape ``--NAME``, else None (a value)."""
    return argument[2:] if OPTION_SHAPE.fullmatch(argument) else None


class Problem(NamedTuple):
    """Why a helper would refuse a call: ``what`` names the rule, ``at`` the argument's index."""

    what: str
    """unknown-option, needs-value, given-twice, too-many, after-end or missing."""
    at: int
    """The index of the argument it is about (-1 for missing: the call as a whole)."""
    message: str


@dataclass
class Call:
    """A helper call as the helper reads it: each field's value arguments, by index."""

    values: dict[str, list[int]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    help: bool = False
    """The call asks for --help: it prints the help and emits nothing."""


def read_call(sig: Signature, arguments: Sequence[str | None]) -> Call:
    """Read ``arguments`` (None: a value the script computes) by the convention.

    Stops at the first problem, as the helper does (it refuses the call with
    status 2 and prints nothing); ``missing`` is reported only when no argument
    breaks the convention. Values are not checked here: the helper checks them
    only after all of this (the order in this module's docstring).
    """
    call = Call()
    pending = list(sig.positionals)
    ended = False
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        name = None if ended or argument is None else option_name(argument)
        if not ended and argument == END:
            ended = True
        elif not ended and argument == HELP:
            return Call(help=True)
        elif name is not None:
            param = sig.option(f"--{name}")
            if param is None:
                call.problems.append(Problem("unknown-option", index, unknown_option(sig, name)))
                return call
            if index + 1 == len(arguments):
                call.problems.append(Problem("needs-value", index, f"{argument} needs a value"))
                return call
            if not param.repeatable and param.name in call.values:
                call.problems.append(Problem("given-twice", index, f"{argument} given twice"))
                return call
            call.values.setdefault(param.name, []).append(index + 1)
            index += 1
        elif pending:
            call.values[pending.pop(0).name] = [index]
        else:
            call.problems.append(_too_many(sig, argument, ended, index))
            return call
        index += 1
    if pending:
        names = " ".join(p.metavar for p in pending)
        call.problems.append(Problem("missing", -1, f"missing argument(s): {names}"))
    return call


def unknown_option(sig: Signature, name: str) -> str:
    """The message for ``--NAME``, NAME cut to :data:`OPTION_SHOWN` characters."""
    shown = name if len(name) <= OPTION_SHOWN else name[:OPTION_SHOWN] + "..."
    known = ", ".join(p.option or "" for p in sig.options)
    return f"unknown option --{shown} ({f'options: {known}' if known else 'it takes no option'})"


def _too_many(sig: Signature, argument: str | None, ended: bool, index: int) -> Problem:
    if ended and argument is not None and sig.option(argument) is not None:
        return Problem("after-end", index, f"{argument} after --: options go before --")
    if not sig.positionals:
        return Problem("too-many", index, "takes no positional argument")
    return Problem("too-many", index, "too many arguments")


class Argument(NamedTuple):
    """One word of a helper call: ``field`` names the field whose value it is ('' for syntax)."""

    text: str
    field: str = ""


def call_arguments(sig: Signature, payload: Mapping[str, JSONValue]) -> list[Argument] | None:
    """The arguments that make the helper print ``payload``; None when none can.

    The inverse of :func:`read_call`: only string fields the helper takes, every
    positional given. Options come first, then ``--``, then the positionals:
    a value the script computes (``"$q"``) may read as an option at run time,
    so no positional is ever left where an option could be.
    """
    params = {p.name: p for p in sig.params}
    if sig.unavailable or any(key not in params for key in payload):
        return None
    options: list[Argument] = []
    for param in sig.options:
        value = payload.get(param.name)
        items = value if param.repeatable and isinstance(value, list) else [value]
        if param.name not in payload or (param.repeatable and not items and param.required):
            continue
        texts = [item for item in items if isinstance(item, str)]
        if not items or len(texts) != len(items) or param.scalar != "string":
            return None
        for text in texts:
            options += [Argument(param.option or ""), Argument(text, param.name)]
    values = [payload.get(p.name) for p in sig.positionals]
    if any(not isinstance(v, str) for v in values) or any(
        p.scalar != "string" for p in sig.positionals
    ):
        return None
    positional = [Argument(str(v), p.name) for p, v in zip(sig.positionals, values, strict=True)]
    return [*options, *([Argument(END)] if positional else []), *positional]
