"""The language server's settings: section ``bernsteinSignals`` of a client's configuration.

Values a client sends are untrusted: anything of the wrong type or out of
range falls back to the default, so any configuration gives valid settings.
"""

from __future__ import annotations

from typing import Any

from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES

from ..validate.codes import UNKNOWN_KINDS
from .analysis import DEFAULT_MAX_DIAGNOSTICS, Settings

__all__ = [
    "DEPRECATED_KEYS",
    "MAX_DIAGNOSTICS_SETTING",
    "MAX_LINE_BYTES_SETTING",
    "SECTION",
    "settings_from",
]

SECTION = "bernsteinSignals"
MAX_LINE_BYTES_SETTING = 1 << 30
"""The largest ``maxLineBytes`` taken; a larger value (or a non-positive one) is the default."""
MAX_DIAGNOSTICS_SETTING = 1_000_000
"""The largest ``maxDiagnostics`` taken; a larger value (or a non-positive one) is the default."""
DEPRECATED_KEYS = {"maxLineLength": "maxLineBytes"}
"""Old key -> its name now. ``maxLineLength`` counted bytes, not characters; it is still
read when the new key is absent."""


def _codes(value: Any) -> tuple[str, ...]:
    return tuple(str(code) for code in value) if isinstance(value, list) else ()


def _current(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with each deprecated key read under its new name, unless that one is set."""
    renamed = dict(config)
    for old, new in DEPRECATED_KEYS.items():
        if old in config and new not in config:
            renamed[new] = config[old]
    return renamed


def _bounded(value: Any, largest: int, default: int) -> int:
    """``value`` if it is an int from 1 to ``largest`` (not a bool), else ``default``."""
    return value if type(value) is int and 0 < value <= largest else default


def settings_from(config: dict[str, Any], default_vocabulary: str | None = None) -> Settings:
    """The settings a configuration section gives (``default_vocabulary``: ``lsp --vocabulary``)."""
    config = _current(config)
    folder = config.get("vocabulary")
    unknown = config.get("unknownKinds")
    limit = _bounded(config.get("maxLineBytes"), MAX_LINE_BYTES_SETTING, DEFAULT_MAX_LINE_BYTES)
    cap = config.get("maxDiagnostics")
    return Settings(
        lenient=bool(config.get("lenient", False)),
        select=_codes(config.get("select")),
        ignore=_codes(config.get("ignore")),
        max_line_bytes=limit,
        vocabulary=folder if isinstance(folder, str) and folder else default_vocabulary,
        unknown_kinds=unknown
        if isinstance(unknown, str) and unknown in UNKNOWN_KINDS
        else "warning",
        max_diagnostics=_bounded(cap, MAX_DIAGNOSTICS_SETTING, DEFAULT_MAX_DIAGNOSTICS),
    )
