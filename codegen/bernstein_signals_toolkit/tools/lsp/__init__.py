"""A language server for signal lines in recorded output and in wrapper scripts."""
