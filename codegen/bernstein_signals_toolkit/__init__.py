"""The hand-written half of bernstein-signals: generator, validator and CLI.

The sources of truth live in ``schema/`` and ``grammar/``; this package loads
them into a small frozen model (:mod:`.model`), and each emitter in
:mod:`.emitters` turns that model into files under ``generated/``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("bernstein-signals")
except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0+unknown"

__all__ = ["__version__"]
