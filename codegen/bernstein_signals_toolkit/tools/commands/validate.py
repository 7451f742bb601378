"""``validate``: check recorded adapter stdout (or a bare payload) and report diagnostics."""

from __future__ import annotations

import argparse
import os
import sys

from bernstein_signals.scanning import DEFAULT_MAX_LINE_BYTES
from bernstein_signals_toolkit.toolkit_errors import UsageError

from ..key_mask import KeyMask, masked
from ..validate import formats
from ..validate.check_options import LENIENT_WITH_FENCE
from ..validate.codes import CODES, Severity, lookup, select_codes
from ..validate.output import Output, output_for
from ..validate.payload_file import payload_report
from ..validate.report import report_from_binary
from ._fence_options import (
    add_allow_kinds_argument,
    add_key_file_argument,
    allow_kinds_of,
    key_from_file,
)
from ._inputs import (
    add_unknown_kinds_argument,
    add_vocabulary_argument,
    check_readable,
    opened,
    unknown_kinds_severity,
    vocabulary_of,
)

__all__ = ["configure", "run"]


def _codes(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="recorded stdout files; - or nothing reads stdin"
    )
    parser.add_argument(
        "--format",
        choices=formats.FORMATS,
        default="text",
        help="text (default), json, sarif (2.1.0) or github (workflow commands)",
    )
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="read as lenient readers do: stray whitespace becomes information",
    )
    parser.add_argument(
        "--select",
        type=_codes,
        action="extend",
        default=[],
        metavar="CODES",
        help="report only these codes, names or prefixes (comma-separated)",
    )
    parser.add_argument(
        "--ignore",
        type=_codes,
        action="extend",
        default=[],
        metavar="CODES",
        help="do not report these codes, names or prefixes (comma-separated)",
    )
    parser.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    parser.add_argument("--explain", metavar="CODE", help="explain a diagnostic code and exit")
    parser.add_argument(
        "--payload",
        metavar="KIND",
        help="check one bare payload JSON file (or -) against KIND's schema",
    )
    parser.add_argument(
        "--max-line-bytes",
        type=int,
        default=DEFAULT_MAX_LINE_BYTES,
        metavar="N",
        help=f"over-long line bound (default {DEFAULT_MAX_LINE_BYTES})",
    )
    add_vocabulary_argument(parser)
    add_unknown_kinds_argument(parser)
    add_key_file_argument(parser)
    add_allow_kinds_argument(parser)
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour text output (auto: only on a terminal without NO_COLOR)",
    )


def explain(selector: str) -> str:
    code = lookup(selector)
    if code is None:
        raise UsageError(
            f"--explain: unknown code {selector!r} (codes: {min(CODES)} to {max(CODES)})"
        )
    lines = [
        f"{code.code} {code.name} ({code.severity.value})",
        "",
        code.summary,
        "",
        code.explanation,
    ]
    if code.bad:
        lines += ["", "Instead of:", f"    {code.bad}", "write:", f"    {code.good}"]
    return "\n".join(lines)


def _read_all(args: argparse.Namespace, enabled: frozenset[str], output: Output) -> KeyMask | None:
    """Check every input, findings streaming into ``output``; nothing is printed yet. The
    mask of ``--key-file``'s key, which the output must not show."""
    paths: list[str] = args.paths or ["-"]
    if paths.count("-") > 1:
        raise UsageError("stdin (-) can be read only once")
    check_readable(paths)
    vocabulary = vocabulary_of(args)
    kind = vocabulary.kind(args.payload, option="--payload") if args.payload is not None else None
    allow_kinds = allow_kinds_of(args, vocabulary)
    key = None if args.key_file is None else key_from_file(args.key_file)
    for path in paths:
        name = formats.display_name(path)
        with opened(path) as stream:
            try:
                if kind is not None:
                    data = stream.read()
                    try:
                        text = data.decode("utf-8")
                    except UnicodeDecodeError as exc:
                        raise UsageError(f"{name}: not UTF-8 at byte {exc.start}") from None
                    report = payload_report(text, kind, enabled=enabled, vocabulary=vocabulary)
                else:
                    report = report_from_binary(
                        stream,
                        run_id=name,
                        lenient=args.lenient,
                        enabled=enabled,
                        max_line_bytes=args.max_line_bytes,
                        sink=output.sink(path),
                        vocabulary=vocabulary,
                        unknown_kinds=unknown_kinds_severity(args),
                        key=key,
                        allow_kinds=allow_kinds,
                    )
            except OSError as exc:
                raise UsageError(f"{name}: read error: {exc.strerror or exc}") from None
        output.done(path, report)
    return KeyMask.of(key)


def _use_color(choice: str) -> bool:
    if choice != "auto":
        return choice == "always"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def run(args: argparse.Namespace) -> int:
    if args.explain is not None:
        print(explain(args.explain))
        return 0
    if not 1 <= args.max_line_bytes <= 1 << 30:
        raise UsageError("--max-line-bytes must be between 1 and 1073741824")
    try:
        enabled = select_codes(args.select, args.ignore)
    except ValueError as exc:
        raise UsageError(f"--select/--ignore: {exc}") from None
    if args.payload is not None and len(args.paths) > 1:
        raise UsageError("--payload checks one file (or -)")
    if args.payload is not None and (args.key_file is not None or args.allow_kinds is not None):
        raise UsageError("--key-file and --allow-kinds check a stream, not a --payload file")
    if args.lenient and (args.key_file is not None or args.allow_kinds is not None):
        raise UsageError(LENIENT_WITH_FENCE)

    color = args.format == "text" and _use_color(args.color)
    with output_for(args.format, color=color) as output:
        mask = _read_all(args, enabled, output)
        sys.stdout.flush()
        with masked(sys.stdout.buffer, mask) as out:  # the run may have printed its key
            output.write(out)
        sys.stdout.buffer.flush()
    reports = output.reports
    if args.format == "text":
        print(formats.summary_line(reports), file=sys.stderr)

    failing = {Severity.ERROR, Severity.WARNING} if args.strict else {Severity.ERROR}
    failed = any(report.count(severity) for _, report in reports for severity in failing)
    return 1 if failed else 0
