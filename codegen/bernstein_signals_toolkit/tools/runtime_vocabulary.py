"""The vocabulary run-time commands check against: the built-in binding, or a compiled folder.

``validate``, ``emit``, ``parse``, ``conform``, ``wrap`` and ``lsp`` take every
verdict from a :class:`RuntimeVocabulary`. The default one is the generated
binding this toolkit ships (``bernstein_signals``); ``--vocabulary DIR`` gives
one compiled in memory from a schema folder by the same emitters ``generate``
uses (the kinds module, the compiled validators) plus the binding's own
runtime templates, so a fork's verdicts are exactly what its regenerated
binding would say. Nothing is written to disk.

The folder rule: DIR is a schema folder (``vocabulary.json`` and
``*.schema.json``, as ``schema/``). Its grammar is ``grammar/signal.lark`` next
to it (``DIR/../grammar/signal.lark``) when that file exists, else the built-in
grammar. Compiled vocabularies are cached in the process by the sha256 of the
folder's files and the grammar, so re-checking an unchanged folder (the
language server does it on every analysis) only reads and hashes it.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any, cast

from bernstein_signals import (
    AnySignal,
    PayloadError,
    SignalRecord,
    SignalScanner,
    UnknownKindRecord,
)
from bernstein_signals_toolkit.generator.sources import GRAMMAR_FILE, packaged_sources
from bernstein_signals_toolkit.toolkit_errors import UsageError, one_line, path_error

if TYPE_CHECKING:
    from _typeshed.importlib import LoaderProtocol

    from bernstein_signals import FenceVerifier, SignalKey, SignalMarker
    from bernstein_signals_toolkit.generator.model import Vocabulary

__all__ = ["MAX_COMPILED", "RuntimeVocabulary", "built_in", "compile_folder", "folder_digest"]

_RUNTIME_TEMPLATES = (
    "errors",
    "limits",
    "_strict_json",
    "_canonical_json",
    "_validation",
    "signals",
    "parsing",
    "formatting",
    "fence_rules",
    "_fence_key",
    "fence",
    "scanning",
    "readers",
    "terminal",
)
"""The binding's runtime modules a vocabulary needs for reading, checking and writing lines.

The question, plan and reply runtime is left out: it needs the payload types,
which only datamodel-code-generator writes, and no command takes it from a fork.
"""
_PACKAGE_PREFIX = "_bernstein_vocabulary_"
_SOURCE_SUFFIXES = (".schema.json", "vocabulary.json")


@dataclass(frozen=True, eq=False)
class RuntimeVocabulary:
    """One vocabulary's kinds and the binding functions that judge lines against it.

    Signals it returns are the built-in binding's types for mypy; a compiled
    vocabulary's are its own classes with the same fields, so callers tell
    kinds apart with :meth:`knows`, never with ``isinstance``.
    """

    version: str
    prefix: str
    kinds: tuple[str, ...]
    """Sorted."""
    terminal_kinds: frozenset[str]
    origin: str
    """``built-in``, or the folder it was compiled from."""
    digest: str
    """sha256 of the sources (the folder's files and grammar); ``built-in`` for the default."""
    _parse: Callable[..., AnySignal | None] = field(repr=False)
    _validate: Callable[[str, object], list[PayloadError]] = field(repr=False)
    _format: Callable[..., str] = field(repr=False)
    _read: Callable[..., Iterator[SignalRecord | UnknownKindRecord]] = field(repr=False)
    _scanner: Callable[[], SignalScanner] = field(repr=False)
    _model: Callable[[], Vocabulary] = field(repr=False)
    _fence: Callable[[], ModuleType] = field(repr=False)
    """The binding's ``fence`` module: its prefix and kinds, loaded only for a fenced run."""
    payload_error: type[ValueError] = field(repr=False)
    """The binding's ``SignalPayloadError``, which :meth:`format_signal` raises."""
    _known: frozenset[str] = field(repr=False)
    _role_fields: dict[tuple[str, str], str] = field(repr=False)

    def knows(self, kind: str) -> bool:
        return kind in self._known

    def role_field(self, document: str, role: str) -> str | None:
        """The field with ``role`` in ``document`` (a kind, or ``reply``); None when either is
        missing. From the binding's table: no source is loaded."""
        return self._role_fields.get((document, role))

    def describe(self) -> str:
        """How messages name it: ``vocabulary 1.0.0`` (and the folder when not built in)."""
        if self.origin == "built-in":
            return f"vocabulary {self.version}"
        # Messages are one line of text: the folder's name may hold any byte.
        shown = one_line(os.fsencode(self.origin).decode("utf-8", "backslashreplace"))
        return f"vocabulary {self.version} from {shown}"

    def parse_signal(
        self, line: str, *, lenient: bool = False, unknown_kinds: bool = False
    ) -> AnySignal | None:
        """The binding's ``parse_signal``; unknown kinds only with ``unknown_kinds``."""
        return self._parse(line, lenient=lenient, unknown_kinds=unknown_kinds)

    def validate_payload(self, kind: str, payload: object) -> list[PayloadError]:
        """The compiled schema's verdict; raises ValueError for a kind it does not know."""
        return self._validate(kind, payload)

    def format_signal(
        self, kind: str, payload: dict[str, Any] | None = None, *, validate: bool = True
    ) -> str:
        """The binding's ``format_signal``: :attr:`payload_error` for a schema failure."""
        return self._format(kind, payload, validate=validate)

    def read_signals(
        self, stream: IO[bytes], *, unknown_kinds: bool = False
    ) -> Iterator[SignalRecord | UnknownKindRecord]:
        """The binding's ``read_signals``; unknown kinds only with ``unknown_kinds``."""
        return self._read(stream, unknown_kinds=unknown_kinds)

    def signal_scanner(self) -> SignalScanner:
        """A fresh ``SignalScanner`` of this vocabulary (``feed``/``close`` give records)."""
        return self._scanner()

    def model(self) -> Vocabulary:
        """The loaded sources (the language server reads helper names and fields from them)."""
        return self._model()

    def fence_verifier(
        self, key: SignalKey | None, allow_kinds: Iterable[str] | None = None
    ) -> FenceVerifier:
        """The ``FenceVerifier`` of this vocabulary's binding, which rebuilds a marked line with
        its own prefix and knows its own kinds; ValueError for a kind it does not know.

        Every fence the commands set up is this one or :meth:`signal_marker`: the built-in
        binding's would refuse a fork's every line (another prefix) and its kinds.
        """
        fence = self._fence()
        verifier: FenceVerifier = fence.FenceVerifier(self._own_key(fence, key), allow_kinds)
        return verifier

    def signal_marker(self, key: SignalKey) -> SignalMarker:
        """The ``SignalMarker`` of this vocabulary's binding: lines with its prefix."""
        fence = self._fence()
        marker: SignalMarker = fence.SignalMarker(self._own_key(fence, key))
        return marker

    @staticmethod
    def _own_key(fence: ModuleType, key: SignalKey | None) -> SignalKey | None:
        """``key`` as the binding's own ``SignalKey`` (each binding checks for its class)."""
        if key is None or isinstance(key, fence.SignalKey):
            return key
        own: SignalKey = fence.SignalKey.parse(key.text())
        return own

    def kind(self, name: str, *, option: str = "") -> str:
        """A kind given on the command line, in any case; an unknown one is a usage error."""
        if self.knows(name.upper()):
            return name.upper()
        where = f"{option}: " if option else ""
        raise UsageError(
            f"{where}unknown kind {name!r} ({self.describe()} knows {', '.join(self.kinds)})"
        )


def _from_modules(
    modules: dict[str, ModuleType],
    *,
    origin: str,
    digest: str,
    model: Callable[[], Vocabulary],
    fence: Callable[[], ModuleType],
) -> RuntimeVocabulary:
    kinds = modules["kinds"]
    names = tuple(sorted(kind.value for kind in kinds.SignalKind))
    return RuntimeVocabulary(
        version=str(kinds.VOCABULARY_VERSION),
        prefix=str(kinds.SIGNAL_PREFIX),
        kinds=names,
        terminal_kinds=frozenset(kind.value for kind in kinds.TERMINAL_SIGNAL_KINDS),
        origin=origin,
        digest=digest,
        _parse=modules["parsing"].parse_signal,
        _validate=modules["validators"].validate_payload,
        _format=modules["formatting"].format_signal,
        _read=modules["readers"].read_signals,
        _scanner=modules["readers"].SignalScanner,
        _model=model,
        _fence=fence,
        payload_error=modules["formatting"].SignalPayloadError,
        _known=frozenset(names),
        _role_fields=dict(modules["fields"].ROLE_FIELDS),
    )


_NEEDED = ("kinds", "fields", "parsing", "validators", "formatting", "readers")


@cache
def _packaged_model() -> Vocabulary:
    from bernstein_signals_toolkit.generator.load import (
        load_vocabulary,  # lark and jsonschema: only for callers that need the model
    )

    sources = packaged_sources()
    return load_vocabulary(sources.schema_dir, sources.grammar)


@cache
def built_in() -> RuntimeVocabulary:
    """The vocabulary of the generated binding this toolkit ships: the default of every command."""
    modules = {name: importlib.import_module(f"bernstein_signals.{name}") for name in _NEEDED}
    return _from_modules(
        modules, origin="built-in", digest="built-in", model=_packaged_model, fence=_built_in_fence
    )


def _built_in_fence() -> ModuleType:
    """The built-in binding's fence, imported on first use: an unfenced run never loads it."""
    return importlib.import_module("bernstein_signals.fence")


# ---------------------------------------------------------------------------
# Compiling a folder
# ---------------------------------------------------------------------------


class _InMemoryModules:
    """Imports the compiled packages' modules from source text held here, never from disk.

    A meta path finder and loader by their methods alone: importlib.abc, as a base,
    would cost every command its imports (tempfile, random) at start-up."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.sources:
            return None
        is_package = "." not in fullname
        loader = cast("LoaderProtocol", self)  # a loader by its methods
        return importlib.util.spec_from_loader(
            fullname, loader, origin=f"<{fullname}>", is_package=is_package
        )

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        name = module.__name__
        exec(compile(self.sources[name], f"<{name}>", "exec"), module.__dict__)


_FINDER = _InMemoryModules()
_LOCK = threading.Lock()
_COMPILED: dict[str, RuntimeVocabulary] = {}
MAX_COMPILED = 8
"""Compiled vocabularies kept per process: a language server re-compiling an edited folder
keeps the latest few, not every version it ever saw."""


def _grammar_for(folder: Path) -> Path:
    beside = folder.parent / GRAMMAR_FILE
    return beside if beside.is_file() else packaged_sources().grammar


def folder_digest(folder: Path) -> str:
    """sha256 of what a compile of ``folder`` reads: its entries' names and bytes, and the grammar.

    Only the files the loader reads (``*.schema.json``, ``vocabulary.json``) are
    read; any other entry counts by its name (the loader refuses it), so a FIFO
    or a link to a device is never opened. An unreadable folder or file is a
    one-line usage error.
    """
    import hashlib  # only --vocabulary hashes a folder

    digest = hashlib.sha256()
    try:
        entries = sorted(folder.iterdir())
        for entry in entries:
            if entry.name.startswith("."):
                continue  # the loader skips these too
            name = entry.name.encode("utf-8", "surrogateescape")
            if entry.name.endswith(_SOURCE_SUFFIXES):
                if not entry.is_file():  # a FIFO or a device would block or never end
                    raise UsageError(f"--vocabulary {folder}: {entry.name} is not a regular file")
                data = entry.read_bytes()
                digest.update(b"f%d:%s%d:" % (len(name), name, len(data)) + data)
            else:
                digest.update(b"d%d:%s" % (len(name), name))
        grammar = _grammar_for(folder)
        data = grammar.read_bytes()
    except OSError as exc:
        where = exc.filename if exc.filename is not None else folder
        raise UsageError(
            f"--vocabulary {folder}: cannot read {where}: {exc.strerror or exc}"
        ) from None
    digest.update(b"g%d:" % len(data) + data)
    return digest.hexdigest()


def compile_folder(folder: Path | str) -> RuntimeVocabulary:
    """The vocabulary of a schema folder, compiled in memory (once per content: cached by digest).

    A folder the loader refuses is a one-line error (exit status 2), as ``generate`` gives.
    """
    # The generator's modules load lark and jsonschema: only a run with --vocabulary pays for them.
    from bernstein_signals_toolkit.generator.emitters._python_validators import validators_module
    from bernstein_signals_toolkit.generator.emitters._templates import template_text
    from bernstein_signals_toolkit.generator.emitters.python import (
        _fields_module,  # the one homes of the kinds and fields modules' text
        _kinds_module,
    )
    from bernstein_signals_toolkit.generator.load import load_vocabulary
    from bernstein_signals_toolkit.generator.names import check_vocabulary

    folder = Path(folder)
    try:
        is_folder = stat.S_ISDIR(os.stat(folder).st_mode)
    except FileNotFoundError:
        raise path_error(
            "--vocabulary", folder, "not a schema folder (no such directory)"
        ) from None
    except OSError as exc:  # too long a name, a file on the way, a loop: one line, not a crash
        raise path_error("--vocabulary", folder, exc) from None
    if not is_folder:
        raise path_error("--vocabulary", folder, "not a schema folder (not a directory)")
    digest = folder_digest(folder)
    with _LOCK:
        found = _COMPILED.get(digest)
        if found is not None:
            return found
        vocabulary = load_vocabulary(folder, _grammar_for(folder))
        check_vocabulary(vocabulary)
        package = _PACKAGE_PREFIX + digest[:32]
        sources = {name: template_text(f"python/{name}.py") for name in _RUNTIME_TEMPLATES}
        sources["kinds"] = _kinds_module(vocabulary)
        sources["fields"] = _fields_module(vocabulary)
        sources["validators"] = validators_module(vocabulary)
        if _FINDER not in sys.meta_path:
            sys.meta_path.append(_FINDER)
        _FINDER.sources[package] = ""
        _FINDER.sources.update({f"{package}.{name}": text for name, text in sources.items()})
        try:
            modules = {name: importlib.import_module(f"{package}.{name}") for name in _NEEDED}
            # Loaded now: a package dropped from the cache (_forget) could not import it later.
            fence = importlib.import_module(f"{package}.fence")
        except Exception as exc:  # an emitter's bug: still one line, never a traceback
            _forget(package)
            raise UsageError(
                f"--vocabulary {folder}: the compiled binding does not load"
                f" ({type(exc).__name__}: {exc})"
            ) from None
        compiled = _from_modules(
            modules,
            origin=str(folder),
            digest=digest,
            model=lambda: vocabulary,
            fence=lambda: fence,
        )
        _COMPILED[digest] = compiled
        while len(_COMPILED) > MAX_COMPILED:  # oldest first: an editor saving a folder often
            _forget(_PACKAGE_PREFIX + _COMPILED.pop(next(iter(_COMPILED))).digest[:32])
        return compiled


def _forget(package: str) -> None:
    """Drop a compiled package's sources and modules (vocabularies still in use keep theirs)."""
    for name in [name for name in _FINDER.sources if name.partition(".")[0] == package]:
        del _FINDER.sources[name]
    for name in [name for name in sys.modules if name.partition(".")[0] == package]:
        del sys.modules[name]
