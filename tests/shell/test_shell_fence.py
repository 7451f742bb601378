"""The fence in the shell helpers (issue 17): the key taken at source time, HMAC-SHA256 in
shell arithmetic, every helper's line marked byte for byte as the Python binding marks it,
and nothing the script starts sees the key."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    FenceVerifier,
    SignalKey,
    SignalMarker,
    completed,
    failed,
    parse_signal,
)
from bernstein_signals.fence_rules import (
    KEY_FD_VARIABLE,
    KEY_REFUSED_STATUS,
    KEY_VARIABLE,
    MAX_SEQUENCE,
)
from fence_support import socket_holding
from linear_support import assert_linear
from shell_support import LIBRARY, NO_EXTERNALS, ROOT, SHELLS, UTF8, Result, shell_command

VECTORS = json.loads((ROOT / "tests" / "data" / "fence_vectors.json").read_text(encoding="utf-8"))
KEY_TEXT: str = VECTORS["key"]
SECRET = KEY_TEXT.split(":")[1]
KEY = SignalKey.parse(KEY_TEXT)
ALL = list(SHELLS)
MKSH_MAX_SEQUENCE = 2**31 - 1
"""mksh's arithmetic is 32-bit: its shell counts marks to here, then refuses."""


def _run(
    shell: str,
    body: str,
    *args: str | bytes,
    env: Mapping[str, str] | None = None,
    stdin: bytes = b"",
    locale: str = UTF8,
    key_fd: bytes | None = None,
    path: str | None = None,
    source: bool = True,
    keep_open: bool = False,
) -> Result:
    """``body`` after sourcing the library (unless ``source`` is False: then ``body`` does);
    the key (by default) in the environment.

    ``key_fd``: these bytes on fd 3 (a socket, written and closed) instead, with
    KEY_FD_VARIABLE=3; ``keep_open``: the writer keeps its end open while the shell runs.
    """
    full = {
        "PATH": os.environ.get("PATH", "") if path is None else path,
        "HOME": os.environ.get("HOME", "/tmp"),
        "LC_ALL": locale,
        "BSIG_LIB": str(LIBRARY),
    }
    if env is None:
        env = {KEY_VARIABLE: KEY_TEXT} if key_fd is None else {KEY_FD_VARIABLE: "3"}
    full.update(env)
    script = f'. "$BSIG_LIB"\n{body}\n' if source else body
    command = [*shell_command(shell), "-c", script, "wrapper", *args]
    if key_fd is None:
        done = subprocess.run(command, input=stdin, capture_output=True, env=full, check=False)
        return Result(done.returncode, done.stdout, done.stderr)
    read_end, writer = socket_holding(key_fd, close_writer=not keep_open)
    try:
        done = subprocess.run(
            command,
            input=stdin,
            capture_output=True,
            env=full,
            check=False,
            pass_fds=(3,),
            preexec_fn=lambda: os.dup2(read_end, 3),  # the key's fd is 3
        )
    finally:
        os.close(read_end)
        if writer is not None:
            writer.close()
    return Result(done.returncode, done.stdout, done.stderr)


def _marked_like_python(lines: list[bytes], start: int = 1) -> list[bytes]:
    """What SignalMarker writes for the signals of ``lines`` (marked or not), from seq ``start``."""
    marker = SignalMarker(KEY)
    for _ in range(start - 1):
        marker.mark("COMPLETED")
    expected = []
    for line in lines:
        signal = parse_signal(line.decode())
        assert signal is not None, line
        payload = dict(signal.payload or {})
        payload.pop("_sig", None)
        expected.append(marker.mark(signal.kind, payload or None).encode())
    return expected


def _verify(lines: list[bytes]) -> None:
    verifier = FenceVerifier(KEY)
    for line in lines:
        verdict = verifier.check(line.decode())
        assert verdict.signal is not None, (line, verdict.code, verdict.problem)


_K256 = [
    int(x, 16)
    for x in [
        "428a2f98",
        "71374491",
        "b5c0fbcf",
        "e9b5dba5",
        "3956c25b",
        "59f111f1",
        "923f82a4",
        "ab1c5ed5",
        "d807aa98",
        "12835b01",
        "243185be",
        "550c7dc3",
        "72be5d74",
        "80deb1fe",
        "9bdc06a7",
        "c19bf174",
        "e49b69c1",
        "efbe4786",
        "0fc19dc6",
        "240ca1cc",
        "2de92c6f",
        "4a7484aa",
        "5cb0a9dc",
        "76f988da",
        "983e5152",
        "a831c66d",
        "b00327c8",
        "bf597fc7",
        "c6e00bf3",
        "d5a79147",
        "06ca6351",
        "14292967",
        "27b70a85",
        "2e1b2138",
        "4d2c6dfc",
        "53380d13",
        "650a7354",
        "766a0abb",
        "81c2c92e",
        "92722c85",
        "a2bfe8a1",
        "a81a664b",
        "c24b8b70",
        "c76c51a3",
        "d192e819",
        "d6990624",
        "f40e3585",
        "106aa070",
        "19a4c116",
        "1e376c08",
        "2748774c",
        "34b0bcb5",
        "391c0cb3",
        "4ed8aa4a",
        "5b9cca4f",
        "682e6ff3",
        "748f82ee",
        "78a5636f",
        "84c87814",
        "8cc70208",
        "90befffa",
        "a4506ceb",
        "bef9a3f7",
        "c67178f2",
    ]
]
_IV = [
    0x6A09E667,
    0xBB67AE85,
    0x3C6EF372,
    0xA54FF53A,
    0x510E527F,
    0x9B05688C,
    0x1F83D9AB,
    0x5BE0CD19,
]


def _rotr(x: int, n: int) -> int:
    return (x >> n | x << (32 - n)) & 0xFFFFFFFF


def _key_words() -> set[int]:
    """Every 32-bit word compressing the HMAC pads computes: the pad states, the working
    variables, the message schedule (an independent SHA-256 compression, FIPS 180-4)."""
    block = bytes.fromhex(SECRET).ljust(64, b"\0")
    found: set[int] = set()
    for pad in (0x36, 0x5C):
        w = [
            int.from_bytes(bytes(b ^ pad for b in block[i : i + 4]), "big") for i in range(0, 64, 4)
        ]
        for t in range(16, 64):
            s0 = _rotr(w[t - 15], 7) ^ _rotr(w[t - 15], 18) ^ w[t - 15] >> 3
            s1 = _rotr(w[t - 2], 17) ^ _rotr(w[t - 2], 19) ^ w[t - 2] >> 10
            w.append((w[t - 16] + s0 + w[t - 7] + s1) & 0xFFFFFFFF)
        a, b, c, d, e, f, g, h = _IV
        for t in range(64):
            t1 = (
                h + (_rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)) + (e & f ^ ~e & g) + _K256[t] + w[t]
            )
            t2 = (_rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)) + (a & b ^ a & c ^ b & c)
            h, g, f, e, d, c, b, a = g, f, e, (d + t1) & 0xFFFFFFFF, c, b, a, (t1 + t2) & 0xFFFFFFFF
            found |= {t1 & 0xFFFFFFFF, a, e}
        state = [(x + y) & 0xFFFFFFFF for x, y in zip(_IV, (a, b, c, d, e, f, g, h), strict=True)]
        found |= {*w, *state}
    return {word for word in found if word > 0xFFFF}


_KEY_WORDS = re.compile(
    rb"(?<![0-9])(?:"
    + b"|".join(
        alternative
        for word in sorted(_key_words())
        for alternative in (str(word).encode(), str(word - 2**32).encode())
    )
    + rb")(?![0-9])"
)
"""The key-derived words as the shells print them: decimal, and mksh's 32-bit negative form."""


def _assert_no_key_state(stream: bytes) -> None:
    assert SECRET.encode() not in stream
    assert _KEY_WORDS.search(stream) is None, _KEY_WORDS.search(stream)


def _assert_no_key(result: Result) -> None:
    for stream in (result.stdout, result.stderr):
        _assert_no_key_state(stream)
        assert KEY_VARIABLE.encode() not in stream


@pytest.mark.parametrize("shell", ALL)
def test_the_pad_states_are_the_only_key_state_left(shell: str) -> None:
    """`set` shows the kept pad states (documented); nothing else that hashing the key left."""
    body = "set\nbernstein_completed >/dev/null\nset"
    result = _run(shell, body)
    assert result.status == 0, result.stderr
    kept = [line for line in result.lines if re.match(rb"_bsig_F[io][0-7]=", line)]
    assert len(kept) == 32, kept
    assert all(_KEY_WORDS.search(line) for line in kept)
    rest = [line for line in result.lines if line not in kept]
    _assert_no_key_state(b"\n".join(rest))


# -- the marks: the shared vectors, each helper, any text ----------------------------------


@pytest.mark.timeout(120)
@pytest.mark.parametrize("shell", ALL)
def test_marked_vectors_byte_for_byte(shell: str) -> None:
    body, args = [], []
    for vector in VECTORS["marked"]:
        seq = vector["seq"]
        if shell == "mksh" and seq > MKSH_MAX_SEQUENCE:
            continue
        body.append(f"_bsig_Fseq={seq - 1}")
        if vector["payload"] is None:
            body.append(f"bernstein_emit {vector['kind']}")
        else:
            args.append(":=" + (vector["payload_text"] or "{}"))
            body.append(f'bernstein_emit {vector["kind"]} "${{{len(args)}}}"')
    result = _run(shell, "\n".join(body), *args)
    assert result.stderr == b""
    wanted = [
        v["line"].encode()
        for v in VECTORS["marked"]
        if not (shell == "mksh" and v["seq"] > MKSH_MAX_SEQUENCE)
    ]
    assert result.lines == wanted
    assert any(v["seq"] == MAX_SEQUENCE for v in VECTORS["marked"])


HELPERS = r"""
bernstein_completed
bernstein_failed --reason 'exit 2'
bernstein_question 'Apply migration? ✓' --options yes --options no --id q-1
bernstein_blocked 'waiting' --hint 'set TOKEN'
bernstein_plan_draft '# Plan
- step' --path .sdd/plans/p.md
bernstein_plan_ready .sdd/plans/p.md
bernstein_emit BLOCKED reason=r b=2 a:='{"z":[1,2.50,"\u00e9"],"y":null}'
bernstein_emit COMPLETED :='{}'
bernstein_emit FAILED :='{"Zed":1,"_a":2,"reason":"x","~":0}'
bernstein_run true
bernstein_run false || :
bernstein_ask --var answer --id q-2 'Go on?' --options yes
printf '%s\n' "answer: $answer"
bernstein_guard
exit 3
"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("shell", ALL)
def test_every_helper_marks_as_signal_marker(shell: str) -> None:
    reply = b'{"in_reply_to": "q-2", "answer": "yes"}\n'
    plain = _run(shell, HELPERS, env={}, stdin=reply)
    fenced = _run(shell, HELPERS, stdin=reply)
    assert (fenced.status, plain.status) == (3, 3), fenced.stderr
    assert fenced.stderr == plain.stderr == b""
    signals = [line for line in plain.lines if line.startswith(b"BERNSTEIN:")]
    assert len(signals) == 12  # the guard adds none: bernstein_run wrote a terminal
    marked = [line for line in fenced.lines if line.startswith(b"BERNSTEIN:")]
    assert marked == _marked_like_python(signals)
    assert [line for line in fenced.lines if not line.startswith(b"BERNSTEIN:")] == [b"answer: yes"]
    _verify(marked)


GUARDED = """
bernstein_guard
bernstein_blocked 'waiting'
exit 3
"""


@pytest.mark.parametrize("shell", ALL)
def test_the_guards_terminal_is_marked(shell: str) -> None:
    plain = _run(shell, GUARDED, env={})
    fenced = _run(shell, GUARDED)
    assert (fenced.status, plain.status) == (3, 3)
    assert len(plain.lines) == 2
    assert fenced.lines == _marked_like_python(plain.lines)
    _verify(fenced.lines)


_CHARACTERS = st.characters(codec="utf-8", exclude_characters="\0")
_TEXT = st.text(_CHARACTERS, max_size=90) | st.text(_CHARACTERS, max_size=30).map(lambda t: t * 9)
"""Any text a shell word holds; some long and periodic, across SHA-256's 64-byte blocks."""


@pytest.mark.timeout(300)
@pytest.mark.parametrize("shell", ALL)
def test_any_text_marks_as_signal_marker(shell: str) -> None:
    @settings(max_examples=12, deadline=None)
    @given(texts=st.lists(_TEXT, min_size=1, max_size=3))
    def check(texts: list[str]) -> None:
        body = "\n".join(f'bernstein_emit COMPLETED t="${{{i + 1}}}"' for i in range(len(texts)))
        result = _run(shell, body, *(t.encode() for t in texts))
        assert result.status == 0, result.stderr
        marker = SignalMarker(KEY)
        assert result.lines == [marker.mark("COMPLETED", {"t": t}).encode() for t in texts]

    check()


_KEYS = st.text(st.sampled_from('AZaz09_$~é😀\\"'), min_size=1, max_size=4).filter(
    lambda k: k != "_sig"
)
_SCALARS = (
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.text(_CHARACTERS, max_size=12)
)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("shell", ALL)
def test_any_keys_put_the_mark_in_its_sorted_place(shell: str) -> None:
    """Keys below "_sig" (upper case, digits, "$", "_a") go through the one JSON writer."""

    @settings(max_examples=10, deadline=None)
    @given(extras=st.dictionaries(_KEYS, _SCALARS, max_size=5))
    def check(extras: dict[str, object]) -> None:
        payload = {**extras, "reason": "r"}
        text = json.dumps(payload)  # line breaks (U+0085 too) escaped: one line
        result = _run(shell, 'bernstein_emit FAILED ":=$1"', text)
        assert result.status == 0, result.stderr
        assert result.lines == [SignalMarker(KEY).mark("FAILED", payload).encode()]

    check()


_NESTED = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(_KEYS | st.just("_sig"), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("shell", ALL)
def test_nested_values_do_not_move_the_mark(shell: str) -> None:
    """Brackets, commas, quotes, a nested "_sig" in values: only top-level keys place the mark."""

    @settings(max_examples=8, deadline=None)
    @given(extras=st.dictionaries(_KEYS, _NESTED, min_size=1, max_size=4))
    def check(extras: dict[str, object]) -> None:
        text = json.dumps(extras)
        result = _run(shell, 'bernstein_emit FAILED ":=$1"', text)
        assert result.status == 0, result.stderr
        assert result.lines == [SignalMarker(KEY).mark("FAILED", extras).encode()]

    check()


_WIDE: list[dict[str, Any]] = [
    {"A": 1, **{f"k{i:02d}": i for i in range(70)}},
    {**{f"A{i:02d}": {"_sig": [i, '],"_sig":']} for i in range(70)}, "_sif": 1, "~": 2},
]
"""Over the 64 members an object may arrive unsorted in: R2's 71-member payload, and one
whose every key but two sorts before the mark."""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("shell", ALL)
def test_a_wide_payload_is_marked_in_its_sorted_place(shell: str) -> None:
    body = 'bernstein_emit COMPLETED ":=$1" && bernstein_emit COMPLETED ":=$2"'
    result = _run(shell, body, *(json.dumps(payload) for payload in _WIDE))
    assert result.status == 0, result.stderr
    marker = SignalMarker(KEY)
    assert result.lines == [marker.mark("COMPLETED", payload).encode() for payload in _WIDE]


@pytest.mark.parametrize("shell", [*NO_EXTERNALS, "dash", "busybox"])
def test_marking_needs_no_program(shell: str) -> None:
    """With no PATH: bash, zsh, mksh and ksh93 never start one; dash cuts long texts itself."""
    text = "é" + "x" * 1000
    result = _run(shell, 'bernstein_emit COMPLETED t="$1"', text, path="")
    assert result.stderr == b""
    assert result.lines == [SignalMarker(KEY).mark("COMPLETED", {"t": text}).encode()]


_GATE = "# -- the fence: read only by a shell handed a key"
_GATE_END = "\nesac\n"
READS_AHEAD = frozenset({"ksh93"})
"""Shells that compile a sourced file whole before running it: they still parse the fence."""


def _planted(tmp_path: Path, planted: str) -> str:
    """A copy of the library with ``planted`` right after the fence's gate; its path."""
    text = LIBRARY.read_text(encoding="utf-8")
    gate = text.index(_GATE_END, text.index(_GATE)) + len(_GATE_END)
    path = tmp_path / "planted.sh"
    path.write_text(text[:gate] + planted + "\n" + text[gate:], encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("shell", ALL)
def test_a_shell_handed_no_key_runs_nothing_of_the_fence(shell: str, tmp_path: Path) -> None:
    """A wrapper that takes no key pays nothing for the fence (issue 22): sourcing ends at
    the gate, so what stands after it runs only in a shell handed a key."""
    library = _planted(tmp_path, "echo past the gate >&2")
    plain = _run(shell, "bernstein_completed", env={"BSIG_LIB": library})
    assert (plain.status, plain.stderr) == (0, b"")
    assert plain.lines == [completed().encode()]
    keyed = _run(shell, "bernstein_completed", env={"BSIG_LIB": library, KEY_VARIABLE: KEY_TEXT})
    assert keyed.stderr == b"past the gate\n"
    _verify(keyed.lines)


@pytest.mark.parametrize("shell", sorted(set(ALL) - READS_AHEAD))
def test_a_shell_handed_no_key_never_parses_the_fence(shell: str, tmp_path: Path) -> None:
    """Nor does it parse the fence, half the library: a syntax error planted past the gate
    stops only a shell handed a key (ksh93 compiles a sourced file whole, so it parses it)."""
    library = _planted(tmp_path, "if then fi ((")
    plain = _run(shell, "bernstein_completed", env={"BSIG_LIB": library})
    assert (plain.status, plain.stderr) == (0, b"")
    keyed = _run(shell, "bernstein_completed", env={"BSIG_LIB": library, KEY_VARIABLE: KEY_TEXT})
    assert keyed.stderr != b"", "the planted syntax error was never read"


@pytest.mark.parametrize("shell", ALL)
def test_the_callers_locale_comes_back(shell: str) -> None:
    """Marking works on bytes (ksh93 switches LC_ALL and puts it back, the others scope it)."""
    body = 'bernstein_emit COMPLETED t=é >/dev/null\ns=é; echo "${LC_ALL-unset} ${#s}"'
    fenced = _run(shell, body)
    assert fenced.lines == _run(shell, body, env={}).lines
    assert fenced.lines == [f"{UTF8} {1 if shell != 'dash' else 2}".encode()]


# -- the key: taken once, never passed on ------------------------------------------------

CHILD = r"""
bernstein_run sh -c 'env; ls /proc/$$/fd; tr "\0" "\n" </proc/self/environ'
sh -c 'env; ls /proc/$$/fd' </dev/null
printf 'fd3:'; { { true <&3; } 2>/dev/null && printf open; } || printf closed
"""
"""The script's own fd 3 is tested in the shell: a child listing /proc/PARENT/fd races with
zsh, which holds a pipe on the lowest free descriptors while it starts a child."""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("via", ["environment", "fd"])
@pytest.mark.parametrize("shell", ALL)
def test_children_see_no_key_variable_or_fd(shell: str, via: str) -> None:
    result = _run(shell, CHILD, key_fd=KEY_TEXT.encode() + b"\n" if via == "fd" else None)
    assert result.status == 0, result.stderr
    _assert_no_key(result)
    assert KEY_FD_VARIABLE.encode() not in result.stdout
    listed = [line for line in result.lines if line.isdigit()]
    assert listed
    assert b"3" not in listed
    assert result.stdout.endswith(b"fd3:closed")
    marked = [line for line in result.lines if line.startswith(b"BERNSTEIN:")]
    assert len(marked) == 1
    assert b'"_sig":"' in marked[0]
    _verify(marked)


@pytest.mark.parametrize("shell", ALL)
def test_a_trace_never_shows_the_key(shell: str) -> None:
    body = 'set -x; . "$BSIG_LIB"; bernstein_completed; bernstein_emit X a=b; set +x'
    result = _run(shell, body, env={KEY_VARIABLE: KEY_TEXT + "\n"}, source=False)
    assert result.status == 0
    _assert_no_key(result)
    assert len(result.lines) == 2


@pytest.mark.parametrize("key", [KEY_TEXT, "bad"])
@pytest.mark.parametrize("shell", ALL)
def test_taking_the_key_survives_set_eu(shell: str, key: str) -> None:
    body = 'set -eu\n. "$BSIG_LIB"\nbernstein_completed\necho done'
    result = _run(shell, body, env={KEY_VARIABLE: key}, source=False)
    if key != KEY_TEXT:  # the documented stop, not set -e's or set -u's
        assert result.status == KEY_REFUSED_STATUS, result.stderr
        assert result.stderr.count(b"\n") == 1
        assert result.lines == [failed(reason=result.stderr.decode()[19:-1]).encode()]
        return
    assert result.status == 0, result.stderr
    assert result.lines[-1] == b"done"
    assert b'"_sig"' in result.lines[0]


BAD_KEYS: dict[str, tuple[dict[str, str], bytes | None, str]] = {
    "not hex": ({KEY_VARIABLE: KEY_TEXT.upper()}, None, "BERNSTEIN_SIGNAL_KEY is not a signal key"),
    "empty": ({KEY_VARIABLE: ""}, None, "BERNSTEIN_SIGNAL_KEY is not a signal key"),
    "too long": ({KEY_VARIABLE: KEY_TEXT + "0"}, None, "is not a signal key"),
    "fd not a number": ({KEY_FD_VARIABLE: "x3"}, None, "is not a descriptor number 3..9"),
    "fd 12": ({KEY_FD_VARIABLE: "12"}, None, "is not a descriptor number 3..9"),
    "fd closed": ({KEY_FD_VARIABLE: "7"}, None, "names fd 7, which cannot be read"),
    "fd bad text": ({KEY_FD_VARIABLE: "3"}, KEY_TEXT[:-1].encode(), "the text on fd 3"),
    "fd a device": ({KEY_FD_VARIABLE: "3"}, None, "names fd 3, not a socket"),
}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", list(BAD_KEYS))
@pytest.mark.parametrize("shell", ALL)
def test_a_bad_key_stops_the_script_with_one_failed_without_the_value(
    shell: str, case: str
) -> None:
    env, fd_text, problem = BAD_KEYS[case]
    body = "bernstein_completed; echo went on"
    if case == "fd a device":  # /dev/zero on fd 3 before sourcing: read would never end
        result = _run(shell, f'exec 3</dev/zero\n. "$BSIG_LIB"\n{body}', env=env, source=False)
    else:
        result = _run(shell, body, env=env, key_fd=fd_text)
    assert result.status == KEY_REFUSED_STATUS
    warning = result.stderr.decode()
    assert warning.count("\n") == 1, warning
    assert problem in warning
    assert warning.startswith("bernstein-signals: no signal key: ")
    assert SECRET[:-1] not in warning
    assert SECRET.upper() not in warning
    assert result.lines == [failed(reason=warning[len("bernstein-signals: ") : -1]).encode()]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("shell", [shell for shell in ALL if shell != "dash"])
def test_a_writer_that_never_closes_cannot_hang_the_script(shell: str) -> None:
    """read -t bounds the wait (dash has no read -t: its orchestrator must close the socket)."""
    result = _run(shell, "bernstein_completed", key_fd=KEY_TEXT[:40].encode(), keep_open=True)
    assert result.status == KEY_REFUSED_STATUS
    warning = result.stderr.decode()
    assert warning.count("\n") == 1, warning
    assert warning.startswith("bernstein-signals: no signal key: ")
    assert KEY_TEXT[:40] not in warning
    assert len(result.lines) == 1


# -- the mark's rules ----------------------------------------------------------------------


@pytest.mark.parametrize("shell", ALL)
def test_a_payload_holding_the_mark_is_refused_and_uses_no_number(shell: str) -> None:
    body = """
bernstein_emit X :='{"_sig":"x"}' && echo wrong
bernstein_emit X :='{"A":1,"_sig":"x"}' && echo wrong
bernstein_emit X ":=$1" && echo wrong
bernstein_completed
"""
    wide = {**{f"A{i:02d}": i for i in range(70)}, "_sig": "x", "z": 1}
    result = _run(shell, body, json.dumps(wide))
    plain = _run(shell, "bernstein_completed", env={})
    assert result.lines == _marked_like_python(plain.lines)
    assert result.stderr.decode().count('already holds "_sig"') == 3
    _verify(result.lines)


@pytest.mark.parametrize("shell", ALL)
def test_sequence_numbers_end_at_the_limit(shell: str) -> None:
    last = MKSH_MAX_SEQUENCE if shell == "mksh" else MAX_SEQUENCE
    result = _run(
        shell, f"_bsig_Fseq={last - 1}\nbernstein_emit X\nbernstein_emit X || echo status $?"
    )
    assert result.lines[0].startswith(f'BERNSTEIN:X {{"_sig":"{KEY.run}.{last}.'.encode())
    assert result.lines[1:] == [b"status 2"]
    assert b"sequence numbers are used up" in result.stderr


@pytest.mark.parametrize("shell", ALL)
def test_a_subshell_refuses_to_mark_and_uses_no_number(shell: str) -> None:
    """A subshell's number would not reach its parent (a replay): ( ), $(...), a pipeline."""
    body = """
(bernstein_emit X); echo "paren $?"
x=$(bernstein_completed); echo "substitution $? [$x]"
bernstein_emit BLOCKED a=1 | cat; echo "pipe"
bernstein_emit COMPLETED >/dev/null; echo "redirected $?"
bernstein_emit COMPLETED
"""
    result = _run(shell, body)
    assert result.status == 0, result.stderr
    assert result.lines[:4] == [b"paren 2", b"substitution 2 []", b"pipe", b"redirected 0"]
    marker = SignalMarker(KEY)
    marker.mark("COMPLETED")  # the redirected line's number: it was marked
    assert result.lines[4:] == [marker.mark("COMPLETED").encode()]
    assert result.stderr.decode().count("a subshell") == 3
    assert len(result.stderr.splitlines()) == 3


# -- SHA-256 itself, against NIST and hashlib ---------------------------------------------

NIST = {
    b"": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    b"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
}
MESSAGES = [*NIST, bytes(range(1, 256)) * 4 + b"abcde", b"\xff" * 55, b"x" * 56, b"y" * 64]


@pytest.mark.parametrize(
    ("shell", "path"),
    [*((shell, None) for shell in ALL), ("dash", "")],
    ids=[*ALL, "dash-without-od"],
)
def test_sha256_nist_vectors(shell: str, path: str | None) -> None:
    """dash reads a long text's bytes from od; without PATH it cuts the text itself."""
    assert len(MESSAGES[3]) == 1025
    assert all(hashlib.sha256(m).hexdigest() == d for m, d in NIST.items())
    body = 'for m in "$@"; do _bsig_sha_iv; _bsig_Fhash "$m" 0; _bsig_Fhex; echo "$_bsig_Fhx"; done'
    result = _run(shell, body, *MESSAGES, locale="C", path=path)
    assert result.stderr == b""
    assert result.lines == [hashlib.sha256(m).hexdigest().encode() for m in MESSAGES]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("shell", ALL)
def test_marking_time_grows_linearly(shell: str) -> None:
    def make(size: int) -> Callable[[], object]:
        text = ("ab" * size)[:size]
        return lambda: _run(shell, 'bernstein_emit X t="$1" >/dev/null', text)

    assert_linear(make, 600, what=f"{shell}: marking", repeats=2)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("shell", ALL)
def test_placing_the_mark_grows_linearly(shell: str) -> None:
    """Keys below the mark, nested values: the one pass over the top-level keys."""

    def make(size: int) -> Callable[[], object]:
        payload = {f"A{i:06d}": {"b": [i, 'c,"d']} for i in range(size // 20)}
        text = json.dumps({**payload, "z": 1}, separators=(",", ":"))
        return lambda: _run(shell, 'bernstein_emit X ":=$1" >/dev/null', text)

    assert_linear(make, 600, what=f"{shell}: placing the mark", repeats=2)
