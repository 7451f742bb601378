"""Every diagnostic code the validator can report: stable ids, names, severities and explanations.

Codes never change meaning once released; a retired code is not reused.
``BS0xx`` concern the line itself, ``BS1xx`` a payload against its schema,
``BS2xx`` near-misses that readers treat as plain stdout, ``BS3xx`` the stream,
``BS4xx`` a run that ``conform`` watched live (no recorded log can show them),
``BS5xx`` calls of the generated shell helpers (reported by the language server),
``BS6xx`` the fence (issue 17, ``spec/fenced-signals.md``): lines a run with a key
or an allow-list does not take as signals.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bernstein_signals.fence_rules import KIND_NOT_ALLOWED, REPLAYED_SIGNAL, UNAUTHENTICATED_SIGNAL

__all__ = ["CODES", "UNKNOWN_KINDS", "Code", "Severity", "lookup", "select_codes"]


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    severity: Severity
    summary: str
    """One line: what the code means."""
    explanation: str
    """Why it matters and how to fix it; shown by ``--explain`` and in SARIF help."""
    bad: str = ""
    good: str = ""


_CODES: tuple[Code, ...] = (
    Code(
        "BS001",
        "invalid-utf8",
        Severity.WARNING,
        "A signal-like line is not valid UTF-8.",
        "Signals are UTF-8. Readers decode each line before matching it, and a line that"
        " does not decode is plain output, so the orchestrator never sees this signal."
        " Make the adapter write UTF-8 (check its locale and any bytes it copies into"
        " the payload).",
        'BERNSTEIN:FAILED {"reason":"caf\\xe9"}   (Latin-1 byte)',
        'BERNSTEIN:FAILED {"reason":"café"}',
    ),
    Code(
        "BS002",
        "line-too-long",
        Severity.WARNING,
        "A line is longer than the reader's bound.",
        "Readers consume over-long lines in chunks without buffering them and never treat"
        " them as signals, so a signal on such a line is lost. The bound is configurable"
        " (--max-line-bytes, default 1 MiB). Hand over large content as a file (for plans,"
        " PLAN_READY with a path under .sdd/).",
    ),
    Code(
        "BS101",
        "payload-schema",
        Severity.ERROR,
        "A signal's payload fails the schema of its kind.",
        "The line is a signal (grammar and kind are right), but its payload breaks the"
        " kind's JSON Schema, so consumers may reject or misread it. The message names the"
        " field (a JSON pointer), the rule, and the schema's description of the field."
        " `bernstein-signals schema KIND` prints the schema.",
        'BERNSTEIN:QUESTION {"question":""}',
        'BERNSTEIN:QUESTION {"question":"Apply migration?"}',
    ),
    Code(
        "BS201",
        "prefix-case",
        Severity.WARNING,
        "The BERNSTEIN: prefix is in the wrong case.",
        "The prefix is case-sensitive: readers ignore `bernstein:` or `Bernstein:` as"
        " plain output, so the signal is silently lost.",
        "bernstein:COMPLETED",
        "BERNSTEIN:COMPLETED",
    ),
    Code(
        "BS202",
        "prefix-malformed",
        Severity.WARNING,
        "The prefix is not exactly `BERNSTEIN:` (a missing colon or a space before it).",
        "The prefix includes its colon with nothing between the word and the colon."
        " Anything else is plain output to every reader.",
        "BERNSTEIN COMPLETED",
        "BERNSTEIN:COMPLETED",
    ),
    Code(
        "BS203",
        "kind-case",
        Severity.WARNING,
        "A known kind written in the wrong case.",
        "Kinds are ALL-CAPS on the wire; readers do not fold case, so the line is plain output.",
        "BERNSTEIN:Completed",
        "BERNSTEIN:COMPLETED",
    ),
    Code(
        "BS204",
        "unknown-kind",
        Severity.WARNING,
        "The kind after the prefix is not in the vocabulary, on a line that is not well-formed.",
        "Readers only accept the vocabulary's kinds; an unknown one is plain output. The"
        " message suggests the closest known kind. This code is for lines that break the"
        " grammar anyway (a kind in lower case, no kind, other mistakes on the line); a"
        " well-formed line of an unknown kind is BS216. If the kind is new, add its schema"
        " to the vocabulary and regenerate.",
        "BERNSTEIN:Complete",
        "BERNSTEIN:COMPLETED",
    ),
    Code(
        "BS205",
        "separator-missing",
        Severity.WARNING,
        "The payload is glued to the kind, with no space between them.",
        "Exactly one space separates the kind from the payload. Without it, no reader"
        " (strict or lenient) accepts the line.",
        "BERNSTEIN:COMPLETED{}",
        "BERNSTEIN:COMPLETED {}",
    ),
    Code(
        "BS206",
        "separator-doubled",
        Severity.WARNING,
        "More than one space between the kind and the payload.",
        "Strict readers require exactly one space. Lenient readers accept the line, so it"
        " works with some orchestrators and is lost by others.",
        "BERNSTEIN:COMPLETED  {}",
        "BERNSTEIN:COMPLETED {}",
    ),
    Code(
        "BS207",
        "separator-not-space",
        Severity.WARNING,
        "The kind and the payload are separated by a tab or other whitespace.",
        "The separator is one ASCII space. Strict readers reject other whitespace; lenient"
        " readers accept it.",
        "BERNSTEIN:COMPLETED\t{}",
        "BERNSTEIN:COMPLETED {}",
    ),
    Code(
        "BS208",
        "stray-whitespace",
        Severity.WARNING,
        "Whitespace before the prefix, after the prefix or at the end of the line.",
        "A signal starts at column 0 and ends with its payload (or its kind). Indented"
        " output, a space after `BERNSTEIN:` or trailing blanks are accepted only by"
        " lenient readers.",
        "  BERNSTEIN:COMPLETED",
        "BERNSTEIN:COMPLETED",
    ),
    Code(
        "BS209",
        "payload-not-object",
        Severity.WARNING,
        "The payload is a JSON array, scalar or null instead of an object.",
        "A payload is always a JSON object; omit it entirely when there is nothing to"
        " say. Readers treat any other JSON value as plain output.",
        'BERNSTEIN:FAILED "exit 1"',
        'BERNSTEIN:FAILED {"reason":"exit 1"}',
    ),
    Code(
        "BS210",
        "malformed-json",
        Severity.WARNING,
        "The payload is not strict JSON.",
        "The payload must be an RFC 8259 JSON object on one line: double-quoted strings"
        " with JSON escapes only, no raw control characters, no trailing commas, only"
        " spaces and tabs as whitespace. The column points at the first error. Build"
        " payloads with a JSON library or the generated helpers, never by hand.",
        "BERNSTEIN:FAILED {'reason': 'x'}",
        'BERNSTEIN:FAILED {"reason":"x"}',
    ),
    Code(
        "BS211",
        "trailing-text",
        Severity.WARNING,
        "Text follows the payload object.",
        "Nothing may follow the closing brace of the payload; readers reject the whole line.",
        'BERNSTEIN:FAILED {"reason":"x"} (see log)',
        'BERNSTEIN:FAILED {"reason":"x (see log)"}',
    ),
    Code(
        "BS212",
        "non-finite-number",
        Severity.WARNING,
        "The payload holds NaN or Infinity.",
        "JSON has no NaN or Infinity; Python's json.dumps writes them unless"
        " allow_nan=False. Readers reject the line. Send null or a string instead.",
        'BERNSTEIN:COMPLETED {"score":NaN}',
        'BERNSTEIN:COMPLETED {"score":null}',
    ),
    Code(
        "BS213",
        "duplicate-key",
        Severity.WARNING,
        "An object in the payload has the same key twice.",
        "Duplicate keys are grammatical JSON and readers keep the last value, but other"
        " JSON libraries keep the first or fail, so consumers can disagree about the"
        " payload.",
        'BERNSTEIN:FAILED {"reason":"a","reason":"b"}',
        'BERNSTEIN:FAILED {"reason":"b"}',
    ),
    Code(
        "BS214",
        "prefix-mid-line",
        Severity.WARNING,
        "A signal appears in the middle of a line.",
        "Signals must start at column 0. Text before the prefix (a log prefix, a shell"
        " `echo` of a signal, output without a final newline before the signal) makes"
        " the line plain output. Print the signal on its own line.",
        "INFO BERNSTEIN:COMPLETED",
        "BERNSTEIN:COMPLETED",
    ),
    Code(
        "BS215",
        "json-limit",
        Severity.WARNING,
        "The payload is JSON but exceeds a documented limit of the readers.",
        "Readers refuse payloads they cannot represent faithfully: nesting deeper than"
        " their bound, integers over 4300 digits, numbers outside the double range, and"
        " lone surrogate escapes. Send such values as strings.",
        'BERNSTEIN:COMPLETED {"x":1e400}',
        'BERNSTEIN:COMPLETED {"x":"1e400"}',
    ),
    Code(
        "BS216",
        "kind-not-in-vocabulary",
        Severity.WARNING,
        "A well-formed signal line of a kind the vocabulary does not know.",
        "The line follows the grammar, but its kind is not one of the vocabulary's (the"
        " message lists them), so readers of this vocabulary treat it as plain output; its"
        " payload is checked against no schema. Usually the producer speaks a newer or"
        " forked vocabulary: check it with `--vocabulary DIR` (that vocabulary's schema"
        " folder), or add the kind's schema and regenerate. A misspelled kind gets a"
        " did-you-mean. `--unknown-kinds error|warning|ignore` sets how it is reported.",
        'BERNSTEIN:PROGRESS {"percent":40}',
        'BERNSTEIN:PROGRESS {"percent":40}   (validate --vocabulary fork/schema)',
    ),
    Code(
        "BS301",
        "missing-terminal",
        Severity.WARNING,
        "The run emitted no terminal signal (MissingTerminalSignal).",
        "Every adapter run should end with COMPLETED or FAILED. A missing terminal is a"
        " warning, not a failure, so adapters that have not adopted the vocabulary keep"
        " passing while the gap stays visible. Wrap the command with `bernstein-signals"
        " wrap` or use the shell helpers' bernstein_guard.",
    ),
    Code(
        "BS302",
        "signal-after-terminal",
        Severity.WARNING,
        "A signal follows a terminal signal.",
        "COMPLETED and FAILED end the run's lifecycle; orchestrators may stop reading or"
        " ignore what follows.",
    ),
    Code(
        "BS303",
        "multiple-terminals",
        Severity.WARNING,
        "The run emitted the same terminal signal more than once.",
        "One terminal signal per run: a wrapper and the tool it wraps both reporting"
        " completion is the usual cause. Only the first one counts.",
    ),
    Code(
        "BS304",
        "conflicting-terminals",
        Severity.ERROR,
        "The run emitted both COMPLETED and FAILED.",
        "The outcome of the run is ambiguous: consumers that take the first terminal and"
        " those that take the last disagree.",
    ),
    Code(
        "BS305",
        "question-id-reused",
        Severity.WARNING,
        "A QUESTION id is used twice in one run.",
        "Replies are routed by id; two questions with one id cannot both be answered"
        " correctly. Recorded stdout cannot show answers, so this is a warning here;"
        " `bernstein-signals conform`, which sees both sides, makes reuse while the first"
        " question is unanswered an error.",
    ),
    Code(
        "BS306",
        "plan-not-drafted",
        Severity.INFORMATION,
        "A PLAN_READY names a path that no PLAN_DRAFT announced.",
        "Plan handoff usually drafts the plan (PLAN_DRAFT with its path) before the file"
        " is ready. This is only information: drafting is optional.",
    ),
    Code(
        "BS307",
        "long-signal-line",
        Severity.INFORMATION,
        "A signal line is longer than 4096 bytes.",
        "POSIX guarantees atomic pipe writes only up to PIPE_BUF (4096 bytes on Linux); a"
        " longer line can interleave with other writers on the same pipe. Hand large"
        " content over as a file under .sdd/.",
    ),
    Code(
        "BS308",
        "tracking-limit",
        Severity.INFORMATION,
        "The run used more QUESTION ids or PLAN_DRAFT paths than the validator tracks.",
        "The validator keeps constant memory per run: it remembers at most 10,000"
        " distinct QUESTION ids and 10,000 PLAN_DRAFT paths. Past that, id reuse (BS305)"
        " and undrafted plans (BS306) are checked only against what it remembers. A run"
        " that asks this many questions is unusual; split the log per run.",
    ),
    Code(
        "BS401",
        "adapter-timeout",
        Severity.ERROR,
        "The adapter did not finish within conform's timeout.",
        "`bernstein-signals conform` gives a run --timeout seconds (default 600), then kills"
        " the adapter's whole process group. An adapter that hangs blocks its orchestrator:"
        " make sure it ends (with COMPLETED or FAILED) and does not wait for input that will"
        " not come; conform closes stdin once its scripted answers run out.",
    ),
    Code(
        "BS402",
        "adapter-interrupted",
        Severity.ERROR,
        "conform was interrupted (SIGINT, SIGTERM or SIGHUP) before the adapter finished.",
        "`bernstein-signals conform` forwards SIGINT, SIGTERM and SIGHUP to the adapter's"
        " whole process group, kills it a grace period later, and still writes its report"
        " with this error: the run was cut short, so its verdict covers only the output"
        " read until then. conform exits 128+N for signal N. Run it again to completion.",
    ),
    Code(
        "BS403",
        "question-unanswered",
        Severity.ERROR,
        "The adapter asked a QUESTION that conform's script had no answer for.",
        "conform answers a QUESTION from `--answer-id ID=TEXT`, then `--answer TEXT` in"
        " order; when none is left the question stays unanswered, stdin is closed, and the"
        " adapter usually ends FAILED. Give the run an answer for every question it asks.",
    ),
    Code(
        "BS404",
        "unexpected-exit-status",
        Severity.ERROR,
        "The adapter's exit status is not the one `--expect-exit` asks for.",
        "An adapter that dies at its first helper call, or ends FAILED after a crash, can"
        " still print a well-formed stream: `--expect-exit N` makes its exit status part of"
        " the verdict (128+N for a process ended by signal N).",
    ),
    Code(
        "BS405",
        "unexpected-terminal",
        Severity.ERROR,
        "The run did not end with the terminal kind `--expect-kind` asks for.",
        "`--expect-kind COMPLETED` fails a run that ended FAILED, or with no terminal"
        " signal at all: the kind of its first terminal signal is compared.",
    ),
    Code(
        "BS406",
        "vocabulary-major-mismatch",
        Severity.ERROR,
        "The run's terminal names a vocabulary whose major version differs from conform's.",
        "COMPLETED and FAILED carry the vocabulary version the adapter was built against"
        " (the field with role vocabulary-version). A different major version means"
        " breaking changes between the two: regenerate the adapter's binding or helpers,"
        " or run conform with `--vocabulary` set to the adapter's vocabulary.",
    ),
    Code(
        "BS407",
        "vocabulary-newer-minor",
        Severity.INFORMATION,
        "The run's terminal names a newer minor version of conform's vocabulary.",
        "The adapter was built against a vocabulary with additions conform does not know"
        " (new kinds or fields, compatible by the version rules); update the toolkit to"
        " check them too.",
    ),
    Code(
        "BS408",
        "key-not-taken",
        Severity.WARNING,
        "Under `conform --fence`, the adapter had not taken the run's key when it first wrote.",
        "The fence hands the key over on a descriptor the adapter reads when it starts (the"
        " Python binding at import, the shell library when it is sourced), before it prints"
        " anything. This one wrote first, or never took the key: conform drained the key's"
        " pipe at that moment, but anything the adapter started before may have read the key,"
        " and the adapter's own lines are unmarked (BS601). Import the binding or source the"
        " shell library at the top of the adapter, before it starts anything.",
    ),
)

_CODES += (
    Code(
        "BS501",
        "helper-unknown-option",
        Severity.ERROR,
        "A shell helper is called with an option it does not have.",
        "The calling convention: a required scalar field is positional, in the order of the"
        " schema's `required` list; every other field the shell carries is an option"
        " `--<property> VALUE` (an array repeats it once per item). An argument is an option"
        " only if it is `--NAME` (NAME lowercase letters, digits, `_` and `-`); anything else,"
        " such as `-3`, `---` or `- step`, is a value. An option the helper does not have makes"
        " it fail with status 2 and print nothing.",
        "bernstein_question 'Go?' --option yes",
        "bernstein_question 'Go?' --options yes",
    ),
    Code(
        "BS502",
        "helper-missing-argument",
        Severity.ERROR,
        "A shell helper call lacks a positional argument or an option's value.",
        "By the calling convention (see BS501) the required scalar fields are positional and"
        " every option takes the next argument as its value; a missing one makes the helper"
        " fail with status 2 and print nothing.",
        "bernstein_blocked",
        "bernstein_blocked 'GITHUB_TOKEN is not set'",
    ),
    Code(
        "BS503",
        "helper-extra-argument",
        Severity.ERROR,
        "A shell helper call has an argument it has no place for.",
        "By the calling convention (see BS501) only the required scalar fields are positional;"
        " optional fields are `--<property> VALUE`, a non-repeated option is given once, and"
        " options go before `--` (after it every argument is a value). An extra argument"
        " makes the helper fail with status 2 and print nothing.",
        "bernstein_failed 'exit 2'",
        "bernstein_failed --reason 'exit 2'",
    ),
    Code(
        "BS504",
        "unknown-helper",
        Severity.ERROR,
        "A call of a `bernstein_` function the helper library does not define, or defines only"
        " to refuse.",
        "The library defines one function per kind (`bernstein_<kind>`) plus bernstein_emit,"
        " bernstein_run, bernstein_ask and bernstein_guard. A kind added to the vocabulary"
        " gets its function when the library is regenerated; a kind whose payload the shell"
        " cannot build gets a function that only refuses (use bernstein_emit).",
        "bernstein_complete",
        "bernstein_completed",
    ),
)

_CODES += (
    Code(
        UNAUTHENTICATED_SIGNAL,  # the binding's FenceVerdict.code: its one home
        "unauthenticated-signal",
        Severity.ERROR,
        "Under the fence, a signal line without a valid mark of this run's key.",
        "With a key (`validate --key-file`, `wrap --fence`, `conform --fence`) only lines the"
        " adapter marked with the run's key are signals. This one is not marked, is marked"
        " for another run, carries a bad mark, or is not in canonical form, so it is plain"
        " output: it cannot end the run, hand over a plan or ask a question. Usually the"
        " adapter printed text it read (an agent showing a file or a web page), which is"
        " what the fence is for. If the line is the adapter's own, emit it with the binding"
        " or the shell helpers after they took the key at start-up, and never rewrite a"
        " marked line.",
        "BERNSTEIN:COMPLETED   (printed by the agent, no mark)",
        'BERNSTEIN:COMPLETED {"_sig":"<run>.<seq>.<mac>"}   (emit() with the key)',
    ),
    Code(
        REPLAYED_SIGNAL,
        "replayed-signal",
        Severity.ERROR,
        "Under the fence, a marked line whose sequence number is not above the last accepted one.",
        "Every marked line of a run carries a sequence number that grows by one per line."
        " A number already used (or lower) means the line is a copy of an earlier one, as"
        " when an agent prints the adapter's own log back, so it is plain output. Mark each"
        " signal in the adapter's main process: a subshell's count does not reach its parent.",
    ),
    Code(
        KIND_NOT_ALLOWED,
        "kind-not-allowed",
        Severity.ERROR,
        "A signal of a kind the run's allow-list (`--allow-kinds`) does not include.",
        "The orchestrator restricted the kinds this run may emit, so a signal of any other"
        " kind is plain output and does not act. Either the adapter should not emit it, or"
        " the kind belongs in `--allow-kinds` (a comma-separated list of the vocabulary's"
        " kinds; keep the terminal kinds in it, or no run can end).",
        'BERNSTEIN:PLAN_READY {"path":".sdd/plans/x.md"}   (--allow-kinds COMPLETED,FAILED)',
        "BERNSTEIN:COMPLETED",
    ),
)

CODES: dict[str, Code] = {code.code: code for code in _CODES}
UNKNOWN_KINDS: dict[str, Severity | None] = {
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "ignore": None,
}
"""``--unknown-kinds`` and the language server's ``unknownKinds``: BS216's severity (None: off)."""
_BY_NAME = {code.name: code for code in _CODES}


def lookup(text: str) -> Code | None:
    """A code by id (``BS204``, any case) or name (``unknown-kind``)."""
    return CODES.get(text.upper()) or _BY_NAME.get(text.lower())


def select_codes(select: list[str], ignore: list[str]) -> frozenset[str]:
    """The codes enabled by ``--select``/``--ignore``: ids, names or id prefixes (``BS2``).

    Raises ValueError naming the first selector that matches nothing.
    """

    def expand(selector: str) -> set[str]:
        code = lookup(selector)
        if code is not None:
            return {code.code}
        matched = {c for c in CODES if c.startswith(selector.upper())}
        if not matched or not selector:
            raise ValueError(f"unknown code or prefix {selector!r}")
        return matched

    enabled: set[str] = set(CODES) if not select else set()
    for selector in select:
        enabled |= expand(selector)
    for selector in ignore:
        enabled -= expand(selector)
    return frozenset(enabled)
