"""The tools: validator, language server, CLI commands, diff.

They may import the generator and the generated binding.
"""
