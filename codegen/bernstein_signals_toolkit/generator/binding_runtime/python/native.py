"""Mapping native JSON event protocols onto the canonical vocabulary.

:class:`SignalParser` is the seed's ``CLIAdapter.stream_signal_parser`` hook on
its own: the default reads the canonical grammar, and a subclass overrides
``stream_signal_parser`` to translate native events, calling
``super().stream_signal_parser(line)`` for lines that are not native. Two
mappers ship, each read off its CLI's upstream definitions (cited in its
module): Claude Code ``--output-format stream-json``
(:mod:`._native_claude`) and Codex ``exec --json`` (:mod:`._native_codex`).
What every event type maps to, and why, is one table,
:data:`._native_support.NATIVE_EVENT_TABLE`.
"""

from ._native_claude import ClaudeStreamJsonParser
from ._native_codex import CodexJsonParser
from ._native_support import SignalParser

__all__ = ["ClaudeStreamJsonParser", "CodexJsonParser", "SignalParser"]
