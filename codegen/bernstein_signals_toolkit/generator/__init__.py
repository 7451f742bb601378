"""The generator: sources -> model -> emitters -> files.

It never imports the tools (``..tools``) nor the binding it writes
(``bernstein_signals``); ``tests/test_layout.py`` holds that rule.
"""
