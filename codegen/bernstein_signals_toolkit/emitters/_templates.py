"""Hand-written templates that emitters copy or fill into generated files."""

from __future__ import annotations

from pathlib import Path

__all__ = ["TEMPLATES", "template_names", "template_text"]

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def template_text(relative: str) -> str:
    return (TEMPLATES / relative).read_text(encoding="utf-8")


def template_names(folder: str, suffix: str) -> list[str]:
    """Template files in ``folder`` ending in ``suffix``, sorted, as paths under TEMPLATES."""
    root = TEMPLATES / folder
    if not root.is_dir():
        return []
    return sorted(f"{folder}/{path.name}" for path in root.iterdir() if path.name.endswith(suffix))
