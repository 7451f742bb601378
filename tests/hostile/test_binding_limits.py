"""The documented limits give one verdict on every machine (issue 10 item 17).

The integer limit used to be the interpreter's ``int_max_str_digits``, so
``PYTHONINTMAXSTRDIGITS`` changed which lines parse and which payloads format.
Each case runs in a subprocess under several settings and must print the same
verdicts as under the default.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import bernstein_signals as bs
from bernstein_signals import MAX_INTEGER_DIGITS

_PROBE = r"""
import decimal, json, sys
import bernstein_signals as bs
limit = bs.MAX_INTEGER_DIGITS
verdicts = []
for digits in (1, 640, 641, 4300, limit, limit + 1, 10 * limit):
    for sign in ("", "-"):
        text = sign + "7" * digits
        line = 'BERNSTEIN:COMPLETED {"m":[' + text + '],"n":' + text + "}"
        signal = bs.parse_signal(line)
        lenient = bs.parse_signal(" " + line + " ", lenient=True)
        records = list(bs.read_signals(__import__("io").BytesIO(line.encode())))
        value = int(decimal.Decimal(text))
        try:
            formatted = bs.format_signal("COMPLETED", {"n": value, "m": [value]})
        except ValueError as exc:
            formatted = type(exc).__name__
        verdicts.append([
            digits,
            sign,
            None if signal is None else signal.payload["n"] == value,
            lenient is not None,
            len(records),
            formatted == line if formatted != "ValueError" else "ValueError",
        ])
print(json.dumps(verdicts))
"""


def _verdicts(setting: str | None) -> list[list[object]]:
    env = {"PYTHONINTMAXSTRDIGITS": setting} if setting is not None else {}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env={**_base_env(), **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result: list[list[object]] = json.loads(done.stdout)
    return result


def _base_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "PYTHONINTMAXSTRDIGITS"}


@pytest.mark.timeout(300)
def test_integer_verdicts_do_not_depend_on_the_interpreter_setting() -> None:
    default = _verdicts(None)
    by_digits = {(row[0], row[1]): row for row in default}
    limit = MAX_INTEGER_DIGITS
    assert by_digits[(limit, "-")][2:] == [True, True, 1, True]
    assert by_digits[(limit + 1, "")][2:] == [None, False, 0, "ValueError"]
    for setting in ("0", "640", "4301", "100000"):
        assert _verdicts(setting) == default, f"PYTHONINTMAXSTRDIGITS={setting}"


_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)")


def _lone_surrogate_reference(text: str) -> bool:
    """The escape-by-escape reading (the check before issue 10, linear but slow)."""
    pending = -1
    for match in _ESCAPE.finditer(text):
        code = int(match[1], 16) if match[1] else -1
        if pending >= 0:
            if match.start() != pending or not 0xDC00 <= code <= 0xDFFF:
                return True
            pending = -1
        elif 0xD800 <= code <= 0xDBFF:
            pending = match.end()
        elif 0xDC00 <= code <= 0xDFFF:
            return True
    return pending >= 0


_TOKENS = st.sampled_from(
    [
        "\\ud800",
        "\\uDBFF",
        "\\udc00",
        "\\uDFFF",
        "\\ud7ff",
        "\\ue000",
        "\\\\",
        "\\n",
        "a",
        "\\u0041",
    ]
)


@settings(max_examples=500)
@given(st.lists(_TOKENS, max_size=12))
@example(["\\ud83d", "\\\\", "\\ude00"])  # an escaped backslash between: no pair
def test_lone_surrogate_escapes_are_found_exactly(tokens: list[str]) -> None:
    body = "".join(tokens)
    line = 'BERNSTEIN:COMPLETED {"a":"' + body + '"}'
    refused = bs.parse_signal(line) is None
    assert refused == _lone_surrogate_reference(body), body
