"""``conformance``: certify an implementation of the protocol against the kit's vectors.

The implementation is a harness command, started once and sent one vector a
line as JSON on stdin, answering each with one line of JSON on stdout
(README: "Conformance kit"). Every vector of the kit's folders (or of
``--vectors DIR``) runs through it; the report lists each failure and a
summary. Exit 0 when every vector passes, or fails as ``--known-failures``
lists it with a reason; 1 when any other fails or a listed one passes (the list
must not go stale); 2 for a usage error or a harness that cannot run or keeps
dying; 128+N when signal N (forwarded to the harness's process group) ends the run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bernstein_signals_toolkit.generator.emitters._conformance_categories import VECTOR_TYPES
from bernstein_signals_toolkit.generator.sources import OUTPUT_DIR
from bernstein_signals_toolkit.toolkit_errors import UsageError, one_line

from ._arguments import input_folder, option_file, printable
from ._conformance_harness import Harness
from ._conformance_vectors import Vector, judge, load_vectors, unsupported_reason
from ._process import CommandNotRunnable, add_command_argument, command_of

__all__ = ["DEFAULT_TIMEOUT", "KIT_DIRS", "configure", "run"]

DEFAULT_TIMEOUT = 10.0
"""Seconds a harness has to answer one vector."""
KIT_DIRS = (f"{OUTPUT_DIR}/conformance/vectors", "conformance/vectors")
"""The kit's vector folders in a checkout: generated from the schemas, and hand-written."""
_MAX_KNOWN_BYTES = 1 << 20


@dataclass(frozen=True)
class _Result:
    id: str
    type: str
    status: str
    """pass, fail, known (failed as listed), fixed (listed, but passed) or unsupported."""
    detail: str = ""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--vectors",
        action="append",
        type=Path,
        metavar="DIR",
        help="a folder of vector files (repeatable; default: the kit's folders in the checkout)",
    )
    parser.add_argument(
        "--type",
        action="append",
        choices=sorted(VECTOR_TYPES),
        dest="types",
        help="run only vectors of this type (repeatable; default: all)",
    )
    parser.add_argument(
        "--known-failures",
        type=Path,
        metavar="FILE",
        help='TOML: ["<vector id>"] tables, each with a reason, that the harness may fail',
    )
    parser.add_argument(
        "--per-vector",
        action="store_true",
        help="start the harness once per vector and close its stdin after the vector"
        " (slow: for harnesses that read all of stdin and answer once)",
    )
    parser.add_argument(
        "--allow-unsupported",
        action="store_true",
        help="exit 0 even when the harness answers some vectors 'unsupported' (they are counted)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long the harness has to answer one vector (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_command_argument(parser)


def _kit_dirs() -> list[Path]:
    """The kit's folders in the checkout this toolkit runs from (an installed one has none)."""
    for root in Path(__file__).resolve().parents:
        folders = [root / folder for folder in KIT_DIRS]
        if all(folder.is_dir() for folder in folders):
            return folders
    raise UsageError("the kit's vectors are not beside this toolkit; pass --vectors DIR")


def _known_failures(path: Path | None, ids: set[str]) -> Mapping[str, str]:
    if path is None:
        return {}
    name = f"--known-failures {printable(path)}"
    data = option_file("--known-failures", path, _MAX_KNOWN_BYTES)
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(one_line(f"{name}: not TOML: {exc}")) from None
    known: dict[str, str] = {}
    for key, entry in table.items():
        reason = entry.get("reason") if isinstance(entry, dict) else None
        if not isinstance(reason, str) or not reason.strip():
            raise UsageError(one_line(f"{name}: {key!r} needs a reason"))
        if key not in ids:
            raise UsageError(one_line(f"{name}: {key!r} is no vector id"))
        known[key] = reason
    return known


def _run_all(
    args: argparse.Namespace, vectors: Sequence[Vector], known: Mapping[str, str]
) -> list[_Result]:
    results: list[_Result] = []
    with Harness(command_of(args), args.timeout, args.per_vector) as harness:
        for vector in vectors:
            answer = harness.ask(dict(vector.request))
            unsupported = unsupported_reason(answer.value)
            why = answer.failure or judge(vector, answer.value)
            if unsupported is not None and answer.failure is None:
                results.append(_Result(vector.id, vector.type, "unsupported", unsupported))
                continue
            if vector.id in known:
                status = "known" if why else "fixed"
                why = why or f"listed as a known failure ({known[vector.id]}) but passes"
            else:
                status = "fail" if why else "pass"
            results.append(_Result(vector.id, vector.type, status, why or ""))
    return results


def _report(results: Sequence[_Result], output: str) -> None:
    counts = dict.fromkeys(("pass", "fail", "known", "fixed", "unsupported"), 0)
    for result in results:
        counts[result.status] += 1
    if output == "json":
        document = {
            "total": len(results),
            "passed": counts["pass"],
            "failed": counts["fail"],
            "known_failures": counts["known"],
            "listed_but_passing": counts["fixed"],
            "unsupported": counts["unsupported"],
            "results": [r.__dict__ for r in results if r.status != "pass"],
        }
        print(json.dumps(document, ensure_ascii=True, indent=1))
        return
    for result in results:
        if result.status != "pass":
            print(one_line(f"{result.status.upper()} {result.id}: {result.detail}"))
    print(
        f"{len(results)} vectors: {counts['pass']} passed, {counts['fail']} failed,"
        f" {counts['known']} known failures, {counts['fixed']} listed but passing,"
        f" {counts['unsupported']} unsupported"
    )


def run(args: argparse.Namespace) -> int:
    command_of(args)  # a missing command is a usage error before any file is read
    if not 0 < args.timeout <= 3600:
        raise UsageError("--timeout must be more than 0 and at most 3600 seconds")
    for folder in args.vectors or ():
        input_folder("--vectors", folder)
    folders = args.vectors or _kit_dirs()
    vectors = load_vectors(folders, args.types or ())
    if not vectors:
        raise UsageError("no vectors to run")
    known = _known_failures(args.known_failures, {vector.id for vector in vectors})
    try:
        results = _run_all(args, vectors, known)
    except CommandNotRunnable as exc:
        print(f"bernstein-signals: error: {exc}", file=sys.stderr)
        return 2
    _report(results, args.format)
    sys.stdout.flush()
    accepted = {"pass", "known", *(["unsupported"] if args.allow_unsupported else [])}
    return 0 if all(r.status in accepted for r in results) else 1
