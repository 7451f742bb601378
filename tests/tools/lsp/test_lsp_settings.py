"""The language server's settings: ``maxLineBytes`` (``maxLineLength`` a deprecated alias)
and the fallback of every untrusted value to its default.
"""

from __future__ import annotations

from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES
from bernstein_signals_toolkit.tools.lsp.analysis import Settings
from bernstein_signals_toolkit.tools.lsp.settings import (
    MAX_DIAGNOSTICS_SETTING,
    MAX_LINE_BYTES_SETTING,
    settings_from,
)


def test_max_line_bytes_is_read() -> None:
    assert settings_from({"maxLineBytes": 4096}).max_line_bytes == 4096


def test_max_line_length_is_a_deprecated_alias() -> None:
    assert settings_from({"maxLineLength": 4096}).max_line_bytes == 4096
    both = {"maxLineLength": 4096, "maxLineBytes": 8192}
    assert settings_from(both).max_line_bytes == 8192  # the current key wins


def test_the_default_bound_is_the_readers() -> None:
    assert settings_from({}).max_line_bytes == DEFAULT_MAX_LINE_BYTES
    assert Settings().max_line_bytes == DEFAULT_MAX_LINE_BYTES


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)
KEYS = st.sampled_from(
    [
        "lenient",
        "select",
        "ignore",
        "maxLineBytes",
        "maxLineLength",
        "vocabulary",
        "unknownKinds",
        "maxDiagnostics",
    ]
)


@example({"maxLineBytes": True})
@example({"maxDiagnostics": True})
@given(st.dictionaries(KEYS | st.text(max_size=5), JSON, max_size=8))
def test_any_configuration_gives_valid_settings(config: dict[str, Any]) -> None:
    settings = settings_from(config)
    assert 0 < settings.max_line_bytes <= MAX_LINE_BYTES_SETTING
    assert type(settings.max_line_bytes) is int  # true is no byte count
    assert type(settings.max_diagnostics) is int
    assert 0 < settings.max_diagnostics <= MAX_DIAGNOSTICS_SETTING
    assert settings.unknown_kinds in ("error", "warning", "ignore")
    assert all(isinstance(code, str) for code in settings.select + settings.ignore)
    for key in ("maxLineBytes", "maxLineLength"):
        value = config.get(key)
        if (
            type(value) is int
            and 0 < value <= MAX_LINE_BYTES_SETTING
            and (key == "maxLineBytes" or "maxLineBytes" not in config)
        ):
            assert settings.max_line_bytes == value
