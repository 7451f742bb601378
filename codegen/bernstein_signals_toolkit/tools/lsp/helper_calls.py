"""Calls of the shell helpers: checked, and written, with the helpers' own signature model.

A call is read by :func:`..shell_signature.read_call`, the calling convention
the library's argument parser follows, so the server and the helper agree on
what each argument is; a hand-written signal is rewritten with its inverse,
:func:`..shell_signature.call_arguments`.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

from bernstein_signals_toolkit.generator.model import JSONValue
from bernstein_signals_toolkit.generator.names import PROPERTY_NAME
from bernstein_signals_toolkit.generator.shell_help import help_texts
from bernstein_signals_toolkit.generator.shell_signature import (
    Signature,
    ask_option_problem,
    ask_signature,
    call_arguments,
    read_call,
    signatures,
)
from bernstein_signals_toolkit.toolkit_errors import ToolkitError

from ..runtime_vocabulary import RuntimeVocabulary, built_in
from ..validate import CODES
from ..validate.lines import close_match, near_kind
from ._shell import (
    PLACEHOLDER,
    UNKNOWN,
    Command,
    Origin,
    Word,
    commands,
    render_echo,
    render_printf,
)
from .findings import Finding

__all__ = ["helper_call", "helper_names", "helper_usage", "rewrite_as_helper", "rewrite_line"]


# ---------------------------------------------------------------------------
# Helper calls
# ---------------------------------------------------------------------------


_SIGNATURES: dict[str, dict[str, Signature]] = {}
"""Signatures by vocabulary digest (built once per vocabulary)."""
_HELP_TEXTS: dict[str, dict[str, str]] = {}
"""Help texts by vocabulary digest."""


def _signatures(runtime: RuntimeVocabulary) -> dict[str, Signature]:
    found = _SIGNATURES.get(runtime.digest)
    if found is None:
        found = _SIGNATURES[runtime.digest] = signatures(runtime.model())
    return found


def _call_signature(name: str, runtime: RuntimeVocabulary) -> Signature | None:
    """The signature a call of ``name`` is read with: a kind's helper, or bernstein_ask."""
    kinds = _signatures(runtime)
    if name == "bernstein_ask" and "bernstein_question" in kinds:
        return ask_signature(kinds["bernstein_question"])
    return kinds.get(name)


def _help_texts(runtime: RuntimeVocabulary | None = None) -> dict[str, str]:
    runtime = runtime or built_in()
    found = _HELP_TEXTS.get(runtime.digest)
    if found is None:
        try:
            found = help_texts(runtime.model())
        except ToolkitError:  # a vocabulary the shell library cannot carry has no helpers
            found = {}
        _HELP_TEXTS[runtime.digest] = found
    return found


def helper_names(runtime: RuntimeVocabulary | None = None) -> list[str]:
    """Every function of the generated shell library, sorted."""
    return sorted(_help_texts(runtime))


def helper_usage(name: str, runtime: RuntimeVocabulary | None = None) -> str | None:
    """A helper's ``--help`` text, exactly as the shell library prints it."""
    return _help_texts(runtime).get(name)


def _finding(word: Word, end_word: Word, code: str, message: str) -> Finding:
    return Finding(
        word.line, word.start, end_word.line, end_word.end, code, CODES[code].severity, message
    )


_PROBLEM_CODES = {
    "unknown-option": "BS501",
    "needs-value": "BS502",
    "missing": "BS502",
    "too-many": "BS503",
    "given-twice": "BS503",
    "after-end": "BS503",
}
"""The diagnostic for each way a call breaks the calling convention (shell_signature.Problem)."""


def _unknown_helper(head: Word, name: str, runtime: RuntimeVocabulary) -> list[Finding]:
    # Edit distance over the part after "bernstein_", which every helper shares:
    # bernstein_completd is close to bernstein_completed, bernstein_q to nothing.
    helper = "bernstein_"
    suffixes = tuple(h.removeprefix(helper) for h in helper_names(runtime))
    near = near_kind(name.removeprefix(helper), suffixes)
    hint = f"; did you mean {helper + near}?" if near is not None else ""
    return [_finding(head, head, "BS504", f"no helper named {name}{hint}")]


def helper_call(command: Command, runtime: RuntimeVocabulary) -> list[Finding]:
    """The call read by the calling convention of its signature, as the helper reads it."""
    head, arguments = command.words[0], command.words[1:]
    name = head.literal or ""
    sig = _call_signature(name, runtime)
    if sig is None:
        return [] if name in _help_texts(runtime) else _unknown_helper(head, name, runtime)
    # From the first word that may be zero or several arguments ("$@", $x) on,
    # no argument's place is known: the call is read up to it, and a missing
    # positional or an option's value may still come from it.
    cut = next((index for index, word in enumerate(arguments) if word.spread), len(arguments))
    call = read_call(sig, [word.literal for word in arguments[:cut]])
    if cut < len(arguments):
        call.problems = [p for p in call.problems if p.what not in ("missing", "needs-value")]
    if call.help:
        return []
    if sig.unavailable:
        message = f"{name} is not available in shell: {sig.unavailable}; use bernstein_emit"
        return [_finding(head, head, "BS504", message)]
    findings = []
    for problem in call.problems:
        code = _PROBLEM_CODES[problem.what]
        if problem.at < 0:
            usage = (helper_usage(name, runtime) or name).splitlines()[0].removeprefix("Usage: ")
            last = arguments[-1] if arguments else head
            message = f"{name}: {problem.message} (usage: {usage})"
            findings.append(_finding(head, last, code, message))
            continue
        word = arguments[problem.at]
        hint = ""
        if problem.what == "unknown-option" and word.literal is not None:
            options = [param.option or "" for param in sig.options]
            guess = close_match(word.literal, options)
            hint = f"; did you mean {guess}?" if guess else ""
        findings.append(_finding(word, word, code, f"{name}: {problem.message}{hint}"))
    return findings + _helper_payload(sig, call.values, arguments, runtime)


def _helper_payload(
    sig: Signature,
    values: dict[str, list[int]],
    arguments: list[Word],
    runtime: RuntimeVocabulary,
) -> list[Finding]:
    """Check the literal values against the schema; unknown values are left alone."""
    payload: dict[str, JSONValue] = {}
    where: dict[str, Word] = {}
    params = {param.name: param for param in sig.params}
    findings = []
    for name, indexes in values.items():
        if not params[name].in_payload:
            # bernstein_ask's own options: refused by the helper before the fields.
            for word in (arguments[index] for index in indexes):
                problem = None if word.literal is None else ask_option_problem(name, word.literal)
                if problem is not None:
                    message = f"{sig.function}: {problem}"
                    findings.append(_finding(word, word, "BS502", message))
            continue
        words = [arguments[index] for index in indexes]
        texts = [w.literal if w.literal is not None else PLACEHOLDER for w in words]
        repeatable = params[name].repeatable
        payload[name] = [*texts] if repeatable else texts[-1]
        for index, word in enumerate(words):
            where[f"/{name}/{index}" if repeatable else f"/{name}"] = word
            where.setdefault(f"/{name}", word)
    for error in runtime.validate_payload(sig.kind, payload):
        value = where.get(error.pointer)
        if value is None or value.literal is None:
            continue
        findings.append(
            _finding(
                value,
                value,
                "BS101",
                f"{sig.kind} payload at {error.pointer}: {error.message} [{error.rule}]",
            )
        )
    return findings


# ---------------------------------------------------------------------------
# Rewriting a hand-written signal as a helper call
# ---------------------------------------------------------------------------


def _unknown_sources(script_line: str, origins: list[Origin], line: str) -> Iterator[str]:
    for char, origin in zip(line, origins, strict=True):
        if char == UNKNOWN:
            yield script_line[origin.start : origin.end]


def _shell_value(value: str | None, sources: Iterator[str]) -> str:
    """A shell word for a JSON string value whose U+FFFF chars stand for expansions."""
    if value is None:
        return "''"
    if UNKNOWN not in value:
        return shlex.quote(value)
    out = []
    for char in value:
        if char == UNKNOWN:
            source = next(sources)
            out.append(source if source.startswith("$") else f"$({source.strip('`')})")
        else:
            out.append("\\" + char if char in '"\\$`' else char)
    return '"' + "".join(out) + '"'


def _helper_words(
    sig: Signature, payload: dict[str, JSONValue], sources: list[str], runtime: RuntimeVocabulary
) -> list[str] | None:
    """The helper call printing ``payload``; None when no call can say it exactly."""
    per_key: dict[str, Iterator[str]] = {}
    cursor = 0
    for key, value in payload.items():  # textual order, like ``sources``
        count = json.dumps(value, ensure_ascii=False).count(UNKNOWN)
        per_key[key] = iter(sources[cursor : cursor + count])
        cursor += count
    if cursor != len(sources):
        return None  # an unknown key, or a duplicate key hiding an unknown value
    # A call must print what the line prints: a helper refuses a key that is
    # not a property name and a payload the schema refuses (the line does not).
    if any(PROPERTY_NAME.fullmatch(key) is None for key in payload):
        return None
    if runtime.validate_payload(sig.kind, payload):
        return None
    arguments = call_arguments(sig, payload)
    if arguments is not None:
        return [
            sig.function,
            *(
                _shell_value(arg.text, per_key[arg.field]) if arg.field else arg.text
                for arg in arguments
            ),
        ]
    words = ["bernstein_emit", sig.kind]
    for key, value in payload.items():
        if isinstance(value, str):
            words.append(_shell_value(f"{key}={value}", per_key[key]))
            continue
        raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        if UNKNOWN in raw:
            return None
        words.append(shlex.quote(f"{key}:={raw}"))
    return words


def rewrite_as_helper(
    text: str, line_no: int, runtime: RuntimeVocabulary | None = None
) -> list[tuple[int, int, int, str]]:
    """(line, start, end, new text) for each printf/echo signal on the line that can be rewritten.

    Only a command that prints exactly one signal line, newline included, is
    rewritten, so the script prints the same bytes afterwards.
    """
    lines = text.split("\n")
    return rewrite_line(lines[line_no], line_no, runtime) if 0 <= line_no < len(lines) else []


def rewrite_line(
    script_line: str, line_no: int, runtime: RuntimeVocabulary | None = None
) -> list[tuple[int, int, int, str]]:
    """:func:`rewrite_as_helper` for one line's text, so a range of lines is split only once."""
    runtime = runtime or built_in()
    by_kind = {sig.kind: sig for sig in _signatures(runtime).values()}
    rewrites = []
    for command in commands(script_line):
        if command.name not in ("printf", "echo") or len(command.words) < 2:
            continue
        printer = render_printf if command.name == "printf" else render_echo
        printed = list(printer(command.words[1:]).lines())
        if command.name == "echo" and command.words[1].literal not in ("-n", "-ne", "-en"):
            printed.append(("", []))
        if len(printed) != 2 or printed[1][0]:
            continue
        line, origins = printed[0]
        signal = runtime.parse_signal(line)
        if signal is None or not (line.isprintable() or UNKNOWN in line):
            continue
        sources = list(_unknown_sources(script_line, origins, line))
        words = _helper_words(by_kind[str(signal.kind)], signal.payload, sources, runtime)
        if words is not None:
            first, last = command.words[0], command.words[-1]
            rewrites.append((line_no, first.start, last.end, " ".join(words)))
    return rewrites
