"""key:=JSON and bernstein_emit KIND :=JSON are written in canonical form (spec/canonical-form.md).

The oracle is the Python binding: Python's ``json`` reads the text the test
wrote (in a random, non-canonical spelling) and ``format_signal`` writes the
canonical line; the helpers must print the same bytes in every shell.
"""

from __future__ import annotations

import json
import random
import re
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals import format_signal
from bernstein_signals.limits import MAX_INTEGER_DIGITS, MAX_NESTING_DEPTH
from bernstein_signals_toolkit.generator.shell_help import (
    FLOAT_DIGITS,
    FLOAT_EXPONENT_MIN,
    MAX_SORTED_MEMBERS,
)
from linear_support import assert_linear
from shell_support import LIBRARY, UTF8, reference_format, run, shell_command

_SETTINGS = settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])


class _Double(str):
    """A JSON number with a fraction or an exponent, as the text the test writes."""


@st.composite
def _doubles(draw: st.DrawFn) -> _Double:
    """A decimal of at most FLOAT_DIGITS significant digits, in the normal range, any spelling."""
    if draw(st.integers(0, 15)) == 0:
        return _Double(draw(st.sampled_from(["0.0", "-0.0", "0e5", "-0E-400", "0.000"])))
    digits = str(draw(st.integers(1, 10**FLOAT_DIGITS - 1)))
    digits = "0" * draw(st.integers(0, 3)) + digits + "0" * draw(st.integers(0, 3))
    point = draw(st.integers(1, len(digits)))
    whole = digits[:point].lstrip("0") or "0"
    fraction = digits[point:]
    exponent = draw(st.one_of(st.none(), st.integers(-290, 290)))
    text = draw(st.sampled_from(["", "-"])) + whole
    if fraction or exponent is None:
        text += "." + (fraction or "0")
    if exponent is not None:
        sign = "-" if exponent < 0 else draw(st.sampled_from(["", "+"]))
        text += draw(st.sampled_from("eE")) + sign + str(abs(exponent))
    return _Double(text)


_CHARS = st.one_of(
    st.characters(codec="utf-8", exclude_categories=["Cs"]),
    st.sampled_from(
        [
            *("\x00", "\x01", "\x08", "\x1f", '"', "\\", "/", "\x7f", "\x85", "\u2028", "\u2029"),
            *("\ue000", "\ufb33", "\uffff", "\U0001f600", "\U00010000", "\u00e9", "A", "a", "_"),
        ]
    ),
)
_TEXT = st.text(_CHARS, max_size=6)
_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    _doubles(),
    _TEXT,
)
_JSON = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=5),
    max_leaves=12,
)

_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_MUST_ESCAPE = {"\x85", "\u2028", "\u2029"}
"""Raw, these end a line for some readers: the helpers refuse them raw in key:=JSON."""


def _unicode_escape(char: str, rng: random.Random) -> str:
    units = char.encode("utf-16-be")
    text = "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
    return text.upper().replace("\\U", "\\u") if rng.random() < 0.5 else text


def _string(text: str, rng: random.Random) -> str:
    out = []
    for char in text:
        if char in _SHORT and rng.random() < 0.7:
            out.append(_SHORT[char])
        elif char == "/" and rng.random() < 0.5:
            out.append("\\/")
        elif ord(char) < 0x20 or char in '"\\' or char in _MUST_ESCAPE or rng.random() < 0.2:
            out.append(_unicode_escape(char, rng))
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _dump(value: object, rng: random.Random) -> str:
    """JSON text of value, in a random spelling: white space, key order, escapes."""

    def space() -> str:
        return rng.choice(["", "", " ", "\t", "  "])

    if isinstance(value, _Double):
        return str(value)
    if isinstance(value, str):
        return _string(value, rng)
    if isinstance(value, list):
        items = [space() + _dump(item, rng) + space() for item in value]
        return "[" + ",".join(items) + "]" if items else "[" + space() + "]"
    if isinstance(value, dict):
        members = list(value.items())
        rng.shuffle(members)
        texts = [
            space() + _string(key, rng) + space() + ":" + space() + _dump(item, rng) + space()
            for key, item in members
        ]
        return "{" + ",".join(texts) + "}" if texts else "{" + space() + "}"
    return json.dumps(value)


def _expected(kind: str, payload_text: str) -> bytes:
    """The canonical line of the payload that Python's json reads from payload_text."""
    return format_signal(kind, json.loads(payload_text), validate=False).encode() + b"\n"


@pytest.mark.timeout(600)
def test_key_json_is_written_as_format_signal_writes_it(shell: str) -> None:
    """Any JSON value through key:=, and any object through :=, gives format_signal's line."""

    @_SETTINGS
    @given(_JSON, st.dictionaries(_TEXT, _JSON, max_size=4), st.randoms(use_true_random=False))
    def check(value: object, payload: dict[str, object], rng: random.Random) -> None:
        value_text, payload_text = _dump(value, rng), _dump(payload, rng)
        body = 'bernstein_emit COMPLETED "k:=$1" && bernstein_emit X_EXTRA ":=$2"'
        result = run(shell, body, value_text.encode(), payload_text.encode())
        assert (result.status, result.stderr) == (0, b""), (value_text, payload_text)
        expected = _expected("COMPLETED", '{"k":' + value_text + "}")
        expected += _expected("COMPLETED", payload_text).replace(b":COMPLETED", b":X_EXTRA", 1)
        assert result.stdout == expected, (value_text, payload_text)

    check()


@pytest.mark.timeout(600)
def test_doubles_are_exact(shell: str) -> None:
    """Number::toString computed from the digits agrees with Python's shortest repr, exactly."""

    @_SETTINGS
    @given(st.lists(_doubles(), min_size=1, max_size=8))
    def check(numbers: list[_Double]) -> None:
        text = "[" + ",".join(numbers) + "]"
        result = run(shell, 'bernstein_emit COMPLETED "k:=$1"', text)
        assert (result.status, result.stderr) == (0, b""), text
        assert result.stdout == _expected("COMPLETED", '{"k":' + text + "}"), text

    check()


_EXAMPLES = [
    ('{"b":1,"a":2}', b'{"a":2,"b":1}'),
    ('{"\\ufb33":1,"\\ud83d\\ude00":2}', '{"\U0001f600":2,"\ufb33":1}'.encode()),
    (
        '{"b":1,"B":2,"\\u00e9":3,"e":4,"\\u0000":5,"":6}',
        '{"":6,"\\u0000":5,"B":2,"b":1,"e":4,"é":3}'.encode(),
    ),
    (
        "[1.0,1E2,-0.0,-0,1e21,1e-7,0.000001,1.50,1E+300,123e-2]",
        b"[1,100,0,0,1e+21,1e-7,0.000001,1.5,1e+300,1.23]",
    ),
    (
        '"\\/\\u0041\\u00e9\\u001F\\u0008\\u0085\\u2028\\u2029\\u0000\\u007f"',
        '"/Aé\\u001f\\b\\u0085\\u2028\\u2029\\u0000\x7f"'.encode(),
    ),
    ("[ 1 ,\t{ } , [ ] ,true,false,null ]", b"[1,{},[],true,false,null]"),
    ("9007199254740993", b"9007199254740993"),
]


@pytest.mark.parametrize(("text", "line"), _EXAMPLES, ids=[text for text, _ in _EXAMPLES])
def test_spec_examples(shell: str, text: str, line: bytes) -> None:
    result = run(shell, 'bernstein_emit X "k:=$1"', text)
    assert (result.status, result.stderr) == (0, b"")
    assert result.stdout == b'BERNSTEIN:X {"k":' + line + b"}\n"


def _refusal(shell: str, body: str, *args: str) -> str:
    result = run(shell, body, *args)
    assert (result.status, result.stdout) == (2, b""), result
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_doubles_it_cannot_round_are_refused_with_the_reason(shell: str) -> None:
    many = "0.30000000000000004"
    message = _refusal(shell, 'bernstein_emit X "x:=$1"', many)
    assert message == (
        f"bernstein_emit: x:= number {many} has more than {FLOAT_DIGITS} significant digits:"
        f" the shell helpers cannot round it as a double; write at most {FLOAT_DIGITS}, or an"
        " integer"
    )
    tiny = f"1e{FLOAT_EXPONENT_MIN - 1}"
    message = _refusal(shell, 'bernstein_emit X "x:=$1"', f"[{tiny}]")
    assert f"number {tiny} is below 1e{FLOAT_EXPONENT_MIN}" in message
    # The smallest accepted, and trailing zeros past the digit limit are not digits.
    result = run(
        shell, 'bernstein_emit X "x:=$1"', f"[1e{FLOAT_EXPONENT_MIN},1.50000000000000000000]"
    )
    assert result.stdout == f'BERNSTEIN:X {{"x":[1e{FLOAT_EXPONENT_MIN},1.5]}}\n'.encode()
    message = _refusal(shell, 'bernstein_emit X "x:=$1"', "1e400")
    assert message == (
        "bernstein_emit: x:= number 1e400 is past the double range"
        " (it reads as infinity, which JSON cannot carry)"
    )


def test_long_number_text_is_refused_up_front(shell: str) -> None:
    """Past the longest integer in the deepest nesting a number is refused before it is read."""
    longest = MAX_INTEGER_DIGITS + 1 + 4 * MAX_NESTING_DEPTH
    deep = (
        "[ " * (MAX_NESTING_DEPTH - 1)
        + "-"
        + "9" * MAX_INTEGER_DIGITS
        + " ]" * (MAX_NESTING_DEPTH - 1)
    )
    result = run(shell, 'bernstein_emit X "k:=$1"', deep)
    assert (result.status, result.stderr) == (0, b"")
    assert result.stdout == _expected("COMPLETED", '{"k":' + deep + "}").replace(
        b":COMPLETED", b":X", 1
    )
    text = "1." + "0" * longest
    assert _refusal(shell, 'bernstein_emit X "k:=$1"', text) == (
        f"bernstein_emit: k:= number 1.{'0' * 38}... has more than {longest} characters:"
        f" the shell helpers refuse it; write at most {FLOAT_DIGITS} significant digits,"
        f" or an integer of at most {MAX_INTEGER_DIGITS} digits"
    )


def test_keys_twice_and_big_unsorted_objects_are_refused(shell: str) -> None:
    assert _refusal(shell, 'bernstein_emit X "x:=$1"', '{"a":1,"b":{"c":1,"c":2}}') == (
        'bernstein_emit: x:= key "c" given twice in one object'
    )
    assert "given twice" in _refusal(shell, 'bernstein_emit X "x:=$1"', '{"b":1,"a":2,"b":3}')
    assert "given twice" in _refusal(shell, 'bernstein_emit X ":=$1"', '{"\\u0061":1,"a":2}')
    members = [f'"k{i:03d}":{i}' for i in range(MAX_SORTED_MEMBERS + 1)]
    in_order = "{" + ",".join(members) + "}"
    result = run(shell, 'bernstein_emit X "x:=$1"', in_order)
    assert result.stdout == b'BERNSTEIN:X {"x":' + in_order.encode() + b"}\n"
    swapped = "{" + ",".join([members[1], members[0], *members[2:]]) + "}"
    assert _refusal(shell, 'bernstein_emit X "x:=$1"', swapped) == (
        f"bernstein_emit: x:= an object of more than {MAX_SORTED_MEMBERS} members must have its"
        ' keys in canonical order (UTF-16 code units): "k000" before "k001"'
    )
    # Up to the limit, any order is sorted.
    few = members[:MAX_SORTED_MEMBERS]
    result = run(shell, 'bernstein_emit X ":=$1"', "{" + ",".join(reversed(few)) + "}")
    assert result.stdout == b"BERNSTEIN:X {" + ",".join(few).encode() + b"}\n"


def test_whole_payload(shell: str) -> None:
    body = """bernstein_emit COMPLETED :='{}'
bernstein_emit --known QUESTION :=' { "question" : "Go?" } '
for p in '[1]' '"x"' 1 true null; do bernstein_emit COMPLETED ":=$p" || echo "status=$?" >&2; done
bernstein_emit COMPLETED := || echo "status=$?" >&2
bernstein_emit COMPLETED :='{}' a=1 || echo "status=$?" >&2"""
    result = run(shell, body)
    assert result.stdout == b'BERNSTEIN:COMPLETED {}\nBERNSTEIN:QUESTION {"question":"Go?"}\n'
    assert result.stderr.decode().splitlines() == [
        *(
            line
            for kind in ["an array", "a string", "a number", "a boolean", "null"]
            for line in (
                f"bernstein_emit: := gives the payload, which must be a JSON object, not {kind}",
                "status=2",
            )
        ),
        "bernstein_emit: := needs one JSON value on one line",
        "status=2",
        "bernstein_emit: :=JSON is the whole payload: give no other argument with it",
        "status=2",
    ]


def test_known_refuses_unknown_kinds_and_checks_field_types(shell: str) -> None:
    known = "BLOCKED, COMPLETED, FAILED, PLAN_DRAFT, PLAN_READY, QUESTION"
    assert _refusal(shell, "bernstein_emit --known NOPE a=1") == (
        f"bernstein_emit: unknown kind NOPE (--known: this library knows {known})"
    )
    assert "ALL-CAPS" in _refusal(shell, "bernstein_emit --known completed")
    assert _refusal(shell, "bernstein_emit --known FAILED reason:=1") == (
        "bernstein_emit: field reason of FAILED must be JSON string, not integer"
        " (--known checks the type of each field the kind's schema declares)"
    )
    assert "must be JSON null or string, not number" in _refusal(
        shell, """bernstein_emit --known QUESTION :='{"question":"q","id":1.5}'"""
    )
    body = """bernstein_emit NOPE a=1
bernstein_emit FAILED reason:=1
bernstein_emit --known QUESTION :='{"options":null,"id":null,"question":"q","n":[1]}'
bernstein_emit --known PLAN_READY path=.sdd/p.md steps:=4.0"""
    result = run(shell, body)
    assert (result.status, result.stderr) == (0, b"")
    assert result.lines == [
        b'BERNSTEIN:NOPE {"a":"1"}',
        b'BERNSTEIN:FAILED {"reason":1}',
        b'BERNSTEIN:QUESTION {"id":null,"n":[1],"options":null,"question":"q"}',
        b'BERNSTEIN:PLAN_READY {"path":".sdd/p.md","steps":4}',
    ]


@pytest.fixture(scope="module")
def collating_locale(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An en_US.UTF-8 locale (its collation puts a before B), built with localedef."""
    folder = tmp_path_factory.mktemp("locales")
    built = subprocess.run(
        ["localedef", "-i", "en_US", "-f", "UTF-8", str(folder / "en_US.UTF-8")],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
    )
    if built.returncode != 0:
        pytest.fail(f"localedef en_US.UTF-8 failed (Debian package locales): {built.stderr!r}")
    return {"LOCPATH": str(folder), "LC_ALL": "en_US.UTF-8"}


def test_keys_sort_by_code_units_in_any_locale(
    shell: str, collating_locale: dict[str, str]
) -> None:
    """The caller's collation (a before B, é beside e) never reaches the key order."""
    script = f'''. "{LIBRARY}"; bernstein_emit X ":=$1"; [ B \\< a ] || echo "caller's collation"'''
    done = subprocess.run(
        [*shell_command(shell), "-c", script, "x", '{"b":1,"B":2,"a":3,"_":4,"\\u00e9":5,"f":6}'],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", **collating_locale},
        check=True,
    )
    lines = done.stdout.decode().splitlines()
    assert lines[0] == 'BERNSTEIN:X {"B":2,"_":4,"a":3,"b":1,"f":6,"é":5}'
    if shell == "ksh93":  # its test collates by the locale: the locale is in force
        assert lines[1:] == ["caller's collation"]


def test_members_keep_their_place_after_escapes(shell: str) -> None:
    """A \\u escape in one key:= value does not disturb the other arguments' members."""
    body = """bernstein_emit X a:='"\\u0041"' b=x c:='"\\u0042"' d=y"""
    result = run(shell, body)
    assert result.lines == [b'BERNSTEIN:X {"a":"A","b":"x","c":"B","d":"y"}']


def _functions(text: str) -> dict[str, str]:
    """The library's functions: name -> body (a top-level `name() {` up to its `}`)."""
    found = re.finditer(r"(?ms)^(_bsig_\w+|bernstein_\w+)\(\) \{\n(.*?)^\}", text)
    return {match[1]: match[2] for match in found}


def test_json_escapes_have_one_reader() -> None:
    """D10: one function reads a JSON escape; replies and key:=JSON both go through it."""
    functions = _functions(LIBRARY.read_text(encoding="utf-8"))

    def callers(name: str) -> set[str]:
        return {caller for caller, body in functions.items() if re.search(rf"\b{name}\b", body)}

    assert callers("_bsig_hex4") == {"_bsig_jesc"}
    assert callers("_bsig_jesc") == {"_bsig_jpiece"}
    assert callers("_bsig_jpiece") == {"_bsig_jstr", "_bsig_jpass"}
    assert callers("_bsig_jcp") == {"_bsig_jesc", "_bsig_code"}


_UNIT = '{"k": "v\\"\\u00e9", "b": [1, -2.5e3, true, null], "a": {"\\ud83d\\ude00": 0.5}}, '


@pytest.mark.timeout(900)
def test_canonical_writing_grows_linearly(shell: str) -> None:
    """Many small objects out of order, then one big object in order: linear in the size."""
    command = shell_command(shell)

    def make(size: int) -> object:
        count = size // len(_UNIT)
        big = ",".join(f'"m{i:07d}":{i}.5' for i in range(count // 4))
        value = "[" + _UNIT * count + "{" + big + "}]"
        script = f'. "{LIBRARY}"; bernstein_emit COMPLETED "k:=$1" >/dev/null'

        def go() -> None:
            subprocess.run(
                [*command, "-c", script, "x", value],
                stdin=subprocess.DEVNULL,
                env={"LC_ALL": UTF8, "PATH": ""},
                check=True,
            )

        return go

    assert_linear(make, 2_000, what=f"{shell}: canonical key:=", repeats=3)  # type: ignore[arg-type]


@pytest.mark.timeout(900)
def test_one_long_number_costs_linear_time(shell: str) -> None:
    """A number token of any length: refused past the bound, never a quadratic expansion."""
    command = shell_command(shell)

    def make(size: int) -> object:
        value = "[1." + "0" * size + "1]"
        script = f'. "{LIBRARY}"; bernstein_emit COMPLETED "k:=$1" >/dev/null 2>&1'

        def go() -> None:
            subprocess.run(
                [*command, "-c", script, "x", value],
                stdin=subprocess.DEVNULL,
                env={"LC_ALL": UTF8, "PATH": ""},
                check=False,
            )

        return go

    assert_linear(make, 10_000, what=f"{shell}: long number", repeats=3)  # type: ignore[arg-type]


def test_keys_with_bytes_zsh_keeps_in_meta_encoding_sort_as_bytes(shell: str) -> None:
    """UTF-8 continuation bytes 0x83-0x9F (U+0083-U+009F, U+00C3..., every third byte of
    most CJK) sort before 0xA0-0xBF in every shell: zsh's ``[[ < ]]`` put them after."""
    keys = ["\x85", "\xa0", "\x9f", "a", "\u0103", "\u00e9", "\u4e9f", "\u4ea0"]
    payload = {key: index for index, key in enumerate(keys)}
    text = json.dumps(payload)  # escaped, in a non-canonical order
    result = run(shell, 'bernstein_emit X "k:=$1"', text.encode())
    assert (result.status, result.stderr) == (0, b"")
    assert result.stdout == reference_format("X", {"k": payload}) + b"\n"
