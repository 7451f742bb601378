"""Every toolkit error is one line, whatever text from a source or argument it quotes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bernstein_signals_toolkit.toolkit_errors import SourceError, ToolkitError, UsageError


@given(st.text(), st.text(), st.text())
def test_every_toolkit_error_prints_as_one_line(path: str, rule: str, message: str) -> None:
    for error in (
        ToolkitError(message),
        UsageError(message),
        SourceError(path, rule, message),
    ):
        assert len(str(error).splitlines()) <= 1, repr(str(error))
