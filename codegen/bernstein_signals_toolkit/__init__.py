"""The hand-written half of bernstein-signals: generator, validator and CLI.

The sources of truth live in ``schema/`` and ``grammar/``; this package loads
them into a small frozen model (:mod:`.model`), and each emitter in
:mod:`.emitters` turns that model into files under ``generated/``.
"""

__version__ = "0.1.0"
"""The one home of the version: the build backend reads it here (``pyproject.toml``), so
no command pays for ``importlib.metadata`` at start-up."""

__all__ = ["__version__"]
