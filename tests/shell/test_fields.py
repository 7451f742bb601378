"""Field types in kind helpers: what the shell carries and checks, and what it leaves to Python.

A temporary vocabulary adds kinds whose fields use enums, bounded integers, string
arrays, lengths in code points, and fields the shell cannot carry (a nested object,
a number, a list of objects): those stay out of the helper's options, its --help
says so, and bernstein_emit still reaches them.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bernstein_signals_toolkit.generator import shell_checks
from bernstein_signals_toolkit.generator.keywords import KEYWORDS, TARGETS, Support
from linear_support import assert_linear
from shell_support import kind_schema, reference_format, run, shell_command, temporary_library

STATUS = {"description": "Where it is.", "type": "string", "enum": ["running", "done"]}
PERCENT = {
    "description": "How far.",
    "type": "integer",
    "minimum": 0,
    "exclusiveMaximum": 101,
    "multipleOf": 5,
    "x-bernstein-message": {"multipleOf": "goes in steps of 5"},
}
TAGS = {
    "description": "Labels.",
    "type": "array",
    "items": {"type": "string", "minLength": 2, "maxLength": 3},
    "minItems": 1,
    "maxItems": 3,
    "uniqueItems": True,
}
USAGE = {
    "description": "Tokens spent.",
    "type": "object",
    "properties": {"tokens": {"type": "integer", "minimum": 1}},
}
SPOTS = {
    "description": "Places.",
    "type": "array",
    "items": {"type": "object", "required": ["file"]},
}
RATIO = {"description": "A fraction.", "type": "number", "maximum": 1}
LEVEL = {"description": "A level.", "type": "integer", "const": 3}
CODE = {"description": "A code.", "type": "string", "pattern": "^[\\]A-C-]{2,3}$"}
STEPS = {"description": "Steps.", "type": "integer", "multipleOf": 7, "minimum": -(10**30)}

PROGRESS = kind_schema(
    "PROGRESS",
    {
        "status": STATUS,
        "percent": PERCENT,
        "tags": TAGS,
        "usage": USAGE,
        "spots": SPOTS,
        "ratio": RATIO,
        "level": LEVEL,
        "steps": STEPS,
        "code": CODE,
    },
    ["status"],
)
NEEDS_USAGE = kind_schema("NEEDS_USAGE", {"usage": USAGE}, ["usage"])
WITH_DEFS = kind_schema(
    "WITH_DEFS",
    {
        "status": STATUS,
        "spot": {"description": "A place.", "$ref": "#/$defs/spot", "type": "object"},
    },
    ["status"],
    **{"$defs": {"spot": {"type": "object", "required": ["file"]}}},
)
AT_MOST_ONE = kind_schema(
    "AT_MOST_ONE",
    {"status": STATUS, "percent": PERCENT},
    [],
    maxProperties=1,
)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return temporary_library(
        tmp_path_factory.mktemp("fields"), PROGRESS, NEEDS_USAGE, AT_MOST_ONE, WITH_DEFS
    )


CALLS: list[tuple[list[str], dict[str, object] | None]] = [
    (["running"], {"status": "running"}),
    (["done", "--percent", "100", "--level", "3"], {"status": "done", "percent": 100, "level": 3}),
    (["done", "--percent", "0"], {"status": "done", "percent": 0}),
    (["done", "--percent", "-0"], None),
    (["done", "--percent", "101"], None),
    (["done", "--percent", "105"], None),
    (["done", "--percent", "-5"], None),
    (["done", "--percent", "7"], None),
    (["done", "--percent", "5.0"], None),
    (["done", "--percent", "1" + "0" * 30], None),
    (["done", "--level", "4"], None),
    (["paused"], None),
    (["Done"], None),
    (["done", "--tags", "ab", "--tags", "çé😀"], {"status": "done", "tags": ["ab", "çé😀"]}),
    (["done", "--tags", "ab", "--tags", "ab"], None),
    (["done", "--tags", "a"], None),
    (["done", "--tags", "abcd"], None),
    (["done", "--tags", "😀😀😀😀"], None),
    (["done", "--tags", "ab", "--tags", "cd", "--tags", "ef", "--tags", "gh"], None),
    (["done", "--usage", '{"tokens":1}'], None),
    # Integers of any length up to the readers' 4300 digits: no 64-bit arithmetic.
    (["done", "--steps", "7" * 4300], {"status": "done", "steps": int("7" * 4300)}),
    (["done", "--steps", "-" + "7" * 4300], None),
    (["done", "--steps", "7" * 4301], None),
    (["done", "--steps", str(7 * 10**40 + 7)], {"status": "done", "steps": 7 * 10**40 + 7}),
    (["done", "--steps", str(7 * 10**40 + 1)], None),
    (["done", "--steps", str(-7 * 10**29)], {"status": "done", "steps": -7 * 10**29}),
    (["done", "--steps", str(-7 * 10**30)], None),
    (["done", "--steps", "-0"], None),
    # One ASCII class over the whole value: ], - and ranges as ECMA-262 reads them.
    (["done", "--code", "]-C"], {"status": "done", "code": "]-C"}),
    (["done", "--code", "AB"], {"status": "done", "code": "AB"}),
    (["done", "--code", "A"], None),
    (["done", "--code", "ABCA"], None),
    (["done", "--code", "Ab"], None),
    (["done", "--code", "AÉ"], None),
    (["done", "--code", "AB\n"], None),
    (["done", "--ratio", "0.5"], None),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_enum_bounds_and_string_arrays_in_every_shell(
    shell: str, library: Path, locale: str
) -> None:
    """Lengths count code points whether the shell counts characters or bytes here."""
    body = "\n".join(
        "bernstein_progress "
        + " ".join(f'"${{{index + 1}}}"' for index in range(start, end))
        + ' || echo "status=$?"'
        for start, end in _spans()
    )
    args = [arg for call, _ in CALLS for arg in call]
    result = run(shell, body, *args, library=library, locale=locale)
    expected = [
        reference_format("PROGRESS", payload) if payload else b"status=2" for _, payload in CALLS
    ]
    assert result.lines == expected, result.stderr.decode()
    messages = result.stderr.decode().splitlines()
    assert len(messages) == sum(payload is None for _, payload in CALLS)
    assert "bernstein_progress: --percent goes in steps of 5" in messages
    assert 'bernstein_progress: STATUS must be one of "running", "done"' in messages
    assert "bernstein_progress: each --tags item must be at most 3 characters long" in messages
    assert "bernstein_progress: --tags must hold at most 3 items" in messages
    assert any(m.startswith("bernstein_progress: unknown option --usage") for m in messages)


SURROGATE_TAGS: list[tuple[str, bool]] = [
    ("\ud800", False),  # one code point: under --tags' minLength 2
    ("\ud800\udc80", True),  # two: a pair in CESU-8 is two code points, as in Python
    ("a\udfff", True),
    ("\udfff\ud800b", True),
    ("\ud800" * 4, False),  # four: over maxLength 3
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_a_lone_surrogate_as_bytes_counts_as_one_code_point(
    shell: str, library: Path, locale: str
) -> None:
    """Bytes that are a lone surrogate (its surrogatepass encoding) count as one code point,
    as Python's surrogatepass decoding counts them, in every shell and locale; the line
    copies them as they are (readers then refuse it as not UTF-8)."""
    for text, taken in SURROGATE_TAGS:
        raw = text.encode("utf-8", "surrogatepass")
        result = run(
            shell, 'bernstein_progress done --tags "$1"', raw, library=library, locale=locale
        )
        if taken:
            line = b'BERNSTEIN:PROGRESS {"status":"done","tags":["' + raw + b'"]}\n'
            assert (result.status, result.stdout, result.stderr) == (0, line, b""), text
        else:
            bound = "least 2" if len(text) < 2 else "most 3"
            message = f"bernstein_progress: each --tags item must be at {bound} characters long\n"
            assert (result.status, result.stdout) == (2, b""), text
            assert result.stderr == message.encode(), text


def _spans() -> list[tuple[int, int]]:
    spans, start = [], 0
    for call, _ in CALLS:
        spans.append((start, start + len(call)))
        start += len(call)
    return spans


def test_python_only_fields_are_named_in_help_and_reached_by_emit(library: Path) -> None:
    result = run(
        "bash",
        "bernstein_progress --help\n"
        'bernstein_emit PROGRESS status=done \'usage:={"tokens":2}\' \'spots:=[{"file":"a"}]\'',
        library=library,
    )
    assert result.status == 0, result.stderr
    help_text = result.stdout.decode()
    assert help_text.startswith(
        "Usage: bernstein_progress STATUS [--percent VALUE] [--tags VALUE]... [--level VALUE]"
        " [--steps VALUE] [--code VALUE]\n"
    )
    python_only = help_text.split("Python-only fields (not options here):\n")[1]
    for name in ("usage", "spots", "ratio"):
        assert f"\n  {name}\n" in f"\n{python_only}"
    assert "'type' at" not in python_only
    assert "bernstein_emit PROGRESS key=value key:=JSON" in python_only
    assert result.lines[-1] == reference_format(
        "PROGRESS", {"status": "done", "usage": {"tokens": 2}, "spots": [{"file": "a"}]}
    )


def test_defs_alone_leave_the_helper_available(library: Path) -> None:
    """$defs asserts nothing; the member that refers into it is the Python-only one."""
    result = run(
        "bash",
        'bernstein_with_defs done --spot x || echo "status=$?"\n'
        "bernstein_with_defs done\n"
        "bernstein_with_defs --help\n",
        library=library,
    )
    assert result.lines[:2] == [b"status=2", reference_format("WITH_DEFS", {"status": "done"})]
    assert b"unknown option --spot" in result.stderr
    help_text = " ".join(result.stdout.decode().split())
    assert "Python-only fields (not options here): spot '$ref' at / is not compiled" in help_text


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("needs_usage", "required field(s) usage cannot be shell arguments"),
        ("at_most_one", "the kind's 'maxProperties' (at /) is not compiled for the shell"),
    ],
)
def test_a_helper_that_cannot_build_a_valid_payload_refuses_alone(
    shell: str, library: Path, kind: str, why: str
) -> None:
    """Only that kind's helper refuses; the vocabulary generates and every other helper works."""
    result = run(
        shell,
        f'bernstein_{kind} || echo "status=$?"\n'
        f"bernstein_{kind} --help\n"
        "bernstein_progress done\n"
        f"bernstein_emit {kind.upper()} 'usage:={{\"tokens\":1}}'",
        library=library,
    )
    assert result.lines[0] == b"status=2"
    assert result.stderr.decode() == (
        f"bernstein_{kind}: not available in shell: {why}; use bernstein_emit {kind.upper()}"
        " (try --help)\n"
    )
    help_text = b"\n".join(result.lines[1:-2]).decode()
    assert help_text.startswith(f"Usage: bernstein_{kind} --help\n")
    assert f"Not available in shell: {why}." in " ".join(help_text.split())
    assert result.lines[-2] == reference_format("PROGRESS", {"status": "done"})
    assert result.lines[-1] == reference_format(kind.upper(), {"usage": {"tokens": 1}})


def test_the_emitter_builds_every_keyword_the_shell_column_compiles() -> None:
    """The table's shell column and the emitter agree: nothing compiled is left unbuilt."""
    column = TARGETS.index("shell")
    compiled = {keyword for keyword, row in KEYWORDS.items() if row[column] is Support.COMPILED}
    assert compiled == shell_checks._BUILT


LONG = kind_schema(
    "LONG_TEXT",
    {"text": {"description": "Text.", "type": "string", "maxLength": 1}},
    ["text"],
)


@pytest.mark.timeout(900)
@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_length_checks_grow_linearly(
    shell: str, tmp_path_factory: pytest.TempPathFactory, locale: str
) -> None:
    """Counting code points (continuation bytes off) is linear in every shell and locale."""
    library = temporary_library(tmp_path_factory.mktemp("long"), LONG)
    command = shell_command(shell)
    unit = "aé€😀 "

    def make(size: int) -> Callable[[], object]:
        text = unit * (size // len(unit.encode()) + 1)
        # Over a byte each: counted in full, then refused (status 2).
        script = f'. "{library}"; bernstein_long_text "$1" 2>/dev/null || :'
        return lambda: subprocess.run(
            [*command, "-c", script, "x", text],
            stdin=subprocess.DEVNULL,
            env={"LC_ALL": locale, "PATH": ""},
            check=True,
        )

    assert_linear(make, 5_000, what=f"{shell}: code point length", repeats=3)
