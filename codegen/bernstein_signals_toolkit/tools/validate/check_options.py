"""How one run is checked: every option of the stream checker and its default, in one place."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES

from ..runtime_vocabulary import RuntimeVocabulary
from .codes import Severity

if TYPE_CHECKING:  # the fence is loaded only by a fenced check
    from bernstein_signals import SignalKey

__all__ = ["LENIENT_WITH_FENCE", "CheckOptions", "check_options"]

LENIENT_WITH_FENCE = (
    "--lenient does not go with --key-file or --allow-kinds: the fence accepts only lines"
    " in canonical form, as the binding's fenced readers do"
)
"""Why a lenient, fenced check is refused: a lenient reading strips the line the mark covers."""


@dataclass(frozen=True)
class CheckOptions:
    """The entry points (:class:`~.report.StreamChecker`, ``conformance_report``,
    ``report_from_binary``) take one of these, or its fields as keywords.
    """

    run_id: str | None = None
    lenient: bool = False
    """Judge lines as lenient readers do (lenient-only deviations become information)."""
    enabled: frozenset[str] | None = None
    """The codes reported (``--select``/``--ignore``); None: every code."""
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    live: bool = False
    """The caller sees both sides of the run and reports answers (``conform``)."""
    vocabulary: RuntimeVocabulary | None = None
    """None: the built-in vocabulary."""
    unknown_kinds: Severity | None = Severity.WARNING
    """BS216's severity (``--unknown-kinds``); None: not reported."""
    key: SignalKey | None = None
    """The run's fence key (``--key-file``, ``--fence``): only lines marked with it are
    signals; others are BS601 (BS602 replayed)."""
    allow_kinds: frozenset[str] | None = None
    """``--allow-kinds``: a signal of any other kind is BS603; None: every kind."""

    def __post_init__(self) -> None:
        if self.lenient and (self.key is not None or self.allow_kinds is not None):
            raise ValueError(LENIENT_WITH_FENCE)


def check_options(options: CheckOptions | None, fields: dict[str, Any]) -> CheckOptions:
    """``options`` (default: all defaults) with the keyword ``fields`` a caller gave over it.

    A name that is not an option raises TypeError, as an unknown keyword does.
    """
    return replace(options or CheckOptions(), **fields)
