"""Every shell helper's ``--help`` text: the kinds' from their signatures, the fixed ones as data.

The shell emitter writes these texts into the library; the language server
shows the same texts on hover, so both read them here.
"""

from __future__ import annotations

import sys
import textwrap
from typing import NamedTuple

from .model import Vocabulary
from .roles import ROLES, role_field
from .shell_signature import ASK_TIMEOUT_RULE, ASKED_KIND, Signature, ask_signature, signatures

__all__ = [
    "FIXED_HELPERS",
    "FLOAT_DIGITS",
    "FLOAT_EXPONENT_MIN",
    "MAX_SORTED_MEMBERS",
    "FixedHelper",
    "emit_markers",
    "fixed_help",
    "help_text",
    "help_texts",
    "role_markers",
    "usage",
]


FLOAT_DIGITS = sys.float_info.dig
"""The most significant digits a ``key:=JSON`` double may have: a decimal of at
most this many digits reads back unchanged from its double (in the normal
range), so its own digits are Number::toString's shortest ones."""
FLOAT_EXPONENT_MIN = sys.float_info.min_10_exp
"""A nonzero ``key:=JSON`` double below 10^this in size is refused: near the
subnormal range doubles hold fewer digits."""
MAX_SORTED_MEMBERS = 64
"""The most members a ``key:=JSON`` object may have with its keys out of
order: the shell sorts them by insertion, so the cost stays bounded."""


class FixedHelper(NamedTuple):
    """A helper of the template (its ``_bsig_do_NAME``), with its ``--help`` text."""

    name: str
    quiet: bool
    """Whether it runs in the helpers' own locale and zsh options. bernstein_run runs
    the caller's command as the caller would; bernstein_guard sets traps that must
    outlive it."""
    help: str
    """The text, with ``@ROLE_CONSTANT@`` markers for the role fields it names and
    ``@PREFIX@`` for the grammar's prefix."""


FIXED_HELPERS = (
    FixedHelper(
        "emit",
        True,
        """Usage: bernstein_emit [--known] KIND [key=value | key:=JSON]...
       bernstein_emit [--known] KIND :=JSON

Emit @PREFIX@KIND with the given fields, for any kind and for extras.
key=value makes a JSON string. key:=JSON takes one JSON value on one line
and writes it in the canonical form, as format_signal does: no white space,
strings re-escaped, object keys sorted by UTF-16 code units at every depth
(a key twice is refused; an object of more than @MAX_SORTED_MEMBERS@ members
must come sorted), integers as their digits (-0 is 0), numbers with a
fraction or an exponent as doubles (1.0 is 1, 1e21 is 1e+21). A double is
written exactly when it has at most @FLOAT_DIGITS@ significant digits and is
zero or at least 1e@FLOAT_EXPONENT_MIN@ in size; any other is refused: write
at most @FLOAT_DIGITS@ digits, or an integer. :=JSON alone (no key) is the
whole payload: one JSON object, {} included. Keys of key=value and
key:=JSON are lower_snake_case, at most once each. With no field the line
has no payload.

--known refuses a KIND this library does not know, and checks the JSON type
of each field the kind's schema declares. Known kinds:
  @KIND_NAMES_LIST@
Without --known any ALL-CAPS KIND is written, for kinds newer than the
library. The payload's other rules (lengths, patterns, required fields) are
not checked: the kind's own function does that.""",
    ),
    FixedHelper(
        "run",
        False,
        """Usage: bernstein_run CMD [ARG]...

Run CMD with its output untouched, then emit COMPLETED if it exits 0, or
FAILED with reason "exit N"; return CMD's exit status. CMD runs as the
condition of an if, so `set -e` does not apply inside a shell function CMD.
A shell cannot see CMD's output: it cannot tell whether CMD printed a
terminal signal itself or ended without a newline (the signal would then be
glued to its last line). `bernstein-signals wrap` can.""",
    ),
    FixedHelper(
        "ask",
        True,
        """Usage: @ASK_USAGE@

Emit a QUESTION (arguments as for bernstein_question, options by the same
rule), then read reply lines {"@REPLY_IN_REPLY_TO@": ..., "@REPLY_ANSWER@": ...} from stdin.
With --@QUESTION_ID@, the first reply whose @REPLY_IN_REPLY_TO@ is ID is taken; without,
the first whose @REPLY_IN_REPLY_TO@ is null. Other replies, and lines that are not
a reply (blank, garbage), are skipped with a note each on stderr. The answer
is decoded and stored in the variable NAME (default BERNSTEIN_ANSWER), never
printed. --timeout bounds the whole wait, skipped lines included; SECONDS is
"""
        + ASK_TIMEOUT_RULE
        + """.
An option given twice is refused. Status: 1 end of input or timeout, 2 bad
arguments, with a message on stderr. --timeout needs a shell whose read has -t (not dash).
A NUL byte in a line: zsh skips the line with a note (as Python's ask() does);
the read of bash, dash, ksh93, mksh and busybox drops the byte unseen, so
there a reply "a<NUL>b" gives the answer "ab".""",
    ),
    FixedHelper(
        "guard",
        False,
        """Usage: bernstein_guard

Make sure the script ends with a terminal signal: at exit, when no helper has
emitted COMPLETED or FAILED, emit COMPLETED (status 0) or FAILED "exit N",
also when `set -e` aborts the script; on INT or TERM emit FAILED "signal INT"
or "signal TERM" and exit 130 or 143. Never emits a second terminal. Signals
printed by subshells or child programs are invisible to it. Sets the EXIT,
INT and TERM traps: call it after setting your own traps (bash and ksh93 keep
an existing EXIT trap and run it after; other shells replace it).""",
    ),
)


def role_markers(vocabulary: Vocabulary) -> dict[str, str]:
    """``@QUESTION_ID@`` and the like: the field names the fixed helpers use,
    plus bernstein_emit's values (:func:`emit_markers`).

    A field name is lower_snake_case (load checks it), a word that needs no
    quoting in a case pattern, an option or a JSON key. The shell emitter
    applies these markers to the whole library and to the fixed helpers' help.
    """
    markers = emit_markers(vocabulary)
    for role in ROLES:
        found = role_field(vocabulary, role.document, role.name)
        if found is not None:
            markers[f"@{role.constant}@"] = found
    return markers


def emit_markers(vocabulary: Vocabulary) -> dict[str, str]:
    """bernstein_emit's values: the known kinds and their fields' JSON types
    (``--known``), and the canonical number and key-order rules of ``key:=JSON``.

    Kind names are ALL-CAPS, field names lower_snake_case and types JSON
    Schema's type names (load checks them): words that need no quoting in a
    case pattern nor in single quotes.
    """
    names = sorted(kind.name for kind in vocabulary.kinds)
    return {
        "@KIND_NAMES_CASE@": " | ".join(names),
        "@KIND_NAMES_LIST@": ", ".join(names),
        "@FLOAT_DIGITS@": str(FLOAT_DIGITS),
        "@FLOAT_EXPONENT_MIN@": str(FLOAT_EXPONENT_MIN),
        "@MAX_SORTED_MEMBERS@": str(MAX_SORTED_MEMBERS),
        "@KIND_FIELD_TYPES@": "\n".join(
            f"    {kind.name}.{prop.name}) _bsig_y=' {' '.join(prop.types)} ' ;;"
            for kind in sorted(vocabulary.kinds, key=lambda kind: kind.name)
            for prop in kind.properties
            if prop.types
        ),
    }


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(
        text, width=78, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    ) or [indent]


def usage(sig: Signature) -> str:
    words = [sig.function]
    if sig.unavailable:
        return " ".join([*words, "--help"])
    words += [param.metavar for param in sig.positionals]
    for param in sig.options:
        option = f"{param.option} {param.value}"
        if param.repeatable:
            words.append(f"{option}..." if param.required else f"[{option}]...")
        else:
            words.append(f"[{option}]")
    return " ".join(words)


_EMIT_NOTE = (
    "bernstein_emit {kind} key=value key:=JSON... reaches every field (it does not check the"
    " payload against the schema)."
)
_RULE = (
    "An argument is an option only if it is one of the --NAME options below; any other"
    " --name of that shape (a lowercase letter, then lowercase letters, digits, _ or -) is"
    " refused as an unknown option; anything else"
    " (-3, ---, - step, several lines) is a value. -- ends the options."
)


def help_text(sig: Signature, version: str) -> str:
    lines = [f"Usage: {usage(sig)}", ""]
    lines += _wrap(f"Emit {sig.kind}. {sig.description}", "")
    if sig.unavailable:
        lines += ["", *_wrap(f"Not available in shell: {sig.unavailable}.", "")]
        lines += _wrap(_EMIT_NOTE.format(kind=sig.kind), "")
    elif sig.params:
        lines += ["", *([*_wrap(_RULE, ""), ""] if sig.options else []), "Arguments:"]
    for param in () if sig.unavailable else sig.params:
        name = f"{param.option} VALUE" if param.option else param.metavar
        if param.repeatable:
            name += " (repeat for each item"
            name += "; none gives [])" if param.required else ")"
        rules = list(
            dict.fromkeys([param.scalar] + [c.message for c in param.checks + param.array_checks])
        )
        if param.unique:
            rules.append("no item twice")
        lines.append(f"  {name}")
        lines += _wrap(f"{'; '.join(rules)}. {param.help}", "      ")
    if sig.stamped and not sig.unavailable:
        lines += ["", "Filled by the library (not options here):"]
        for stamped in sig.stamped:
            lines.append(f"  {stamped.name}")
            lines += _wrap(
                f"always {version}, the vocabulary version of this library;"
                f" bernstein_emit {sig.kind} writes any other value or none. {stamped.help}",
                "      ",
            )
    if sig.python_only:
        lines += ["", "Python-only fields (not options here):"]
        for excluded in sig.python_only:
            lines.append(f"  {excluded.name}")
            lines += _wrap(f"{excluded.reason}. {excluded.help}", "      ")
        if not sig.unavailable:
            lines += _wrap(_EMIT_NOTE.format(kind=sig.kind), "")
    return "\n".join(line.rstrip() for line in lines)


def fixed_help(helper: FixedHelper, vocabulary: Vocabulary) -> str:
    """A fixed helper's text with the vocabulary's role fields and prefix in place."""
    text = helper.help
    markers = {**role_markers(vocabulary), "@PREFIX@": vocabulary.grammar.prefix}
    asked = signatures(vocabulary).get(f"bernstein_{ASKED_KIND}")
    if asked is not None:  # bernstein_ask's usage: the question's, with its own options
        markers["@ASK_USAGE@"] = usage(ask_signature(asked))
    for marker, value in markers.items():
        text = text.replace(marker, value)
    return text


def help_texts(vocabulary: Vocabulary) -> dict[str, str]:
    """Every helper's ``--help`` text by function name, as the library prints it."""
    texts = {f"bernstein_{h.name}": fixed_help(h, vocabulary) for h in FIXED_HELPERS}
    for name, sig in signatures(vocabulary).items():
        texts[name] = help_text(sig, vocabulary.version)
    return texts
