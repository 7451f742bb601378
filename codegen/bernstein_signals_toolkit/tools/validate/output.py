"""``validate``'s output, written while the stream is read and released only at the end.

Each format renders findings as they arrive (a :class:`ReportSink` per input)
into a spooled temporary file, which stays in memory up to ``SPOOL_BYTES`` and
then moves to disk. Only when every input has been read is the document put
together and copied to stdout, so memory stays constant however long the
stream, and a read error leaves no partial output.

JSON and SARIF are the same bytes ``json.dumps(document, indent=2)`` would
print: lists that grow with the stream are left as placeholders in the
rendered skeleton and filled from the spools.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import IO, Any

from . import formats
from .diagnostics import Diagnostic
from .pretty_json import dumps_indented
from .run_report import ConformanceReport, ReportSink, SeenSignal, signal_dict

__all__ = ["SPOOL_BYTES", "Output", "output_for"]

SPOOL_BYTES = 1 << 20
"""How much of the output a spool keeps in memory before it moves to a temporary file."""


def _spool() -> IO[bytes]:
    import tempfile  # with shutil, 3 ms of start-up: only a run that writes output pays

    return tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+b")


def _copy(source: IO[bytes], target: IO[bytes]) -> None:
    import shutil

    source.seek(0)
    shutil.copyfileobj(source, target)
    source.seek(0)
    source.truncate()


def _json_bytes(text: str) -> bytes:
    """UTF-8; a lone surrogate (only possible in a JSON string) becomes its ``\\u`` escape."""
    return text.encode("utf-8", "backslashreplace")


class _Items:
    """One JSON array's items, rendered as they come, ``indent`` spaces deep."""

    def __init__(self, indent: int, spool: IO[bytes]) -> None:
        self.indent = indent
        self.count = 0
        self.spool = spool

    def add(self, value: Any) -> None:
        head = ",\n" if self.count else ""
        self.spool.write(
            _json_bytes(f"{head}{' ' * self.indent}{dumps_indented(value, self.indent)}")
        )
        self.count += 1

    def write_array(self, out: IO[bytes]) -> None:
        """``[...]`` as json.dumps prints it; the items are then forgotten."""
        if not self.count:
            out.write(b"[]")
            return
        out.write(b"[\n")
        _copy(self.spool, out)
        out.write(b"\n" + b" " * (self.indent - 2) + b"]")
        self.count = 0


def _fill(skeleton: str, out: IO[bytes], arrays: dict[str, _Items]) -> None:
    """Write ``skeleton`` (rendered JSON) with each placeholder string replaced by its array."""
    rest = skeleton
    for marker, items in arrays.items():
        before, _, rest = rest.partition(json.dumps(marker))
        out.write(_json_bytes(before))
        items.write_array(out)
    out.write(_json_bytes(rest))


def _marker(name: str) -> str:
    # NUL never occurs in a path or anything else the skeleton holds.
    return f"\0{name}"


class Output(ABC):
    """One format's writer: a sink per input, then the whole document at the end."""

    def __init__(self) -> None:
        self.reports: list[tuple[str, ConformanceReport]] = []
        self._spools: list[IO[bytes]] = []
        self._body = self._spool()

    def _spool(self) -> IO[bytes]:
        spool = _spool()
        self._spools.append(spool)
        return spool

    def __enter__(self) -> Output:
        return self

    def __exit__(self, *exc_info: object) -> None:
        for spool in self._spools:
            spool.close()

    def sink(self, path: str) -> ReportSink:
        """Where the findings of one input go while it is read."""
        return _Sink(self, path)

    def signal(self, path: str, seen: SeenSignal) -> None:
        """A signal: only the JSON format lists them."""
        return

    @abstractmethod
    def diagnostic(self, path: str, diagnostic: Diagnostic) -> None: ...

    def done(self, path: str, report: ConformanceReport) -> None:
        """The input is read; what its report kept (a payload file's findings) is written too."""
        for seen in report.signals:
            self.signal(path, seen)
        for diagnostic in report.diagnostics:
            self.diagnostic(path, diagnostic)
        self.reports.append((path, report))

    def write(self, out: IO[bytes]) -> None:
        """Everything, once every input has been read."""
        _copy(self._body, out)


class _Lines(Output):
    """Text-like formats: rendered lines per finding, nothing around them."""

    @abstractmethod
    def lines(self, path: str, diagnostic: Diagnostic) -> list[str]: ...

    def diagnostic(self, path: str, diagnostic: Diagnostic) -> None:
        for line in self.lines(path, diagnostic):
            self._body.write(formats.encode_line(line + "\n"))


class _Sink:
    def __init__(self, output: Output, path: str) -> None:
        self._output = output
        self._path = path

    def signal(self, seen: SeenSignal) -> None:
        self._output.signal(self._path, seen)

    def diagnostic(self, diagnostic: Diagnostic) -> None:
        self._output.diagnostic(self._path, diagnostic)


class _Text(_Lines):
    def __init__(self, *, color: bool) -> None:
        super().__init__()
        self.color = color

    def lines(self, path: str, diagnostic: Diagnostic) -> list[str]:
        return formats.text_lines(path, diagnostic, color=self.color)


class _GitHub(_Lines):
    def lines(self, path: str, diagnostic: Diagnostic) -> list[str]:
        return [formats.github_line(path, diagnostic)]


class _Json(Output):
    """``formats.json_document`` with each file's signal and diagnostic lists streamed."""

    _FILE_INDENT = 4  # document > "files" > file object

    def __init__(self) -> None:
        super().__init__()
        self._signals = _Items(self._FILE_INDENT + 4, self._spool())
        self._diagnostics = _Items(self._FILE_INDENT + 4, self._spool())

    def signal(self, path: str, seen: SeenSignal) -> None:
        self._signals.add(signal_dict(seen))

    def diagnostic(self, path: str, diagnostic: Diagnostic) -> None:
        self._diagnostics.add(diagnostic.to_dict())

    def done(self, path: str, report: ConformanceReport) -> None:
        super().done(path, report)
        entry = {
            **formats.file_entry(path),
            **report.header(),
            "signals": _marker("signals"),
            "diagnostics": _marker("diagnostics"),
        }
        head = b",\n" if len(self.reports) > 1 else b""
        self._body.write(head + b" " * self._FILE_INDENT)
        arrays = {_marker("signals"): self._signals, _marker("diagnostics"): self._diagnostics}
        _fill(dumps_indented(entry, self._FILE_INDENT), self._body, arrays)

    def write(self, out: IO[bytes]) -> None:
        files = _Items(self._FILE_INDENT, self._body)
        files.count = len(self.reports)
        skeleton = formats.json_document([], passed=all(r.passed for _, r in self.reports))
        skeleton["files"] = _marker("files")
        _fill(dumps_indented(skeleton, 0), out, {_marker("files"): files})
        out.write(b"\n")


class _Sarif(Output):
    """``formats.sarif_document`` with the results streamed."""

    def __init__(self) -> None:
        super().__init__()
        self._results = _Items(8, self._spool())  # document > "runs" > run > "results"

    def diagnostic(self, path: str, diagnostic: Diagnostic) -> None:
        self._results.add(formats.sarif_result(path, diagnostic))

    def write(self, out: IO[bytes]) -> None:
        skeleton = formats.sarif_document(self.reports, results=False)
        skeleton["runs"][0]["results"] = _marker("results")
        _fill(dumps_indented(skeleton, 0), out, {_marker("results"): self._results})
        out.write(b"\n")


def output_for(name: str, *, color: bool = False) -> Output:
    """The writer of one ``--format``."""
    if name == "json":
        return _Json()
    if name == "sarif":
        return _Sarif()
    if name == "github":
        return _GitHub()
    return _Text(color=color)
