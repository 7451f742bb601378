"""What the language server says about a document, independent of the LSP plumbing.

Recorded output is checked exactly as ``validate`` checks it. Shell scripts
are read for signals their printf/echo commands would print and for calls of
the generated helpers. Positions here are 0-based lines and code-point
columns; the server converts them to UTF-16.

Diagnostics use the vocabulary of the ``vocabulary`` setting (a schema folder,
as ``--vocabulary`` takes), else the built-in one; :func:`runtime_vocabulary`
re-hashes the folder on every analysis, so an edit to it is seen at the next one.

A document gets at most ``max_diagnostics`` findings (setting ``maxDiagnostics``)
and then one closing notice saying how many were left out: a log of 200,000
near-miss lines would otherwise be one notification of 400,001 diagnostics
(over 100 MB of JSON) that the editor cannot use. Past the cap no finding is
built; the checks still run, to count, but a line whose text was checked before
is not checked again. ``validate`` keeps reporting everything.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES
from bernstein_signals_toolkit.generator.model import Vocabulary

from ..runtime_vocabulary import RuntimeVocabulary, built_in, compile_folder
from ..validate import CODES, Severity
from ..validate.codes import UNKNOWN_KINDS, select_codes
from ..validate.diagnostics import Diagnostic
from ..validate.lines import LineChecker, utf8_length
from ..validate.report import SeenSignal, conformance_report
from ._shell import PLACEHOLDER, UNKNOWN, Origin, commands, render_echo, render_printf
from .findings import Edit, Finding
from .helper_calls import helper_call, helper_names, helper_usage, rewrite_as_helper, rewrite_line

__all__ = [
    "DEFAULT_MAX_DIAGNOSTICS",
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

DEFAULT_MAX_DIAGNOSTICS = 3_000
"""Findings published per document by default (setting ``maxDiagnostics``)."""

_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".dash")
_SHEBANG = re.compile(r"#!\s*(?:/usr)?/bin/(?:env\s+)?(?:sh|bash|zsh|dash|ksh|mksh)\b")


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
    max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS
    """Findings published per document; past it one closing notice counts the rest."""

    @property
    def enabled(self) -> frozenset[str]:
        try:
            return select_codes(list(self.select), list(self.ignore))
        except ValueError:
            return frozenset(CODES)


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
    sink = _CappedFindings(lines, settings.max_diagnostics)
    report = conformance_report(
        lines,
        lenient=settings.lenient,
        enabled=settings.enabled,
        max_line_bytes=settings.max_line_bytes,
        vocabulary=runtime,
        unknown_kinds=_unknown_kinds(settings),
        sink=sink,
    )
    if report.signal_count == 0 and sink.only_missing_terminal:
        # Issue 16 item 12: a document without a signal or a near-miss is not a run at all
        # (any plain-text file the editor opens), so it gets no MissingTerminalSignal.
        return []
    return _closed(sink.findings, sink.left_out, settings.max_diagnostics)


class _CappedFindings:
    """A report sink: the first ``cap`` diagnostics as findings, the rest only counted."""

    def __init__(self, lines: list[str], cap: int) -> None:
        self.lines = lines
        self.cap = cap
        self.findings: list[Finding] = []
        self.left_out = 0
        self.only_missing_terminal = True

    @property
    def counting(self) -> bool:
        """Full: the checker may skip re-checking lines it has seen (``ReportSink``)."""
        return len(self.findings) >= self.cap

    def signal(self, seen: SeenSignal) -> None:
        pass

    def diagnostic(self, d: Diagnostic) -> None:
        if d.code != "BS301":
            self.only_missing_terminal = False
        if len(self.findings) >= self.cap:
            self.left_out += 1
            return
        line = d.line - 1
        edit = None
        if d.replacement is not None:
            width = len(self.lines[line]) if line < len(self.lines) else 0
            edit = Edit(line, 0, line, width, d.replacement)
        self.findings.append(
            Finding(line, d.start, line, max(d.end, d.start), d.code, d.severity, d.message, edit)
        )


def _closed(findings: list[Finding], left_out: int, cap: int) -> list[Finding]:
    """``findings`` (at most ``cap``), and past the cap one notice counting what was left out,
    where the last one published is."""
    if left_out <= 0:
        return findings
    last = findings[-1]
    more = f"{left_out:,} more diagnostic{'s' if left_out != 1 else ''}"
    notice = Finding(
        last.line,
        last.start,
        last.end_line,
        last.end,
        None,
        Severity.INFORMATION,
        f"{more} not shown: at most {cap:,} are published per document; raise the"
        " setting bernsteinSignals.maxDiagnostics to see more, or run"
        " `bernstein-signals validate` on the file for all of them",
    )
    return [*findings, notice]


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
            findings += helper_call(command, runtime)
    enabled = [f for f in findings if f.code in settings.enabled]
    cap = settings.max_diagnostics
    return _closed(enabled[:cap], len(enabled) - cap, cap)


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
    _, diagnostics = checker.check(line.replace(UNKNOWN, PLACEHOLDER), 1)
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
