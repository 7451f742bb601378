"""What the language server says about a document, independent of the LSP plumbing.

Recorded output is checked exactly as ``validate`` checks it. Shell scripts
are read for signals their printf/echo commands would print and for calls of
the generated helpers. Positions here are 0-based lines and code-point
columns; the server converts them to UTF-16.

Diagnostics use the vocabulary of the ``vocabulary`` setting (a schema folder,
as ``--vocabulary`` takes), else the built-in one; :func:`runtime_vocabulary`
re-hashes the folder on every analysis, so an edit to it is seen at the next one.
"""

from __future__ import annotations

import bisect
import json
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES

from ..errors import ToolkitError
from ..model import JSONValue, Vocabulary
from ..runtime_vocabulary import RuntimeVocabulary, built_in, compile_folder
from ..shell_help import help_texts
from ..shell_signature import Signature, call_arguments, read_call, signatures
from ..validate import CODES, Severity
from ..validate.codes import UNKNOWN_KINDS, select_codes
from ..validate.lines import LineChecker, close_match, near_kind, utf8_length
from ..validate.report import conformance_report
from ._shell import UNKNOWN, Command, Origin, Word, commands, render_echo, render_printf

__all__ = [
    "Edit",
    "Finding",
    "Settings",
    "analyse",
    "helper_names",
    "helper_usage",
    "is_shell_document",
    "rewrite_as_helper",
    "rewrite_line",
    "runtime_vocabulary",
    "vocabulary",
]

_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".dash")
_SHEBANG = re.compile(r"#!\s*(?:/usr)?/bin/(?:env\s+)?(?:sh|bash|zsh|dash|ksh|mksh)\b")
_PLACEHOLDER = "0"  # stands for an unknown value: valid in a JSON string and as a number


def vocabulary() -> Vocabulary:
    """The built-in vocabulary's sources (hover and completion read them)."""
    return built_in().model()


@dataclass(frozen=True)
class Settings:
    """Workspace settings (section ``bernsteinSignals``)."""

    lenient: bool = False
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    vocabulary: str | None = None
    """A schema folder replacing the built-in vocabulary (``--vocabulary``)."""
    unknown_kinds: str = "warning"

    @property
    def enabled(self) -> frozenset[str]:
        try:
            return select_codes(list(self.select), list(self.ignore))
        except ValueError:
            return frozenset(CODES)


class Edit(NamedTuple):
    """Replace the text from (line, start) to (end_line, end) with ``text``."""

    line: int
    start: int
    end_line: int
    end: int
    text: str


@dataclass(frozen=True)
class Finding:
    line: int
    start: int
    end_line: int
    end: int
    code: str
    severity: Severity
    message: str
    edit: Edit | None = None
    """The suggested fix, when one applies."""


def is_shell_document(uri: str, language_id: str | None, text: str) -> bool:
    if language_id in ("shellscript", "sh", "bash", "zsh"):
        return True
    if uri.endswith(_SHELL_SUFFIXES):
        return True
    return bool(_SHEBANG.match(text[:120]))


def runtime_vocabulary(settings: Settings) -> RuntimeVocabulary:
    """The settings' vocabulary, compiled (or taken from the cache when the folder is unchanged).

    Raises ToolkitError (one line) for a folder that cannot be read or compiled.
    """
    return built_in() if settings.vocabulary is None else compile_folder(settings.vocabulary)


def analyse(
    text: str,
    *,
    shell: bool,
    settings: Settings,
    vocabulary: RuntimeVocabulary | None = None,
) -> list[Finding]:
    """The document's findings against ``vocabulary`` (default: the settings' one)."""
    runtime = vocabulary or runtime_vocabulary(settings)
    if shell:
        return _shell_findings(text, settings, runtime)
    return _log_findings(text, settings, runtime)


def _unknown_kinds(settings: Settings) -> Severity | None:
    return UNKNOWN_KINDS.get(settings.unknown_kinds, Severity.WARNING)


# ---------------------------------------------------------------------------
# Recorded output
# ---------------------------------------------------------------------------


def _log_findings(text: str, settings: Settings, runtime: RuntimeVocabulary) -> list[Finding]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    report = conformance_report(
        lines,
        lenient=settings.lenient,
        enabled=settings.enabled,
        max_line_bytes=settings.max_line_bytes,
        vocabulary=runtime,
        unknown_kinds=_unknown_kinds(settings),
    )
    diagnostics = report.diagnostics
    if report.signal_count == 0 and all(d.code == "BS301" for d in diagnostics):
        # Issue 16 item 12: a document without a signal or a near-miss is not a run at all
        # (any plain-text file the editor opens), so it gets no MissingTerminalSignal.
        diagnostics = []
    findings = []
    for d in diagnostics:
        line = d.line - 1
        width = len(lines[line]) if line < len(lines) else 0
        edit = None
        if d.replacement is not None:
            edit = Edit(line, 0, line, width, d.replacement)
        findings.append(
            Finding(line, d.start, line, max(d.end, d.start), d.code, d.severity, d.message, edit)
        )
    return findings


# ---------------------------------------------------------------------------
# Shell scripts
# ---------------------------------------------------------------------------


def _shell_findings(text: str, settings: Settings, runtime: RuntimeVocabulary) -> list[Finding]:
    findings: list[Finding] = []
    checker = LineChecker(
        lenient=settings.lenient,
        enabled=settings.enabled,
        vocabulary=runtime,
        unknown_kinds=_unknown_kinds(settings),
    )
    for number, line in enumerate(text.split("\n")):
        if utf8_length(line) > settings.max_line_bytes:
            findings.append(
                Finding(number, 0, number, 1, "BS002", Severity.WARNING, "line too long to analyse")
            )
    long_lines = {finding.line for finding in findings}
    for command in commands(text):
        if command.words[0].line in long_lines:
            continue
        name = command.name
        if name in ("printf", "echo"):
            rendered = (render_printf if name == "printf" else render_echo)(command.words[1:])
            for line, origins in rendered.lines():
                findings += _printed_line(line, origins, checker)
        elif name is not None and name.startswith("bernstein_"):
            findings += _helper_call(command, runtime)
    return [f for f in findings if f.code in settings.enabled]


def _printed_line(line: str, origins: list[Origin], checker: LineChecker) -> list[Finding]:
    prefix = checker.vocabulary.prefix
    at = line.upper().find(prefix.upper())
    if at < 0:
        return []
    kind_end = at + len(prefix)
    while kind_end < len(line) and (line[kind_end].isalnum() or line[kind_end] == "_"):
        kind_end += 1
    if UNKNOWN in line[: kind_end + 1]:
        return []  # the script computes the kind itself: nothing is pinned down
    unknown = [index for index, char in enumerate(line) if char == UNKNOWN]
    _, diagnostics = checker.check(line.replace(UNKNOWN, _PLACEHOLDER), 1)
    findings = []
    for d in diagnostics:
        nearest = bisect.bisect_left(unknown, d.start)
        if nearest < len(unknown) and unknown[nearest] < d.end:
            continue  # an unknown value lies in the span: it could change the verdict
        start = origins[min(d.start, len(origins) - 1)]
        end = origins[min(max(d.end, d.start + 1), len(origins)) - 1]
        findings.append(
            Finding(
                start.line,
                start.start,
                end.line,
                end.end,
                d.code,
                d.severity,
                d.message,
                _literal_edit(line, origins, d.replacement),
            )
        )
    return findings


def _literal_edit(line: str, origins: list[Origin], replacement: str | None) -> Edit | None:
    """Replace the signal in the script itself, when it is one plain run of source text."""
    if replacement is None or UNKNOWN in line or not origins:
        return None
    first, last = origins[0], origins[-1]
    contiguous = all(
        o.line == first.line and o.start == first.start + i for i, o in enumerate(origins)
    )
    if not contiguous or any(c in replacement for c in "'\"\\%$`"):
        return None
    return Edit(first.line, first.start, last.line, last.end, replacement)


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


def _helper_call(command: Command, runtime: RuntimeVocabulary) -> list[Finding]:
    """The call read by the calling convention of its signature, as the helper reads it."""
    head, arguments = command.words[0], command.words[1:]
    name = head.literal or ""
    sig = _signatures(runtime).get(name)
    if sig is None:
        return [] if name in _help_texts(runtime) else _unknown_helper(head, name, runtime)
    call = read_call(sig, [word.literal for word in arguments])
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
    for name, indexes in values.items():
        words = [arguments[index] for index in indexes]
        texts = [w.literal if w.literal is not None else _PLACEHOLDER for w in words]
        repeatable = params[name].repeatable
        payload[name] = texts if repeatable else texts[-1]
        for index, word in enumerate(words):
            where[f"/{name}/{index}" if repeatable else f"/{name}"] = word
            where.setdefault(f"/{name}", word)
    findings = []
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
    sig: Signature, payload: dict[str, JSONValue], sources: list[str]
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
        words = _helper_words(by_kind[str(signal.kind)], signal.payload, sources)
        if words is not None:
            first, last = command.words[0], command.words[-1]
            rewrites.append((line_no, first.start, last.end, " ".join(words)))
    return rewrites
