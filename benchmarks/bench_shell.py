"""Shell helpers: a QUESTION with 1 KB of multi-line text, 1,000 times, in every shell.

Also start-up, hostile sizes, and the fence (issue 17): a marked line against the
same line unmarked, payloads of 0 B to 10 KiB (the HMAC is shell arithmetic).

Baseline: the same payload built by ``jq -cn --arg`` (one process per signal,
which is what a wrapper without the helpers runs), in the same run. Each shell
is timed under the C and the C.UTF-8 locale; the helpers' own loop is timed
inside one shell process, minus that process's start-up and sourcing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The shell matrix is the tests' (tests/shell_support.py), imported as the tests import it.
sys.path.insert(0, str(ROOT / "tests"))
from shell_support import SHELLS  # noqa: E402

LIBRARY = ROOT / "generated" / "shell" / "bernstein-signals.sh"
LOCALES = ("C", "C.UTF-8")

_LINE = 'Step {n}: apply the "migration" to C:\\data\\db {n} and keep 50% of the cache?\n'


def question() -> str:
    """1 KB (1,024 bytes) of multi-line ASCII text with quotes and backslashes."""
    text = ""
    n = 0
    while len(text) < 1024:
        text += _LINE.format(n=n)
        n += 1
    return text[:1024]


def _loop(count: int, call: str = 'bernstein_question "$1" --id q-1') -> str:
    return f""". "$BSIG_LIB"
i=0
while [ "$i" -lt {count} ]; do
  {call}
  i=$((i + 1))
done >/dev/null"""


def _time(
    command: list[str], locale: str, library: Path = LIBRARY, extra: dict[str, str] | None = None
) -> float:
    env = {"PATH": os.environ["PATH"], "LC_ALL": locale, "BSIG_LIB": str(library), **(extra or {})}
    start = time.perf_counter()
    subprocess.run(
        command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True
    )
    return time.perf_counter() - start


def _per_call(
    shell: tuple[str, ...],
    text: str,
    count: int,
    locale: str,
    *,
    call: str = 'bernstein_question "$1" --id q-1',
    library: Path = LIBRARY,
    extra: dict[str, str] | None = None,
) -> float:
    """Seconds per signal: the loop's time minus the same process with no iteration."""
    loop, empty_loop = _loop(count, call), _loop(0, call)
    best = min(_time([*shell, "-c", loop, "bench", text], locale, library, extra) for _ in range(2))
    empty = min(
        _time([*shell, "-c", empty_loop, "bench", text], locale, library, extra) for _ in range(2)
    )
    return max(best - empty, 1e-9) / count


SHORT_CALL = 'bernstein_question "Go?" --options yes --options no --id q-1'
"""A kind helper with a short payload: the cost of reading its arguments dominates."""
SHORT_EMIT = "bernstein_emit QUESTION 'question=Go?' 'options:=[\"yes\",\"no\"]' id=q-1"
"""The same line by bernstein_emit, which parses no options: the in-run baseline."""


def startup(quick: bool, library: Path = LIBRARY) -> dict[str, float]:
    """Per-call cost of a short kind-helper call, against bernstein_emit for the same line."""
    count = 100 if quick else 1000
    print(f"start-up: {SHORT_CALL!r}, {count} calls per shell (C locale)")
    print(f"{'shell':<8} {'us/call':>9} {'emit us/call':>13} {'ratio':>7}")
    figures = {}
    for name, command in SHELLS.items():
        if shutil.which(command[0]) is None:
            continue
        ours = _per_call(command, "", count, "C", call=SHORT_CALL, library=library)
        emit = _per_call(command, "", count, "C", call=SHORT_EMIT, library=library)
        figures[name] = ours
        print(f"{name:<8} {ours * 1e6:>9.1f} {emit * 1e6:>13.1f} {ours / emit:>6.2f}x", flush=True)
    return figures


def _jq_per_call(text: str, count: int, locale: str) -> float:
    script = f"""i=0
while [ "$i" -lt {count} ]; do
  jq -cn --arg q "$1" --arg id q-1 '{{id:$id,question:$q}}'
  i=$((i + 1))
done >/dev/null"""
    return _time(["bash", "-c", script, "bench", text], locale) / count


def _check_same_payload(text: str) -> None:
    ours = subprocess.run(
        ["bash", "-c", '. "$BSIG_LIB"; bernstein_question "$1" --id q-1', "check", text],
        env={"PATH": os.environ["PATH"], "BSIG_LIB": str(LIBRARY)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
    ).stdout
    theirs = subprocess.run(
        ["jq", "-cn", "--arg", "q", text, "--arg", "id", "q-1", "{id:$id,question:$q}"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
    ).stdout
    assert ours == b"BERNSTEIN:QUESTION " + theirs, (ours, theirs)


FENCE_SIZES = (0, 100, 1024, 10240)
"""Payload text sizes (bytes of the one string member) of the fence case."""
USABLE_SECONDS = 0.1
"""A marked small line slower than this is called out (issue 17: "too slow to be usable")."""


def fence(quick: bool) -> None:
    """Per line, marked (the library took a key) against unmarked, same payload, same shell."""
    from bernstein_signals import SignalKey  # only this case needs the binding

    key = {"BERNSTEIN_SIGNAL_KEY": SignalKey.generate().text()}
    print("fence: bernstein_emit COMPLETED t=TEXT, marked vs unmarked (C.UTF-8 locale)")
    print(f"{'shell':<8} {'bytes':>6} {'marked ms':>10} {'plain ms':>9} {'ratio':>7}")
    for name, command in SHELLS.items():
        if shutil.which(command[0]) is None:
            continue
        for size in FENCE_SIZES:
            count = max(1, (10 if quick else 40) * 1024 // max(size, 1024))
            call = 'bernstein_emit COMPLETED t="$1"' if size else "bernstein_emit COMPLETED"
            text = ("0123456789abcdef" * (size // 16 + 1))[:size]
            marked = _per_call(command, text, count, "C.UTF-8", call=call, extra=key)
            # Unmarked lines cost ~100x less: more of them, for a figure above the noise.
            plain = _per_call(command, text, count * 50, "C.UTF-8", call=call)
            note = "  too slow" if size <= 100 and marked > USABLE_SECONDS else ""
            print(
                f"{name:<8} {size:>6} {marked * 1e3:>10.2f} {plain * 1e3:>9.2f}"
                f" {marked / plain:>6.1f}x{note}",
                flush=True,
            )


BASELINE_COMMIT = "7c50011"
"""The library before the fence and the canonical key:=JSON writer (issue 22, goal 1)."""


def _baseline_library(folder: Path) -> Path | None:
    """The generated library of :data:`BASELINE_COMMIT`, from git (None outside a checkout)."""
    shown = subprocess.run(
        ["git", "show", f"{BASELINE_COMMIT}:generated/shell/bernstein-signals.sh"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
    )
    if shown.returncode != 0:
        return None
    path = folder / "baseline.sh"
    path.write_bytes(shown.stdout)
    return path


def _fresh(shell: tuple[str, ...], library: Path, text: str, count: int) -> float:
    """Seconds per fresh shell that sources ``library`` and writes one QUESTION."""
    script = '. "$BSIG_LIB"; bernstein_question "$1" --id q-1 >/dev/null'
    start = time.perf_counter()
    for _ in range(count):
        _time([*shell, "-c", script, "bench", text], "C.UTF-8", library)
    return (time.perf_counter() - start) / count


def sourcing(quick: bool) -> None:
    """Sourcing plus one emit in a fresh shell, against the library of BASELINE_COMMIT."""
    count, turns = (40, 2) if quick else (200, 3)
    text = question()
    with tempfile.TemporaryDirectory() as folder:
        baseline = _baseline_library(Path(folder))
        if baseline is None:
            print(f"sourcing: {BASELINE_COMMIT} is not in this checkout: no baseline")
            return
        print(
            f"sourcing + one 1 KB QUESTION in a fresh shell, {count} times (C.UTF-8),"
            f" against the library of {BASELINE_COMMIT}; target <= 1.0x"
        )
        print(f"{'shell':<8} {'ms now':>8} {'ms then':>8} {'ratio':>7}")
        for name, command in SHELLS.items():
            if shutil.which(command[0]) is None:
                continue
            now = then = float("inf")
            for _ in range(turns):  # in turns: both see the same machine
                now = min(now, _fresh(command, LIBRARY, text, count))
                then = min(then, _fresh(command, baseline, text, count))
            verdict = "met" if now <= then else "MISSED"
            print(
                f"{name:<8} {now * 1e3:>8.2f} {then * 1e3:>8.2f} {now / then:>6.2f}x {verdict}",
                flush=True,
            )


def main(quick: bool) -> None:
    sourcing(quick)
    startup(quick)
    hostile(quick)
    fence(quick)
    count = 100 if quick else 1000
    jq_count = 20 if quick else 200
    text = question()
    if shutil.which("jq") is None:
        print("jq is not installed: no baseline")
        return
    _check_same_payload(text)
    print(
        f"QUESTION with a {len(text.encode())}-byte, {text.count(chr(10))}-line question, "
        f"{count} signals per shell (jq: {jq_count} processes, scaled)"
    )
    print(
        f"{'shell':<8} {'locale':<8} {'per 1,000':>10} {'us/signal':>10}"
        f" {'jq per 1,000':>13} {'vs jq':>8}"
    )
    for locale in LOCALES:
        jq = _jq_per_call(text, jq_count, locale)
        for name, command in SHELLS.items():
            if shutil.which(command[0]) is None:
                print(f"{name:<8} {locale:<8} {'(not installed)':>10}")
                continue
            ours = _per_call(command, text, count, locale)
            print(
                f"{name:<8} {locale:<8} {ours * 1000:>9.3f}s {ours * 1e6:>10.1f}"
                f" {jq * 1000:>12.2f}s {jq / ours:>7.0f}x",
                flush=True,
            )


# -- hostile sizes (issue 10, item 5): a 100 KB value emitted, an 8 KB escaped answer decoded --

_UNIT = 'a "b" \\c\td\n\r\x01\u00e9\u2028 '
_JSON_UNIT = '{"k": "v\\"\\u00e9", "n": [1, -2.5e3, true, null]}, '
_HOSTILE_TIMEOUT = 30.0


def _hostile_time(command: list[str], stdin: bytes) -> str:
    env = {"PATH": os.environ["PATH"], "LC_ALL": "C.UTF-8", "BSIG_LIB": str(LIBRARY)}
    start = time.perf_counter()
    try:
        subprocess.run(
            command, env=env, input=stdin, capture_output=True, timeout=_HOSTILE_TIMEOUT, check=True
        )
    except subprocess.TimeoutExpired:
        return f"> {_HOSTILE_TIMEOUT:.0f} s"
    return f"{time.perf_counter() - start:.2f} s"


def hostile(quick: bool) -> None:
    """Wall time of one process each (start-up included); the issue's bound is 1 s."""
    size = 10_000 if quick else 100_000
    text = _UNIT * (size // len(_UNIT.encode()) + 1)
    escaped = '\\"\\\\\\n\\u00e9x'
    answer = escaped * ((size // 12 if quick else 8000) // len(escaped))
    reply = ('{"in_reply_to":null,"answer":"' + answer + '"}\n').encode()
    value = "[" + _JSON_UNIT * (size // len(_JSON_UNIT)) + "0]"
    print(
        f"hostile: {len(text.encode())}-byte value emitted, {len(answer)}-byte answer decoded,"
        f" {len(value)}-byte key:= JSON checked"
    )
    for name, command in SHELLS.items():
        if shutil.which(command[0]) is None:
            continue
        emit = _hostile_time(
            [*command, "-c", '. "$BSIG_LIB"; bernstein_plan_draft "$1" >/dev/null', "b", text], b""
        )
        decode = _hostile_time([*command, "-c", '. "$BSIG_LIB"; bernstein_ask Q >/dev/null'], reply)
        check = _hostile_time(
            [*command, "-c", '. "$BSIG_LIB"; bernstein_emit X "k:=$1" >/dev/null', "b", value],
            b"",
        )
        print(f"{name:<8} emit {emit:>9}   decode {decode:>9}   key:= {check:>9}", flush=True)
