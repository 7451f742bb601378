"""Hostile input for the shell helpers, in all six shells (issue 10, standing guard).

Each property runs once per shell: generated arguments and reply lines under
hostile caller settings, a differential check of ``key:=JSON`` against the
Python reader, and linear growth of escaping.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals import format_signal, parse_signal
from bernstein_signals_toolkit.generator.shell_help import FLOAT_DIGITS, FLOAT_EXPONENT_MIN
from linear_support import assert_linear
from shell_support import (
    ARGUMENT_CHARACTERS,
    LIBRARY,
    SHELLS,
    UTF8,
    kind_schema,
    reference_format,
    run,
    shell_command,
    temporary_library,
)

# -- hostile caller settings -------------------------------------------------------

_SHADOWS = "printf() { :; }\necho() { :; }\nread() { :; }\nprint() { :; }\n"
"""Caller functions named like the builtins the helpers use (where a shell allows it)."""
_SHADOW_SET = "set() { :; }\nlocal() { :; }\n"
"""bash and zsh also let a function shadow `set` and `local`: defined after the setup."""

_SETUPS = {
    "xtrace": "set -x",
    "errexit": "set -eu",
    "ifs_digits": "IFS='0123456789-'",
    "ifs_letters": "IFS='abeilmnortu_'",
    "allexport": "set -a",
    "verbose_noglob": "set -vf",
    "ifs_unset": "unset IFS",
}

_STATE = 'printf "%s|%s|%s" "$-" "${IFS-unset}" "$(trap)"'
"""What must be the same after a helper call: options, IFS, traps."""

_OPTIONAL = st.text(ARGUMENT_CHARACTERS, max_size=12) | st.sampled_from(
    ["--", "-", "--help", "--id", "--var", "-x", "=", ":=", "k:=1e400", "0"]
)


def _body(shell: str, setup: str, call: str) -> str:
    shadows = _SHADOWS if shell != "ksh93" else ""
    extra = _SHADOW_SET if shell in ("bash", "zsh") else ""
    nocase = "shopt -s nocasematch\n" if shell == "bash" else ""
    # The state is printed by the caller's own commands, before shadows hide them.
    return f"""{nocase}trap 'echo t' USR1
{setup}
before=$({_STATE})
{shadows}{extra}if {call}; then st=0; else st=$?; fi
unset -f printf echo read print set local 2>/dev/null || :
after=$({_STATE})
[ "$before" = "$after" ] ||
  command printf 'STATE %s %s -> %s\\n' CHANGED "$before" "$after" >&2
command printf 'status=%s\\n' "$st" >&2
"""


def _check(
    shell: str,
    setup: str,
    call: str,
    args: list[str],
    reply: bytes = b"",
    *,
    library: Path = LIBRARY,
) -> bytes:
    result = run(shell, _body(shell, setup, call), *args, stdin=reply, timeout=60, library=library)
    assert b"STATE CHANGED" not in result.stderr, result.stderr
    assert b"Traceback" not in result.stderr
    status_lines = [line for line in result.stderr.split(b"\n") if line.startswith(b"status=")]
    assert len(status_lines) == 1, result.stderr
    status = int(status_lines[0].removeprefix(b"status="))
    assert status in (0, 1, 2, 3), (status, result.stderr)
    messages = [line for line in result.stderr.split(b"\n") if line.startswith(b"bernstein_")]
    if status == 2:
        assert result.stdout == b"" or call.startswith("bernstein_ask"), result.stdout
        assert len(messages) == 1, result.stderr
    if status in (1, 3):
        assert messages, result.stderr
    return result.stdout if status == 0 else b""


@pytest.mark.timeout(600)
@pytest.mark.parametrize("setup", list(_SETUPS))
def test_emit_under_hostile_caller_settings(shell: str, setup: str) -> None:
    @settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(_OPTIONAL, max_size=4), st.text(ARGUMENT_CHARACTERS, max_size=20))
    def check(extra: list[str], text: str) -> None:
        args = [f"k={text}", *extra]
        stdout = _check(shell, _SETUPS[setup], 'bernstein_emit COMPLETED "$@"', args)
        if stdout:
            signal = parse_signal(stdout.removesuffix(b"\n").decode("utf-8"))
            assert signal is not None, stdout
            assert signal.payload["k"] == text

    check()


_FIELDS = kind_schema(
    "FIELDS",
    {
        "word": {"description": "W.", "type": "string", "minLength": 2, "maxLength": 3},
        "mode": {"description": "M.", "type": "string", "enum": ["a b", "*", "$(x)"]},
        "count": {"description": "C.", "type": "integer", "maximum": 10**20, "multipleOf": 3},
        "tags": {
            "description": "T.",
            "type": "array",
            "items": {"type": "string", "maxLength": 2},
            "uniqueItems": True,
        },
    },
    ["word"],
)
_FIELD_CALLS: list[tuple[list[str], dict[str, object] | None]] = [
    (
        ["é😀", "--mode", "*", "--count", "-3", "--tags", "ü", "--tags", "*"],
        {"word": "é😀", "mode": "*", "count": -3, "tags": ["ü", "*"]},
    ),
    (
        ["é😀x", "--mode", "a b", "--count", "99999999999999999999"],
        {"word": "é😀x", "mode": "a b", "count": 99999999999999999999},
    ),
    (["é😀xy"], None),
    (["é", "--mode", "a"], None),
    (["ab", "--mode", "$(x)", "--count", "100000000000000000002"], None),
    (["ab", "--tags", "é😀é"], None),
    (["ab", "--tags", "*", "--tags", "*"], None),
]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("setup", list(_SETUPS))
def test_field_checks_under_hostile_caller_settings(
    shell: str, setup: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Lengths, choices, bounds, multiples: the caller's IFS, options and shadows change nothing."""
    library = temporary_library(tmp_path_factory.mktemp("fields"), _FIELDS)
    for args, payload in _FIELD_CALLS:
        stdout = _check(shell, _SETUPS[setup], 'bernstein_fields "$@"', args, library=library)
        assert stdout == (reference_format("FIELDS", payload) + b"\n" if payload else b""), args


_ANSWERS = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=40)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("setup", ["xtrace", "ifs_digits", "errexit"])
def test_ask_never_traces_the_answer(shell: str, setup: str) -> None:
    @settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(_ANSWERS)
    def check(answer: str) -> None:
        secret = "S3CR3T" + answer
        reply = json.dumps({"in_reply_to": None, "answer": secret}).encode() + b"\n"
        body = _body(shell, _SETUPS[setup], "bernstein_ask --var A Q") + (
            'set +x\ncommand printf "%s" "$A" > "$1"\n'
        )
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch, "answer")
            result = run(shell, body, str(out), stdin=reply)
            assert b"STATE CHANGED" not in result.stderr, result.stderr
            assert b"status=0" in result.stderr, result.stderr
            assert out.read_bytes() == secret.encode()
        assert b"S3CR3T" not in result.stderr
        assert b"S3CR3T" not in result.stdout

    check()


_REPLY_LINES = st.one_of(
    st.binary(max_size=60),
    _ANSWERS.map(lambda a: json.dumps({"in_reply_to": None, "answer": a}).encode()),
    st.sampled_from(
        [
            b'{"in_reply_to":null,"answer":"a\x00b"}',
            b'{"in_reply_to":null,"answer":"\\ud800"}',
            b'{"in_reply_to":null,"answer":"\xff"}',
            b'{"in_reply_to":null,"answer":"' + b"\\\\" * 500 + b'"}',
            b"--",
        ]
    ),
)


@pytest.mark.timeout(600)
def test_ask_on_hostile_reply_lines(shell: str) -> None:
    @settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(_REPLY_LINES)
    def check(line: bytes) -> None:
        _check(shell, "set -u", "bernstein_ask --var A Q", [], reply=line + b"\n")

    check()


def test_a_nul_in_a_reply_is_refused_where_the_shell_can_see_it() -> None:
    """zsh's read keeps a NUL: that line is skipped with a note, as ask() skips a bad line,
    and the next reply is the answer (the other shells' read drops the NUL before any check)."""
    shell_command("zsh")
    replies = b'{"in_reply_to":null,"answer":"a\x00b"}\n{"in_reply_to":null,"answer":"ok"}\n'
    result = run("zsh", 'bernstein_ask --var a Q && printf "<%s>" "$a"', stdin=replies)
    assert result.status == 0
    assert result.stdout.endswith(b"<ok>")
    assert result.stderr.count(b"\n") == 1
    assert b"NUL" in result.stderr


@pytest.mark.parametrize("name", [name for name in SHELLS if name != "zsh"])
def test_a_nul_in_a_reply_is_dropped_unseen_by_the_other_shells(name: str) -> None:
    """The documented limitation (README, bernstein_ask --help), pinned: these shells' read
    drops the NUL before any shell code runs, so the answer loses the byte. Should a shell's
    read start to keep it, this fails and the library can refuse the line there too."""
    shell_command(name)
    replies = b'{"in_reply_to":null,"answer":"a\x00b"}\n{"in_reply_to":null,"answer":"ok"}\n'
    result = run(name, 'bernstein_ask --var a Q && printf "<%s>" "$a"', stdin=replies)
    assert (result.status, result.stderr) == (0, b"")
    assert result.stdout.endswith(b"<ab>")
    help_text = run(name, "bernstein_ask --help").stdout
    assert b'a reply "a<NUL>b" gives the answer "ab"' in b" ".join(help_text.split())


# -- key:=JSON against the Python reader ----------------------------------------------

_JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
_JSON = st.recursive(
    _JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
_EDGES = st.sampled_from(
    [
        "1e400",
        "-1e400",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750"
        "9466490179775872070963302864166928879109465555478519404026306574886715058206819089"
        "0200070838367627385484581771153176447573027006985557136695962284291481986083493647"
        "5292719074168444365510704342711559699508093042880177904174497792.0",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750"
        "9466490179775872070963302864166928879109465555478519404026306574886715058206819089"
        "0200070838367627385484581771153176447573027006985557136695962284291481986083493647"
        "5292719074168444365510704342711559699508093042880177904174497791.9",
        "0.0e99999999999",
        "1e-99999999999",
        "1" * 4300,
        "-" + "1" * 4301,
        '"\\ud800"',
        '"\\udc00\\ud800"',
        '"\\ud83d\\ude00"',
        '"\ud800"',
        "[" * 63 + "]" * 63,
        "[" * 64 + "]" * 64,
        '{"a":' * 63 + "1" + "}" * 63,
        '{"a":' * 64 + "1" + "}" * 64,
    ]
)


def _mutate(text: str, data: st.DataObject) -> str:
    if not text or not data.draw(st.booleans()):
        return text
    at = data.draw(st.integers(0, len(text)))
    piece = data.draw(st.sampled_from(["e400", "\\ud800", "[", "]", "0", '"', "\\", "-", "."]))
    return text[:at] + piece + text[at:]


def _shell_rounds(number: str) -> str:
    """A double's text the helpers write (at most FLOAT_DIGITS significant digits, from
    1eFLOAT_EXPONENT_MIN up); any other is refused. The float is read as the reader would."""
    mantissa, _, exponent = number.lstrip("-").lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    if digits.rstrip("0"):
        first = len(whole) - (len(whole + fraction) - len(digits)) - 1 + int(exponent or 0)
        if len(digits.rstrip("0")) > FLOAT_DIGITS or first < FLOAT_EXPONENT_MIN:
            raise ValueError("the shell helpers refuse this double")
    return number


def _reader_line(value: str) -> bytes | None:
    """The line bernstein_emit prints for k:=value: the canonical line of what a reader
    reads (key:=JSON is written in canonical form, issue 15), or None when it is refused."""
    line = "BERNSTEIN:COMPLETED {" + '"k":' + value + "}"
    try:
        signal = parse_signal(line)
        if signal is None:
            return None
        json.loads(value, parse_float=_shell_rounds)
    except ValueError:
        return None
    return format_signal("COMPLETED", signal.payload, validate=False).encode()


@pytest.mark.timeout(600)
def test_emit_json_agrees_with_the_reader(shell: str) -> None:
    @settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.one_of(_JSON.map(lambda v: json.dumps(v, separators=(",", ":"))), _EDGES), st.data())
    def check(value: str, data: st.DataObject) -> None:
        value = _mutate(value, data)
        if "\n" in value or "\r" in value or "\0" in value:
            return
        expected = _reader_line(value)
        argument = value.encode("utf-8", "surrogatepass")
        result = run(shell, 'bernstein_emit COMPLETED "k:=$1"', argument)
        if expected is None:
            assert result.status == 2, (value, result.stdout)
            assert result.stdout == b""
        else:
            assert result.status == 0, (value, result.stderr)
            assert result.stdout == expected + b"\n"

    check()


# -- linear escaping ---------------------------------------------------------------------

_UNIT = 'a "b" \\c\td\t\t\n\n\r\x01é\u2028 \u0085x'
"""Every character the helpers escape, with runs of tabs and newlines."""


@pytest.mark.timeout(900)
def test_escaping_grows_linearly(shell: str) -> None:
    command = shell_command(shell)

    def make(size: int) -> object:
        text = _UNIT * (size // len(_UNIT.encode()) + 1)
        script = f'. "{LIBRARY}"; bernstein_plan_draft "$1" >/dev/null'

        def go() -> None:
            subprocess.run(
                [*command, "-c", script, "x", text],
                stdin=subprocess.DEVNULL,
                env={"LC_ALL": UTF8, "PATH": ""},
                check=True,
            )

        return go

    assert_linear(make, 5_000, what=f"{shell}: escaping", repeats=3)  # type: ignore[arg-type]


_ESCAPED = '\\"\\\\\\n\\u00e9\\ud83d\\ude00x%'


@pytest.mark.timeout(900)
def test_decoding_grows_linearly(shell: str) -> None:
    command = shell_command(shell)

    def make(size: int) -> object:
        answer = _ESCAPED * (size // len(_ESCAPED))
        reply = ('{"in_reply_to":null,"answer":"' + answer + '"}\n').encode()
        script = f'. "{LIBRARY}"; bernstein_ask Q >/dev/null'

        def go() -> None:
            subprocess.run(
                [*command, "-c", script],
                input=reply,
                capture_output=True,
                env={"LC_ALL": UTF8, "PATH": ""},
                check=True,
            )

        return go

    assert_linear(make, 2_000, what=f"{shell}: decoding", repeats=3)  # type: ignore[arg-type]


@pytest.mark.timeout(300)
def test_zsh_arguments_holding_nul() -> None:
    """zsh variables can hold NUL: the helpers escape it, or refuse it where it is not allowed."""
    shell_command("zsh")

    @settings(max_examples=25)
    @given(st.text(st.characters(codec="utf-8", exclude_characters="\x00\x01"), max_size=10))
    def check(text: str) -> None:
        value = text + "\x01" + text
        body = """v=${1//$'\\x01'/$'\\0'}
bernstein_emit COMPLETED "k=$v" || echo "status=$?" >&2
bernstein_emit COMPLETED "k:=\\"$v\\"" || echo "status=$?" >&2
bernstein_plan_ready ".sdd/$v" || echo "status=$?" >&2
bernstein_emit "$v" || echo "status=$?" >&2"""
        result = run("zsh", body, value)
        lines = result.stdout.split(b"\n")[:-1]
        assert len(lines) == 1, result
        signal = parse_signal(lines[0].decode("utf-8"))
        assert signal is not None
        assert signal.payload["k"] == value.replace("\x01", "\x00")
        assert result.stderr.count(b"status=2") == 3, result.stderr
        assert b"\x00" not in result.stderr

    check()


_JSON_UNIT = '{"k": "v\\"\\u00e9", "n": [1, -2.5e3, true, null]}, '


@pytest.mark.timeout(900)
def test_json_checking_grows_linearly(shell: str) -> None:
    command = shell_command(shell)

    def make(size: int) -> object:
        value = "[" + _JSON_UNIT * (size // len(_JSON_UNIT)) + "0]"
        script = f'. "{LIBRARY}"; bernstein_emit COMPLETED "k:=$1" >/dev/null'

        def go() -> None:
            subprocess.run(
                [*command, "-c", script, "x", value],
                stdin=subprocess.DEVNULL,
                env={"LC_ALL": UTF8, "PATH": ""},
                check=True,
            )

        return go

    assert_linear(make, 2_000, what=f"{shell}: key:= checking", repeats=3)  # type: ignore[arg-type]


# -- options that change matching or expansion, per shell ---------------------------------

_MATCHING_OPTIONS = {
    "bash": "shopt -s nocasematch nocaseglob extglob failglob nullglob dotglob; set -o posix",
    "zsh": (
        "setopt kshglob extendedglob shwordsplit globsubst ksharrays nocaseglob nocasematch"
        " rcexpandparam octalzeroes cshnullglob errreturn nounset"
    ),
    "mksh": "set -o posix -o braceexpand -o markdirs",
    "ksh93": "set -o braceexpand -o globstar -o markdirs -o noclobber",
    "dash": "set -C",
    "busybox": "set -C",
}

_SCRIPT = """bernstein_emit COMPLETED completed=1 "k=$1" 'j:=[1,{"a":"*?[x]"}]' || echo "s=$?"
bernstein_emit completed || echo "s=$?"
bernstein_emit X Key=1 || echo "s=$?"
bernstein_plan_ready .SDD/x || echo "s=$?"
bernstein_plan_ready '.sdd/*' || echo "s=$?"
bernstein_question "$1" --options '*' --options '?' --id "$1" || echo "s=$?"
bernstein_ask --var A --id "$1" Q || echo "s=$?"
printf '[%s]\\n' "$A"
"""


@pytest.mark.parametrize("shell_name", list(_MATCHING_OPTIONS))
def test_matching_options_change_nothing(shell_name: str) -> None:
    shell_command(shell_name)
    value = '*?[!a] {a,b} ~ ^x #0 $(x) 010 "\\'
    reply = json.dumps({"in_reply_to": value, "answer": "A*" + value}).encode() + b"\n"
    plain = run(shell_name, _SCRIPT, value, stdin=reply)
    hostile = run(shell_name, _MATCHING_OPTIONS[shell_name] + "\n" + _SCRIPT, value, stdin=reply)
    assert plain.stderr.count(b"\n") == 3, plain.stderr
    assert plain.stdout.count(b"s=2") == 3, plain.stdout
    assert b"[A*" in plain.stdout, plain.stdout
    assert (hostile.stdout, hostile.stderr) == (plain.stdout, plain.stderr)
