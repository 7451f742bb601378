"""The reference page's "Fenced signals" section: the fence's constants, read from their home.

The values come from the Python runtime's ``fence_rules`` (through
:func:`._templates.python_runtime_module`), so the page cannot drift from the
bindings; the full text is ``spec/fenced-signals.md``.
"""

from __future__ import annotations

from ._escape import markdown_code
from ._templates import python_runtime_module

__all__ = ["fence_section"]

_CONSTANTS = (
    ("MARK_FIELD", "The reserved payload member that carries the mark."),
    ("KEY_FD_VARIABLE", "Names an inherited socket holding the key text; preferred."),
    ("KEY_FD_MIN", "The lowest descriptor number a key may come on."),
    ("KEY_FD_MAX", "The highest descriptor number a key may come on (one digit: any shell)."),
    ("KEY_EXPOSED", "What a process says of a key descriptor that is a pipe or a file."),
    ("KEY_READ_SECONDS", "How long, in all, a process waits for the key on its descriptor."),
    ("KEY_REFUSED_STATUS", "The exit status of a process told to expect a key it cannot take."),
    ("KEY_VARIABLE", "Holds the key text."),
    ("KEY_SHAPE", "What every message about a text that is no key says (never quoting it)."),
    ("MAC_DOMAIN", "The first line of every MAC message; it carries the version."),
    ("RUN_HEX_DIGITS", "Lowercase hex digits of the run nonce."),
    ("SECRET_HEX_DIGITS", "Lowercase hex digits of the secret (the HMAC-SHA256 key)."),
    ("MAX_SEQUENCE", "The largest sequence number."),
    ("MAX_SEQUENCE_STEP", "How far past the last accepted number a line's may be (else BS602)."),
    ("UNAUTHENTICATED_PREFIX", "What `wrap --fence` puts before a refused signal prefix."),
)
_CODES = ("UNAUTHENTICATED_SIGNAL", "REPLAYED_SIGNAL", "KIND_NOT_ALLOWED")
"""In the verifier's order. Their names and explanations live in the validator's code
table (``bernstein-signals validate --explain CODE``), which the generator does not read."""


def _value(value: object) -> str:
    return markdown_code(repr(value) if isinstance(value, str) else str(value))


def fence_section() -> list[str]:
    rules = python_runtime_module("fence_rules")
    run, secret = "r" * rules.RUN_HEX_DIGITS, "s" * rules.SECRET_HEX_DIGITS
    message = "\\n".join([rules.MAC_DOMAIN, "<run>", "<seq>", "<KIND>", "<payload>"])
    return [
        f"## Fenced signals (extension, version {rules.FENCE_VERSION})",
        "",
        "Optional. An orchestrator that hands the adapter a fresh key per run accepts only"
        " the lines the adapter marked for that run; a line an agent merely printed (a file,"
        " a web page) is no signal. Without a key nothing changes, and readers that know"
        " nothing of the fence read a fenced line as the same signal with one extra member."
        " The full text is `spec/fenced-signals.md`; test vectors:"
        " `tests/data/fence_vectors.json`.",
        "",
        f"- Key text: {markdown_code(f'{run}:{secret}')}, lowercase hex: the run nonce"
        " (not secret), then the secret.",
        f"- Mark: the canonical line plus {markdown_code(rules.MARK_FIELD)}:"
        f" {markdown_code('<run>.<seq>.<mac>')}; seq counts from 1 per process.",
        f"- MAC: HMAC-SHA256 under the secret's bytes of"
        f" {markdown_code(message)} (`\\n` a newline),"
        " the payload being the canonical JSON without the mark, empty when nothing is left.",
        "",
        "| Constant | Value | Meaning |",
        "|---|---|---|",
        *(
            f"| {markdown_code(name)} | {_value(getattr(rules, name))} | {meaning} |"
            for name, meaning in _CONSTANTS
        ),
        "",
        "A verifier holding the key checks each signal line in this order, naming the first"
        " rule it breaks; a refused line is plain output (it cannot end the run, hand over a"
        " plan or ask a question). `bernstein-signals validate --explain CODE` explains each:",
        "",
        "| Order | Constant | Code |",
        "|---|---|---|",
        *(
            f"| {number} | {markdown_code(name)} | {markdown_code(getattr(rules, name))} |"
            for number, name in enumerate(_CODES, 1)
        ),
        "",
    ]
