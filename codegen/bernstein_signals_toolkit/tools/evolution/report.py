"""``diff`` output: text, json (evolution/diff.schema.json), sarif, github and markdown.

JSON, SARIF and GitHub output reuse the validator's helpers (file names, URIs,
escaping, the SARIF schema address), so both commands speak the same dialect.
They are imported only by those formats: the validator loads the generated
binding, and ``generate --check --baseline`` (text) must not depend on the
binding it checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from bernstein_signals_toolkit.generator.emitters._escape import markdown_code, markdown_text
from bernstein_signals_toolkit.toolkit_errors import one_line

from ... import __version__
from .compare import Change
from .diff import Diff
from .rules import RULES, Bump, Category

__all__ = ["FORMATS", "JSON_SCHEMA", "render"]

JSON_SCHEMA: Final = Path(__file__).resolve().with_name("diff.schema.json")
"""The published schema of ``diff --format json``."""

_RULE_INDEX: Final = {entry.id: index for index, entry in enumerate(RULES)}


def _sides(change: Change) -> str:
    return f"producers: {change.producers.value}, consumers: {change.consumers.value}"


def _where(change: Change) -> str:
    return f"{change.where} {change.file}#{change.pointer}"


def _needs_more(diff: Diff, change: Change) -> bool:
    actual = diff.verdict.actual
    return actual is None or change.bump.value > actual.value


def _worst(change: Change) -> Category:
    sides = (change.producers, change.consumers)
    for category in (Category.BREAKING, Category.WARNING):
        if category in sides:
            return category
    return Category.COMPATIBLE


def _summary(diff: Diff) -> str:
    count = len(diff.changes)
    producers = sum(c.producers is Category.BREAKING for c in diff.changes)
    consumers = sum(c.consumers is Category.BREAKING for c in diff.changes)
    head = (
        f"{count} change(s), breaking {producers} for producers and {consumers} for consumers"
        if count
        else "no changes"
    )
    return f"{head}; {diff.verdict.sentence()}"


# -- text ----------------------------------------------------------------------


def text(diff: Diff) -> Iterator[str]:
    for change in diff.changes:
        yield one_line(
            f"{_where(change)}: [{change.rule.id}] {change.message}"
            f" ({_sides(change)}; {change.bump.label})"
        )
    yield _summary(diff)


# -- json ----------------------------------------------------------------------


def _side_json(diff: Diff, old: bool) -> dict[str, str]:
    from ..validate.formats import display_name

    side = diff.old if old else diff.new
    return {"source": display_name(side.label), "version": side.version}


def json_document(diff: Diff) -> dict[str, Any]:
    """The document ``--format json`` prints; its schema is :data:`JSON_SCHEMA`."""
    from ..validate.formats import display_name

    return {
        "tool": {"name": "bernstein-signals", "version": __version__},
        "old": _side_json(diff, True),
        "new": _side_json(diff, False),
        "required_bump": diff.verdict.required.label,
        "version_bump": diff.verdict.actual_label,
        "passed": diff.passed,
        "changes": [
            {
                "rule": change.rule.id,
                "where": change.where,
                "file": display_name(diff.file_of(change)),
                "pointer": change.pointer,
                "message": change.message,
                "producers": change.producers.value,
                "consumers": change.consumers.value,
                "bump": change.bump.label,
                "swapped": change.swapped,
            }
            for change in diff.changes
        ],
    }


def _json(diff: Diff) -> Iterator[str]:
    yield json.dumps(json_document(diff), indent=2, ensure_ascii=False)


# -- SARIF 2.1.0 -----------------------------------------------------------------

_SARIF_LEVEL: Final = {
    Category.BREAKING: "warning",
    Category.WARNING: "warning",
    Category.COMPATIBLE: "note",
}


def _level(diff: Diff, change: Change) -> str:
    """error: the version does not cover it; otherwise what it does to the worse side."""
    return (
        "error"
        if _needs_more(diff, change) and change.bump is not Bump.NONE
        else _SARIF_LEVEL[_worst(change)]
    )


def _sarif_rule(index: int) -> dict[str, Any]:
    entry = RULES[index]
    level = "error" if entry.bump is Bump.MAJOR else "warning" if not entry.wording else "note"
    return {
        "id": entry.id,
        "shortDescription": {"text": entry.title},
        "fullDescription": {
            "text": f"{entry.title}: producers {entry.producers.value},"
            f" consumers {entry.consumers.value}; needs a {entry.bump.label} version bump"
        },
        "help": {"text": entry.anchors},
        "defaultConfiguration": {"level": level},
        "properties": {
            "producers": entry.producers.value,
            "consumers": entry.consumers.value,
            "bump": entry.bump.label,
        },
    }


def sarif_document(diff: Diff) -> dict[str, Any]:
    from ..validate.formats import file_uri, sarif_log

    results = [
        {
            "ruleId": change.rule.id,
            "ruleIndex": _RULE_INDEX[change.rule.id],
            "level": _level(diff, change),
            "message": {"text": f"{change.message} ({_sides(change)})"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": file_uri(diff.file_of(change))}
                    },
                    "logicalLocations": [
                        {"fullyQualifiedName": f"{change.where}#{change.pointer}", "kind": "member"}
                    ],
                }
            ],
            "properties": {
                "producers": change.producers.value,
                "consumers": change.consumers.value,
                "bump": change.bump.label,
            },
        }
        for change in diff.changes
    ]
    notification = {
        "level": "note" if diff.passed else "error",
        "message": {"text": diff.verdict.sentence()},
    }
    return sarif_log(
        [_sarif_rule(index) for index in range(len(RULES))],
        {
            "invocations": [
                {"executionSuccessful": True, "toolExecutionNotifications": [notification]}
            ],
            "results": results,
        },
    )


def _sarif(diff: Diff) -> Iterator[str]:
    yield json.dumps(sarif_document(diff), indent=2, ensure_ascii=False)


# -- GitHub workflow commands --------------------------------------------------------

_GITHUB_LEVEL: Final = {"error": "error", "warning": "warning", "note": "notice"}


def github(diff: Diff) -> Iterator[str]:
    """One workflow command per change, then one for the version verdict."""
    from ..validate.formats import display_name, escape_data, escape_property

    for change in diff.changes:
        properties = {
            "file": display_name(diff.file_of(change)),
            "title": f"{change.rule.id} {change.where}#{change.pointer}",
        }
        # one_line first: names from the sources may hold U+2028 and its kind.
        rendered = ",".join(f"{k}={escape_property(one_line(v))}" for k, v in properties.items())
        level = _GITHUB_LEVEL[_level(diff, change)]
        message = one_line(f"{change.message} ({_sides(change)})")
        yield f"::{level} {rendered}::{escape_data(message)}"
    level = "notice" if diff.passed else "error"
    title = escape_property("vocabulary version")
    yield f"::{level} title={title}::{escape_data(_summary(diff))}"


# -- Markdown release notes ----------------------------------------------------------

_SECTIONS: Final = (
    ("Breaking changes", Bump.MAJOR),
    ("Additions and other changes", Bump.MINOR),
    ("Wording", Bump.NONE),
)


def markdown(diff: Diff) -> Iterator[str]:
    """Release notes to paste into a changelog."""
    verdict = diff.verdict
    # Versions are semver (the loader checks): digits, letters, '.', '-', '+' only.
    yield f"## Vocabulary {diff.new.version}"
    yield ""
    yield (
        f"Compared with {diff.old.version} ({markdown_code(diff.old.label)}):"
        f" {len(diff.changes)} change(s); they need a {verdict.required.label} version bump,"
        f" the version has {verdict.actual_label} ({'enough' if diff.passed else 'not enough'})."
    )
    for title, bump in _SECTIONS:
        chosen = [change for change in diff.changes if change.bump is bump]
        if not chosen:
            continue
        yield ""
        yield f"### {title}"
        yield ""
        for change in chosen:
            yield (
                f"- **{markdown_text(change.where)}** {markdown_code(change.pointer or '/')}:"
                f" {markdown_text(change.message)} ({_sides(change)})"
            )


FORMATS: Final[dict[str, Callable[[Diff], Iterator[str]]]] = {
    "text": text,
    "json": _json,
    "sarif": _sarif,
    "github": github,
    "markdown": markdown,
}


def render(diff: Diff, output_format: str) -> Iterator[str]:
    """The lines of ``diff`` in ``output_format`` (one of :data:`FORMATS`)."""
    return FORMATS[output_format](diff)
