"""The fence's public names meet hostile input: they return or raise only what they document.

The binding's standing guard (tests/hostile/test_binding_guard.py) lists a driver per
public name; these are the fence's: lines of every hostile shape (also with a mark
spliced in), values of every wrong type for kinds, payloads, keys and allow-lists,
and environments whose key variables hold anything but a descriptor the test owns.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from typing import Any, Final

import pytest
from benchmarks._hostile_lines import HOSTILE_LINES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bernstein_signals import (
    KEY_FD_VARIABLE,
    KEY_REFUSED_STATUS,
    KEY_VARIABLE,
    FenceVerdict,
    FenceVerifier,
    SignalKey,
    SignalKind,
    SignalMarker,
    failed,
    fence,
    iter_signals,
    key_handover,
    popen_with_key,
    take_process_key,
)

_KEY = SignalKey.generate()
_GUARD = settings(
    max_examples=150, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
_TEXT = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
    st.sampled_from(["", "\x00", "\r\n", "\u2028", "é", "\ufeff", "x" * 70_000]),
)
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _TEXT, st.binary(max_size=20)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)
_KINDS = st.one_of(st.sampled_from([kind.value for kind in SignalKind]), _VALUES)


def _with_mark(line: str, mark: str) -> str:
    """``line`` with a ``_sig`` member spliced in after its first "{" (if it has one)."""
    at = line.find("{")
    return line if at < 0 else f'{line[: at + 1]}"_sig":{mark},{line[at + 1 :]}'


_MARKS = st.one_of(
    st.just(f'"{_KEY.run}.1.{"0" * 64}"'),
    st.builds(lambda seq: f'"{_KEY.run}.{seq}.{"a" * 64}"', st.integers()),
    st.builds(lambda text: '"' + text.replace('"', "") + '"', _TEXT),
    st.sampled_from(["5", "null", "[]", "{}", '"' + "9" * 5000 + '"']),
)
_LINES = st.one_of(
    _TEXT,
    st.builds(
        lambda kind, rest: f"BERNSTEIN:{kind}{rest}",
        st.sampled_from([k.value for k in SignalKind] + ["", "x"]),
        _TEXT,
    ),
    st.builds(
        lambda name, size, mark: _with_mark(HOSTILE_LINES[name](size), mark),
        st.sampled_from(sorted(HOSTILE_LINES)),
        st.integers(1, 3000),
        _MARKS,
    ),
    st.binary().map(lambda raw: raw.decode("utf-8", "surrogateescape")),
)


def _consistent(verdict: FenceVerdict) -> None:
    assert isinstance(verdict, FenceVerdict)
    if verdict.signal is not None:
        assert verdict.code is None
        assert "_sig" not in verdict.signal.payload
    else:
        assert verdict.code in (None, "BS601", "BS602", "BS603")
        assert (verdict.problem is None) == (verdict.code is None)


@_GUARD
@given(lines=st.lists(st.one_of(_LINES, _VALUES, st.binary()), max_size=5))
def test_verifier_check_never_raises(lines: list[object]) -> None:
    verifier = FenceVerifier(_KEY, allow_kinds=["QUESTION", "COMPLETED"])
    only_kinds = FenceVerifier(None, allow_kinds=["FAILED"])
    for line in lines:
        _consistent(verifier.check(line))
        _consistent(only_kinds.check(line))
    rejected: list[FenceVerdict] = []
    for signal in iter_signals(lines, key=_KEY, on_rejected=rejected.append):
        assert "_sig" not in signal.payload
    for verdict in rejected:
        _consistent(verdict)
        assert verdict.line_no is not None


@_GUARD
@given(kind=_KINDS, payload=st.one_of(st.none(), st.dictionaries(_TEXT, _VALUES), _VALUES))
def test_marker_raises_only_what_format_signal_raises(kind: object, payload: object) -> None:
    marker = SignalMarker(_KEY)
    try:
        line = marker.mark(kind, payload)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        assert marker._next == 1  # a refused mark takes no sequence number
        return
    assert FenceVerifier(_KEY).check(line).signal is not None


@_GUARD
@given(text=st.one_of(_TEXT, _VALUES), allow=st.one_of(st.none(), _VALUES, st.lists(_KINDS)))
def test_key_and_verifier_construction_raise_only_type_and_value_errors(
    text: object, allow: object
) -> None:
    with contextlib.suppress(TypeError, ValueError):
        SignalKey.parse(text)  # type: ignore[arg-type]
    with contextlib.suppress(TypeError, ValueError):
        FenceVerifier(_KEY, allow_kinds=allow)  # type: ignore[arg-type]
    with contextlib.suppress(TypeError, ValueError):
        SignalMarker(text)  # type: ignore[arg-type]
    with contextlib.suppress(TypeError, ValueError):
        SignalKey(text, text)  # type: ignore[arg-type]


_FD_TEXT = _TEXT.filter(lambda text: text.strip() not in {str(n) for n in range(3, 10)})


@_GUARD
@given(
    key_text=st.one_of(st.none(), _TEXT.filter(lambda text: "\x00" not in text)),
    fd_text=st.one_of(st.none(), _FD_TEXT.filter(lambda text: "\x00" not in text)),
)
def test_take_process_key_never_raises(key_text: str | None, fd_text: str | None) -> None:
    """Any variable text (a descriptor 3..9 of this process excepted: it would be closed):
    a key, or the documented stop (SystemExit with KEY_REFUSED_STATUS, one line on each
    stream), never another exception."""
    environ: dict[str, str] = {"KEEP": "x"}
    if key_text is not None:
        environ[KEY_VARIABLE] = key_text
    if fd_text is not None:
        environ[KEY_FD_VARIABLE] = fd_text
    before = fence._Process.key, fence._Process.marker
    notes, out = io.StringIO(), io.StringIO()
    stopped: int | str | None = None
    key = None
    try:
        with contextlib.redirect_stderr(notes), contextlib.redirect_stdout(out):
            key = take_process_key(environ)
    except SystemExit as exc:
        stopped = exc.code
    finally:
        fence._Process.key, fence._Process.marker = before
    assert environ == {"KEEP": "x"}
    assert key is None or isinstance(key, SignalKey)
    # The reason is one of two fixed texts: it never quotes what the variable held.
    problem = (
        "BERNSTEIN_SIGNAL_KEY_FD is not a descriptor number 3..9"
        if fd_text is not None
        else "BERNSTEIN_SIGNAL_KEY is not a signal key: expected 16 hex digits, ':', 64 hex digits"
    )
    if key_text is None and fd_text is None:
        assert (stopped, notes.getvalue(), out.getvalue()) == (None, "", "")
        assert key is before[0]  # nothing to take: the process key stays
    elif stopped is None:
        assert key is not None
        assert notes.getvalue() == out.getvalue() == ""
    else:
        assert stopped == KEY_REFUSED_STATUS
        assert notes.getvalue() == f"bernstein-signals: no signal key: {problem}\n"
        assert out.getvalue() == failed(reason=f"no signal key: {problem}") + "\n"


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_every_hostile_shape_with_a_mark_is_refused(name: str) -> None:
    line = _with_mark(HOSTILE_LINES[name](2000), f'"{_KEY.run}.1.{"0" * 64}"')
    verdict: Any = FenceVerifier(_KEY).check(line)
    _consistent(verdict)
    assert verdict.signal is None


def _open_descriptors() -> set[int]:
    return {int(name) for name in os.listdir("/proc/self/fd")}


_HANDED: Final = st.one_of(
    st.none(), _TEXT, st.integers(), st.binary(max_size=90), st.just(_KEY.text())
)
"""What a caller may pass where a SignalKey belongs (its text included)."""


@_GUARD
@given(
    key=_HANDED,
    env=st.none() | st.dictionaries(_TEXT, _TEXT, max_size=4),
    args=st.lists(_TEXT, max_size=3) | _TEXT,
)
def test_the_key_handover_raises_only_documented_errors_and_leaks_no_descriptor(
    key: object, env: dict[str, str] | None, args: list[str] | str
) -> None:
    """key_handover and popen_with_key: a key that is no SignalKey is a TypeError; any
    environment is copied with the variables set right; a command Popen refuses is Popen's
    error (OSError, ValueError, TypeError); and the key's socket never outlives the call."""
    before = _open_descriptors()
    with (
        pytest.raises(TypeError, match="the key handed over is a SignalKey"),
        key_handover(key, env),  # type: ignore[arg-type]  # the point
    ):
        pass
    with key_handover(_KEY, env) as handover:
        child = handover.options["env"]
        assert KEY_VARIABLE not in child
        assert child[KEY_FD_VARIABLE] == str(handover.options["pass_fds"][0])
        assert {name: value for name, value in child.items() if name != KEY_FD_VARIABLE} == {
            name: value
            for name, value in (os.environ if env is None else env).items()
            if name != KEY_VARIABLE
        }
    try:
        process = popen_with_key(
            args, _KEY, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
        )
    except (OSError, ValueError, TypeError):
        pass
    else:
        process.kill()
        process.wait()
    assert _open_descriptors() == before
