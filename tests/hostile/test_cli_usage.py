"""What a newcomer sees when the command line is incomplete or mixes up options."""

from __future__ import annotations

import re

import pytest

from bernstein_signals_toolkit.cli import main
from bernstein_signals_toolkit.tools.commands import COMMANDS


@pytest.mark.parametrize(
    ("argv", "named"), [([], ""), (["--bogus"], "unrecognized arguments: --bogus; ")]
)
def test_a_call_without_a_command_prints_usage_and_every_command(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: bernstein-signals")
    for name, help_text in COMMANDS.items():
        # argparse puts a long name on a line of its own, its help below.
        assert re.search(rf"^    {re.escape(name)}(?: |\n)", err, re.MULTILINE), name
        assert help_text.split()[0] in err
    assert err.endswith(f"bernstein-signals: error: {named}a COMMAND is required\n")


@pytest.mark.parametrize("command", ["wrap", "conform"])
def test_an_option_meant_for_the_wrapped_command_gets_the_dashes_hint(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        main([command, "-x"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "unrecognized arguments: -x" in err
    assert f"bernstein-signals {command} -- CMD" in err


def test_other_commands_get_no_dashes_hint(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["parse", "-x"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: -x" in err
    assert "--" not in err.replace("-x", "")
