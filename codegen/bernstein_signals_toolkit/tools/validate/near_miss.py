"""Why a line that mentions the prefix is not a signal: the near-miss codes BS201-BS215.

Each explanation is checked against the binding (``parse_signal`` on the
repaired line), so a suggested replacement is one readers accept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from ..runtime_vocabulary import RuntimeVocabulary
from ._limits import PayloadProbe, limit_problem
from .diagnostics import SHOWN_CHARS, Diagnostic, build_diagnostic, shown_word
from .payload_text import content_end
from .suggest import close_match

__all__ = ["Finding", "NearMiss", "Shapes", "shapes", "trigger_word"]

_NON_FINITE = re.compile(r"-?(?:NaN|Infinity)")
_BAD_JSON_SPACE = re.compile(r"[\r\n\f\v]")
_SPACES = re.compile(r"\s*+")
_ONLY_SPACES = re.compile(r" *+")


def trigger_word(prefix: str) -> str:
    """The word of a prefix (``BERNSTEIN`` of ``BERNSTEIN:``): lines holding it in any case
    are the only ones worth a closer look.
    """
    return prefix.rstrip(":") or prefix


@dataclass(frozen=True)
class Shapes:
    """The patterns that find near-misses of one vocabulary's lines."""

    prefix: str
    word: str
    kinds: frozenset[str]
    longest_kind: int
    trigger: re.Pattern[str]
    shape: re.Pattern[str]
    lenient_shape: re.Pattern[str]


@cache
def shapes(prefix: str, kinds: tuple[str, ...]) -> Shapes:
    word = trigger_word(prefix)
    escaped = re.escape(word)
    return Shapes(
        prefix=prefix,
        word=word,
        kinds=frozenset(kinds),
        longest_kind=max(map(len, kinds)),
        trigger=re.compile(f"(?i){escaped}"),
        shape=re.compile(
            f"(?i){escaped}" + r"(?P<gap>[ \t]*)(?P<colon>:?)(?P<space>\s*)(?P<kind>\w*)"
        ),
        lenient_shape=re.compile(r"\s*" + re.escape(prefix) + r"\s*\w+\s*"),
    )


def _is_attempt(match: re.Match[str], shapes: Shapes) -> bool:
    """Tell a signal attempt from prose that mentions the name."""
    long_word = match.end("kind") - match.start("kind") > shapes.longest_kind
    if not long_word and match["kind"].upper() in shapes.kinds:
        return True
    if not match["colon"]:
        return False
    if match.string.startswith(shapes.word, match.start()):
        return True
    return not match["gap"] and match["kind"].isupper()


@dataclass
class Finding:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    replacement: str | None = None


class NearMiss:
    """Explains the near-misses of one vocabulary's lines."""

    def __init__(self, vocabulary: RuntimeVocabulary) -> None:
        self.vocabulary = vocabulary
        self._shapes = shapes(vocabulary.prefix, vocabulary.kinds)

    def explain(self, text: str, line_no: int) -> Finding:
        """The diagnostics of a line that is no signal, and its replacement when certain."""
        for match in self._shapes.shape.finditer(text):
            if _is_attempt(match, self._shapes):
                return self._explain(text, match, line_no)
        return Finding()

    def _explain(self, text: str, match: re.Match[str], line_no: int) -> Finding:
        finding = Finding()
        start = match.start()

        def add(code: str, begin: int, end: int, message: str) -> None:
            # At least one character wide, but never past the end of the line.
            end = min(max(end, begin + 1), max(len(text), begin))
            finding.diagnostics.append(build_diagnostic(code, line_no, begin, end, message))

        before = text[:start]
        if before and not before.isspace():
            candidate = text[start:]
            inner = self.explain(candidate, line_no)
            parsed = self.vocabulary.parse_signal(candidate, unknown_kinds=True)
            finding.replacement = candidate if parsed is not None else inner.replacement
            add(
                "BS214",
                start,
                len(text),
                "the signal does not start at column 0: text before the prefix makes the"
                " whole line plain output; print the signal on its own line",
            )
            return finding
        if before:
            add(
                "BS208",
                0,
                start,
                "whitespace before the prefix (indented output)",
            )

        prefix = self.vocabulary.prefix
        prefix_word = self._shapes.word
        word = text[start : start + len(prefix_word)]
        if word != prefix_word:
            add(
                "BS201",
                start,
                start + len(word),
                f"prefix {shown_word(word)} is in the wrong case: readers only match {prefix!r}",
            )
        if match["gap"] or not match["colon"]:
            add(
                "BS202",
                start,
                match.end("colon") if match["colon"] else match.end("gap"),
                f"the prefix must be exactly {prefix!r}"
                + (" (no space before the colon)" if match["gap"] else " (the colon is missing)"),
            )
        if match["space"]:
            add(
                "BS208",
                match.start("space"),
                match.end("space"),
                "whitespace after the prefix",
            )

        kind = self._kind(match, add)
        rest_at = match.end()
        payload = self._rest(text, rest_at, kind, add)
        if kind is not None and payload is not None:
            finding.replacement = payload
        return finding

    def _kind(self, match: re.Match[str], add: Callable[[str, int, int, str], None]) -> str | None:
        begin, end = match.start("kind"), match.end("kind")
        known_kinds = self._shapes.kinds
        if (
            end - begin > self._shapes.longest_kind
        ):  # no kind, and no misspelling of one: copy nothing
            head = match.string[begin : begin + SHOWN_CHARS]
            add("BS204", begin, end, f"unknown kind {head!r}... ({end - begin} characters)")
            return None
        word = match["kind"]
        if word in known_kinds:
            return word
        if word.upper() in known_kinds:
            add("BS203", begin, end, f"kind {word!r} must be written {word.upper()!r}")
            return word.upper()
        guess = close_match(word.upper(), list(self.vocabulary.kinds))
        hint = f"; did you mean {guess!r}?" if guess else ""
        known = ", ".join(self.vocabulary.kinds)
        if not word:
            add("BS204", begin, end, f"no kind after the prefix (known kinds: {known})")
        else:
            add(
                "BS204", begin, end, f"unknown kind {shown_word(word)}{hint} (known kinds: {known})"
            )
        return guess

    def _rest(
        self, text: str, at: int, kind: str | None, add: Callable[[str, int, int, str], None]
    ) -> str | None:
        """Check what follows the kind; return the replacement line, if one is certain.

        ``kind`` is None when no kind is certain: the payload is still judged, and
        no replacement is offered.
        """
        fixed = f"{self.vocabulary.prefix}{kind}" if kind is not None else None
        size = len(text)
        if at >= size:
            return fixed
        payload_at = _SPACES.match(text, at).end()  # type: ignore[union-attr]
        if payload_at == size:
            add(
                "BS208",
                at,
                size,
                "trailing whitespace after the kind",
            )
            return fixed
        if payload_at == at:
            if text[at] not in '{["':
                add(
                    "BS211",
                    at,
                    size,
                    "text follows the kind: only one space and a JSON object may follow it",
                )
                return None
            add(
                "BS205",
                at,
                at + 1,
                "no space between the kind and the payload: put exactly one space before it",
            )
        elif payload_at - at != 1 or text[at] != " ":
            if _ONLY_SPACES.fullmatch(text, at, payload_at):
                add(
                    "BS206",
                    at,
                    payload_at,
                    f"{payload_at - at} spaces between the kind and"
                    " the payload; strict readers require exactly one",
                )
            else:
                add(
                    "BS207",
                    at,
                    payload_at,
                    "the kind and the payload must be separated by one"
                    " space, not tabs or other whitespace",
                )
        end = content_end(text, payload_at)
        if end < size:
            add(
                "BS208",
                end,
                size,
                "trailing whitespace after the payload",
            )
        return self._payload(text, payload_at, end, fixed, add)

    def _payload(
        self,
        text: str,
        at: int,
        end: int,
        fixed: str | None,
        add: Callable[[str, int, int, str], None],
    ) -> str | None:
        """Explain the payload ``text[at:end]`` (read in place: no copy of a long line)."""
        probe = PayloadProbe()
        try:
            value, stop = probe.decode(text, at)
        except json.JSONDecodeError as exc:
            pos = min(exc.pos, end)
            add("BS210", pos, pos + 1, f"malformed JSON payload: {exc.msg} (column {pos + 1})")
            return None
        except ValueError as exc:  # LimitExceeded, or anything else json refuses to convert
            add("BS215", at, end, f"the payload holds {exc}")
            return None
        if not isinstance(value, dict):
            what = "null" if value is None else type(value).__name__.replace("list", "array")
            add("BS209", at, stop, f"the payload is a JSON {what}, not an object")
            return None
        if stop < end:
            add("BS211", stop, end, "text follows the payload object")
            return None
        if probe.non_finite:
            found = _NON_FINITE.search(text, at, end)
            begin, finish = found.span() if found else (at, end)
            add("BS212", begin, finish, "NaN and Infinity are not JSON; send null or a string")
            return None
        problem = limit_problem(value, probe)
        if problem:
            add("BS215", at, end, f"the payload holds {problem}")
            return None
        # Whether the binding reads this payload is judged on a line with a kind it parses
        # whatever the vocabulary knows: the kind must never decide a JSON verdict.
        judged = fixed if fixed is not None else self.vocabulary.prefix + self.vocabulary.kinds[0]
        candidate = f"{judged} {text[at:end]}"
        if self.vocabulary.parse_signal(candidate, unknown_kinds=True) is not None:
            return candidate if fixed is not None else None
        bad_space = _BAD_JSON_SPACE.search(text, at, end)
        if bad_space:
            add(
                "BS210",
                bad_space.start(),
                bad_space.end(),
                "JSON whitespace in a"
                " signal is limited to spaces and tabs (CR, LF, FF and VT end lines for readers)",
            )
        else:
            add("BS210", at, end, "the payload is not strict JSON")
        if fixed is None:
            return None
        try:
            return self.vocabulary.format_signal(
                fixed[len(self.vocabulary.prefix) :], value, validate=False
            )
        except (TypeError, ValueError):
            return None
