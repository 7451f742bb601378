"""A fixed-seed corpus of adapter stdout: mostly plain output, about 2% signals of every kind.

Shared by the benchmarks of every reader and validator, so their figures are
comparable. Generated once and cached under ``benchmarks/.data/`` (gitignored).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

__all__ = ["SIGNAL_SHARE", "corpus_lines", "signal_lines"]

SEED = 20_260_301
SIGNAL_SHARE = 0.02
FULL_SIZE = 1_000_000
QUICK_SIZE = 50_000
DATA = Path(__file__).resolve().parent / ".data"

_WORDS = [
    "build",
    "test",
    "module",
    "config",
    "cache",
    "fetch",
    "resolve",
    "compile",
    "link",
    "deploy",
    "request",
    "response",
    "user",
    "token",
    "file",
    "path",
    "error",
    "warning",
    "retry",
    "timeout",
    "worker",
    "queue",
    "plan",
    "step",
    "apply",
]
_FILES = ["src/app.py", "lib/core/io.rs", "cmd/main.go", "web/index.ts", "README.md", "Makefile"]


def _json(payload: object) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high)))


def _plain(rng: random.Random, index: int) -> str:
    """One line of the output a CLI prints around its signals."""
    pick = rng.random()
    if pick < 0.30:
        level = rng.choice(["INFO", "DEBUG", "WARN", "ERROR"])
        return (
            f"2026-03-01T12:{index // 6000 % 60:02d}:{index % 60:02d}Z {level} {_words(rng, 3, 12)}"
        )
    if pick < 0.45:
        return (
            f"{rng.choice(_FILES)}:{rng.randint(1, 900)}:{rng.randint(1, 80)}: {_words(rng, 4, 10)}"
        )
    if pick < 0.55:
        event = {
            "type": rng.choice(["progress", "log", "tool_use"]),
            "n": index,
            "msg": _words(rng, 2, 6),
        }
        return _json(event)
    if pick < 0.63:
        done = rng.randint(0, 40)
        return f"[{'#' * done}{'.' * (40 - done)}] {done * 5 // 2}% {_words(rng, 1, 3)}"
    if pick < 0.70:
        return ""
    if pick < 0.76:
        where = f"{rng.choice(_FILES)}:{rng.randint(1, 500)}"
        return f"    at {rng.choice(_WORDS)}.{rng.choice(_WORDS)} ({where})"
    if pick < 0.80:
        return f"PASSED tests/test_{rng.choice(_WORDS)}.py::test_{rng.choice(_WORDS)}"
    if pick < 0.82:
        return f"  {_words(rng, 1, 4)}  "
    return _words(rng, 2, 18).capitalize() + rng.choice([".", "", ":", "..."])


def _signal(rng: random.Random, index: int) -> str:
    kind = rng.choice(["COMPLETED", "FAILED", "QUESTION", "PLAN_DRAFT", "PLAN_READY", "BLOCKED"])
    payload: dict[str, object] | None
    if kind == "COMPLETED":
        payload = rng.choice(
            [None, {}, {"summary": _words(rng, 2, 6), "tokens": rng.randint(10, 9000)}]
        )
    elif kind == "FAILED":
        failed: list[dict[str, object] | None] = [None, {"reason": f"exit {rng.randint(1, 9)}"}]
        payload = rng.choice(failed)
    elif kind == "QUESTION":
        payload = {
            "question": _words(rng, 3, 9) + "?",
            "options": ["yes", "no"],
            "id": f"q-{index}",
        }
    elif kind == "PLAN_DRAFT":
        payload = {"markdown": "# Plan\n" + "\n".join(f"- {_words(rng, 2, 6)}" for _ in range(4))}
    elif kind == "PLAN_READY":
        payload = {"path": f".sdd/plans/{rng.choice(_WORDS)}-{index}.md"}
    else:
        payload = {"reason": _words(rng, 3, 7), "hint": rng.choice([None, _words(rng, 2, 5)])}
    return f"BERNSTEIN:{kind}" + ("" if payload is None else " " + _json(payload))


def _generate(size: int) -> list[str]:
    rng = random.Random(SEED)
    return [
        (_signal(rng, index) if rng.random() < SIGNAL_SHARE else _plain(rng, index)) + "\n"
        for index in range(size)
    ]


def corpus_lines(quick: bool = False) -> list[str]:
    """The corpus as a reader of stdout sees it: lines with their "\\n"."""
    size = QUICK_SIZE if quick else FULL_SIZE
    cache = DATA / f"stdout-{SEED}-{size}.txt"
    if not cache.is_file():
        DATA.mkdir(parents=True, exist_ok=True)
        partial = cache.with_suffix(".partial")
        partial.write_text("".join(_generate(size)), encoding="utf-8")
        partial.replace(cache)
    with cache.open(encoding="utf-8", newline="") as handle:
        return handle.readlines()


def signal_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("BERNSTEIN:")]
