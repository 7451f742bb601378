"""The conformance kit's vector files: read, checked against the kit's closed lists, and judged.

A vector file is ``{"format": KIT_FORMAT, "vocabulary": {"name", "version"},
"vectors": [...]}``; each vector has an ``id``, a ``type`` and its inputs, and
``expected``. What an implementation is sent is the vector without
``expected`` and ``note``; what it answers is judged here against ``expected``.
Payloads travel as JSON text, so that an integer beyond 2^53 reaches any
language without loss (canonical form, rule 6); they are compared as JSON
values with integers exact, ``1`` equal to ``1.0`` and ``true`` not equal to ``1``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bernstein_signals_toolkit.generator.emitters._conformance_categories import (
    FORMAT_ERRORS,
    KIT_FORMAT,
    LINE_REASONS,
    VECTOR_TYPES,
)
from bernstein_signals_toolkit.toolkit_errors import UsageError, one_line

__all__ = [
    "MAX_VECTOR_FILE_BYTES",
    "Vector",
    "judge",
    "load_vectors",
    "request_of",
    "unsupported_reason",
]

MAX_VECTOR_FILE_BYTES = 64 << 20
"""The largest vector file read; a larger one is refused, not truncated."""
_NOT_SENT = frozenset({"expected", "note"})
_SHOWN = 120


@dataclass(frozen=True)
class Vector:
    id: str
    type: str
    request: Mapping[str, Any]
    expected: Mapping[str, Any]
    source: str
    """The file it came from, for messages."""


def request_of(vector: Mapping[str, Any]) -> dict[str, Any]:
    """What the implementation under test is sent: the vector's inputs."""
    return {key: value for key, value in vector.items() if key not in _NOT_SENT}


def _refuse(where: str, what: str) -> UsageError:
    return UsageError(one_line(f"{where}: {what}"))


def _among(value: object, table: Mapping[str, str]) -> bool:
    """Whether ``value`` is a category of ``table`` (any JSON value may be asked)."""
    return isinstance(value, str) and value in table


def _json_text(value: object) -> bool:
    """Whether ``value`` is null or JSON text this module can read back."""
    if value is None:
        return True
    if not isinstance(value, str):
        return False
    try:
        json.loads(value)
    except (ValueError, RecursionError):
        return False
    return True


def _is_errors(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(error, dict)
        and isinstance(error.get("pointer"), str)
        and isinstance(error.get("rule"), str)
        for error in value
    )


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _written(expected: Mapping[str, Any]) -> bool:
    if ("line" in expected) == ("error" in expected):
        return False
    return isinstance(expected.get("line"), str) or _among(expected.get("error"), FORMAT_ERRORS)


_EXPECTED: Mapping[str, tuple[str, Callable[[Mapping[str, Any]], bool]]] = {
    "line": (
        f"kind (a string or null), payload (JSON text or null), reason ({', '.join(LINE_REASONS)})",
        lambda e: (
            (e.get("kind", 0) is None or isinstance(e.get("kind"), str))
            and "payload" in e
            and _json_text(e["payload"])
            and _among(e.get("reason"), LINE_REASONS)
        ),
    ),
    "format": (f"either line (a string) or error ({', '.join(FORMAT_ERRORS)})", _written),
    "format-reply": (f"either line (a string) or error ({', '.join(FORMAT_ERRORS)})", _written),
    "payload": ("errors: a list of {pointer, rule} strings", lambda e: _is_errors(e.get("errors"))),
    "parse-reply": ("reply (JSON text or null)", lambda e: "reply" in e and _json_text(e["reply"])),
    "stream": (
        "kinds (a list of strings), terminal (a boolean), maybe diagnostics (strings)",
        lambda e: (
            _strings(e.get("kinds"))
            and isinstance(e.get("terminal"), bool)
            and _strings(e.get("diagnostics", []))
        ),
    ),
}
"""Per vector type: what ``expected`` holds, and the check that it does."""


def _check_expected(where: str, kind: str, expected: object) -> Mapping[str, Any]:
    if not isinstance(expected, dict):
        raise _refuse(where, "'expected' must be an object")
    what, holds = _EXPECTED[kind]
    if not holds(expected):
        raise _refuse(where, f"'expected' of a {kind} vector must hold {what}")
    return expected


def _read_file(path: Path) -> list[Vector]:
    where = str(path)
    if not path.is_file():  # a FIFO or a device would block or never end
        raise _refuse(where, "not a regular file")
    try:
        with path.open("rb") as file:
            data = file.read(MAX_VECTOR_FILE_BYTES + 1)
    except OSError as exc:
        raise _refuse(where, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_VECTOR_FILE_BYTES:
        raise _refuse(where, f"larger than {MAX_VECTOR_FILE_BYTES} bytes")
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _refuse(where, f"not a JSON vector file ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != KIT_FORMAT:
        raise _refuse(where, f'not a vector file: "format" must be "{KIT_FORMAT}"')
    vectors = document.get("vectors")
    if not isinstance(vectors, list):
        raise _refuse(where, '"vectors" must be a list')
    found: list[Vector] = []
    for index, vector in enumerate(vectors):
        at = f"{where}: vector {index}"
        if not isinstance(vector, dict) or not isinstance(vector.get("id"), str):
            raise _refuse(at, 'a vector is an object with a string "id"')
        kind = vector.get("type")
        if not isinstance(kind, str) or kind not in VECTOR_TYPES:
            raise _refuse(
                f"{at} ({vector['id']})", f"type must be one of {', '.join(VECTOR_TYPES)}"
            )
        expected = _check_expected(f"{at} ({vector['id']})", kind, vector.get("expected"))
        found.append(Vector(vector["id"], kind, request_of(vector), expected, where))
    return found


def load_vectors(folders: Iterable[Path], types: Sequence[str] = ()) -> list[Vector]:
    """Every vector in the folders' ``*.json`` files (sorted by name), of ``types`` if given;
    ids must be unique."""
    vectors: list[Vector] = []
    for folder in folders:
        if not folder.is_dir():
            raise _refuse(str(folder), "not a folder of vector files")
        for path in sorted(folder.glob("*.json")):
            vectors.extend(v for v in _read_file(path) if not types or v.type in types)
    seen: dict[str, str] = {}
    for vector in vectors:
        if vector.id in seen:
            raise _refuse(vector.source, f"vector id {vector.id!r} also in {seen[vector.id]}")
        seen[vector.id] = vector.source
    return vectors


def _shown(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _float_is(number: float, integer: object) -> bool:
    return math.isfinite(number) and number.is_integer() and int(number) == integer


def _scalar_equal(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        if isinstance(a, float) and not isinstance(b, float):
            return _float_is(a, b)
        if isinstance(b, float) and not isinstance(a, float):
            return _float_is(b, a)
        return a == b
    return type(a) is type(b) and a == b


def _json_equal(a: object, b: object) -> bool:
    """JSON equality: numbers by value (exact for integers), booleans apart from numbers.
    Iterative, so an answer of any depth json could read compares without recursing."""
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            pending.extend(zip(x, y, strict=True))
        elif isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            pending.extend((x[key], y[key]) for key in x)
        elif not _scalar_equal(x, y):
            return False
    return True


def _json_text_equal(expected: object, answered: object) -> str | None:
    """Why the answered JSON text (or null) differs from the expected one, or None."""
    if expected is None or answered is None:
        return None if expected is answered else "null on one side only"
    if not isinstance(answered, str):
        return "not JSON text (a string) nor null"
    try:
        value = json.loads(answered)
    except (ValueError, RecursionError):
        return "not JSON text"
    return None if _json_equal(json.loads(str(expected)), value) else "a different value"


def _errors_of(value: object) -> list[tuple[str, str]] | None:
    if not isinstance(value, list):
        return None
    errors: list[tuple[str, str]] = []
    for error in value:
        if not isinstance(error, dict):
            return None
        pointer, rule = error.get("pointer"), error.get("rule")
        if not isinstance(pointer, str) or not isinstance(rule, str):
            return None
        errors.append((pointer, rule))
    return sorted(errors)


def _differs(vector: Vector, answer: Mapping[str, Any]) -> str | None:
    expected = vector.expected
    if vector.type == "line":
        if answer.get("kind") != expected["kind"]:
            return f"kind {_shown(answer.get('kind'))}, expected {_shown(expected['kind'])}"
        why = _json_text_equal(expected["payload"], answer.get("payload"))
        return None if why is None else f"payload {_shown(answer.get('payload'))}: {why}"
    if vector.type in ("format", "format-reply"):
        for key in ("line", "error"):
            if key in expected and answer.get(key) != expected[key]:
                got = {k: answer[k] for k in ("line", "error") if k in answer}
                return f"answered {_shown(got)}, expected {key} {_shown(expected[key])}"
        return None
    if vector.type == "payload":
        errors = _errors_of(answer.get("errors"))
        if errors is None:
            return "'errors' must be a list of {pointer, rule}"
        want = _errors_of(expected["errors"])
        return None if errors == want else f"errors {_shown(errors)}, expected {_shown(want)}"
    if vector.type == "parse-reply":
        why = _json_text_equal(expected["reply"], answer.get("reply"))
        return None if why is None else f"reply {_shown(answer.get('reply'))}: {why}"
    keys = ["kinds", "terminal"]
    if "diagnostics" in answer and "diagnostics" in expected:  # a stream checker's codes
        keys.append("diagnostics")
    for key in keys:
        if answer.get(key) != expected[key]:
            return f"{key} {_shown(answer.get(key))}, expected {_shown(expected[key])}"
    return None


def unsupported_reason(answer: object) -> str | None:
    """The reason of an answer ``{"id", "unsupported": REASON}``: the harness cannot say it."""
    if isinstance(answer, dict) and isinstance(answer.get("unsupported"), str):
        return one_line(answer["unsupported"]) or "unsupported"
    return None


def judge(vector: Vector, answer: object) -> str | None:
    """Why ``answer`` fails ``vector`` (one line), or None when it passes."""
    if not isinstance(answer, dict):
        return "the answer is not a JSON object"
    if answer.get("id") != vector.id:
        return f"answered id {_shown(answer.get('id'))}, not this vector's"
    if "error" in answer and not _among(answer["error"], FORMAT_ERRORS):
        return f"error {_shown(answer['error'])} is not a format error category"
    return _differs(vector, answer)
