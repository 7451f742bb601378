"""The one catalogue of known-bad line shapes, shared by benchmarks and tests.

Each entry is a named builder: size in bytes -> one line (no terminator) of
about that size. A shape is here because it once made some per-line check
superlinear, or because it drives a check down its slowest path; every reader
must stay linear on all of them (``tests/hostile/``), and ``bench_hostile``
reports each at 1 MiB against an ordinary payload line of the same size.

Keep it a plain table: add a shape as one builder and one row.
"""

from __future__ import annotations

import json
from collections.abc import Callable

__all__ = ["HOSTILE_LINES", "ORDINARY_LINE", "json_baseline", "payload_of"]

_PREFIX = "BERNSTEIN:"


def _fill(head: str, unit: str, tail: str, size: int) -> str:
    """``head`` + ``unit`` repeated to about ``size`` characters + ``tail``."""
    count = max(1, (size - len(head) - len(tail)) // len(unit))
    return head + unit * count + tail


def ordinary_line(size: int) -> str:
    """A large, valid, everyday signal: a markdown plan draft with some escapes."""
    unit = '- step: edit `src/app.py` and run \\"make test\\"\\n'
    return _fill(f'{_PREFIX}PLAN_DRAFT {{"markdown":"# Plan\\n', unit, '"}', size)


def _escaped_quotes_deep(size: int) -> str:
    # issue 10 item 2: made the nesting pre-check quadratic (80 KB: 34 s)
    return _fill(f"{_PREFIX}COMPLETED {{" + "[" * 65 + '"', '\\"', "", size)


def _escaped_quotes_closed(size: int) -> str:
    return _fill(f"{_PREFIX}COMPLETED {{" + "[" * 65 + '"', '\\"', '"' + "]" * 65 + "}", size)


def _unterminated_string(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":"', '\\"', "", size)


def _backslash_runs(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":"', "\\\\", '"}', size)


def _open_brackets(size: int) -> str:
    return _fill(f"{_PREFIX}COMPLETED {{", "[", "", size)


def _deep_valid_nests(size: int) -> str:
    nest = "[" * 62 + "]" * 62
    return _fill(f'{_PREFIX}COMPLETED {{"a":[', nest + ",", nest + "]}", size)


def _brackets_in_strings(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":"', "[{", '"}', size)


def _surrogate_pairs_then_lone(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":"', "\\ud83d\\ude00", '\\ud800"}', size)


def _escaped_backslash_before_u(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":"', "\\\\ud800", '"}', size)


def _long_integer(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":', "9", "}", size)


def _long_fraction(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":0.', "1", "}", size)


def _many_members(size: int) -> str:
    return _fill(f"{_PREFIX}COMPLETED {{", '"k":1,', '"z":0}', size)


def _long_kind(size: int) -> str:
    return _fill(_PREFIX, "A", "", size)


def _lenient_whitespace(size: int) -> str:
    return _fill(_PREFIX, " \t", "COMPLETED {}", size)


def _repeated_prefix(size: int) -> str:
    return _fill("", _PREFIX, "", size)


def _raw_controls(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":"', "\x00\x1f", '"}', size)


def _non_ascii_text(size: int) -> str:
    return _fill(f'{_PREFIX}COMPLETED {{"a":"', "é\u2028😀", '"}', size)


# -- the validator's and the language server's own slow paths --------------


def _distinct_duplicate_keys(size: int) -> str:
    # the validator located each duplicated key with one regex pass over the line
    count = max(1, size // 16)
    members = ",".join(f'"k{n}":1,"k{n}":2' for n in range(count))
    return f"{_PREFIX}COMPLETED {{{members}}}"


def _many_schema_errors(size: int) -> str:
    # one BS101 per item, each placed by the span scanner
    return _fill(f'{_PREFIX}QUESTION {{"question":"q","options":[', "1,", "1]}", size)


def _text_before_prefix(size: int) -> str:
    # BS214 explains the signal after the text, once
    return _fill("", "x BERNSTEIN:COMPLETED ", "", size)


def _near_miss_words(size: int) -> str:
    # prose naming the prefix over and over: every mention is a near-miss candidate
    return _fill("", "bernstein : completed ", "", size)


def _long_key_being_typed(size: int) -> str:
    # completion used to search [A-Za-z0-9_-]*\Z from every position (40 KB: 12 s)
    return _fill(f'{_PREFIX}COMPLETED {{"', "a", "", size)


def _many_keys_to_hover(size: int) -> str:
    # hover sliced the rest of the payload after every string
    return _fill(f"{_PREFIX}COMPLETED {{", '"a":"b",', '"z":0}', size)


ORDINARY_LINE: Callable[[int], str] = ordinary_line
"""The baseline every shape is compared with."""

HOSTILE_LINES: dict[str, Callable[[int], str]] = {
    "escaped-quotes-deep": _escaped_quotes_deep,
    "escaped-quotes-closed": _escaped_quotes_closed,
    "unterminated-string": _unterminated_string,
    "backslash-runs": _backslash_runs,
    "open-brackets": _open_brackets,
    "deep-valid-nests": _deep_valid_nests,
    "brackets-in-strings": _brackets_in_strings,
    "surrogate-pairs-then-lone": _surrogate_pairs_then_lone,
    "escaped-backslash-before-u": _escaped_backslash_before_u,
    "long-integer": _long_integer,
    "long-fraction": _long_fraction,
    "many-members": _many_members,
    "long-kind": _long_kind,
    "lenient-whitespace": _lenient_whitespace,
    "repeated-prefix": _repeated_prefix,
    "raw-controls": _raw_controls,
    "non-ascii-text": _non_ascii_text,
    "distinct-duplicate-keys": _distinct_duplicate_keys,
    "many-schema-errors": _many_schema_errors,
    "text-before-prefix": _text_before_prefix,
    "near-miss-words": _near_miss_words,
    "long-key-being-typed": _long_key_being_typed,
    "many-keys-to-hover": _many_keys_to_hover,
}
"""Shape name -> builder (size in bytes -> line without terminator)."""


def payload_of(line: str) -> str:
    """The text after the kind (what a reply line would hold), or the whole line."""
    _, space, rest = line.partition(" ")
    return rest if space else line


def json_baseline(
    build: Callable[[int], str],
) -> tuple[Callable[[int], Callable[[], object]], ...]:
    """The linear passes any reader of the line ``build(size)`` makes, one maker each
    (size -> the call to time): the part of its work no check can avoid, to compare
    growth against (``tests/linear_support.assert_linear_or_as_baseline``).

    - ``memchr``: a search for a character the line lacks ("\\n" or "\\r"), which runs
      at memory speed and so grows most past the core's cache;
    - a copy of the payload, as slicing or encoding makes;
    - a pass over every character, then bare ``json.loads``, which stops at the
      first bad character or builds every object of a valid payload.
    """

    def memchr(size: int) -> Callable[[], object]:
        line = build(size)
        return lambda: "\n" in line or "\r" in line

    def copy(size: int) -> Callable[[], object]:
        payload = payload_of(build(size))
        return lambda: payload[1:]

    def decode(size: int) -> Callable[[], object]:
        payload = payload_of(build(size))

        def run() -> object:
            payload.count("\x00")
            try:
                return json.loads(payload)
            except (ValueError, RecursionError):
                return None

        return run

    return memchr, copy, decode
