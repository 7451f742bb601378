"""Option completion after a helper name offers what the helper takes, from its signature."""

from __future__ import annotations

import pytest

from bernstein_signals_toolkit.generator.shell_signature import signatures
from bernstein_signals_toolkit.tools.lsp import assist
from bernstein_signals_toolkit.tools.runtime_vocabulary import built_in


def _offered(line: str) -> set[str]:
    return {item.label for item in assist.completions(line, 0, len(line), shell=True)}


@pytest.mark.parametrize("helper", sorted(signatures(built_in().model())))
def test_option_completion_is_the_signatures_options(helper: str) -> None:
    taken = {param.option for param in signatures(built_in().model())[helper].options}
    assert _offered(f"{helper} x --") == {option for option in taken if option}


def test_a_field_the_helper_does_not_take_is_not_offered() -> None:
    # COMPLETED's vocabulary field is stamped by the library, never an option.
    assert "--vocabulary" not in _offered("bernstein_completed --")
    assert {"--id", "--options"} <= _offered('bernstein_question "Go?" --')
