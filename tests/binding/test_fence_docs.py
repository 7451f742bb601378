"""The reference page's fence section shows the binding's own constants (one home)."""

from __future__ import annotations

from pathlib import Path

from bernstein_signals import fence_rules

PAGE = Path(__file__).resolve().parents[2] / "generated" / "docs" / "vocabulary.md"


def _section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"## Fenced signals (extension, version {fence_rules.FENCE_VERSION})")
    return text[start : text.index("\n## ", start + 1)]


def test_the_section_lists_every_constant_with_its_value() -> None:
    section = _section()
    for name in fence_rules.__all__:
        value = getattr(fence_rules, name)
        if name == "FENCE_VERSION":
            continue
        shown = f"`{value!r}`" if isinstance(value, str) else f"`{value}`"
        if name in ("UNAUTHENTICATED_SIGNAL", "REPLAYED_SIGNAL", "KIND_NOT_ALLOWED"):
            shown = f"`{value}`"
        assert shown in section, name
    assert f"`{fence_rules.MAC_DOMAIN}\\n<run>\\n<seq>\\n<KIND>\\n<payload>`" in section
    assert "spec/fenced-signals.md" in section


def test_the_codes_are_listed_in_check_order() -> None:
    section = _section()
    order = [
        section.index(f"`{code}`")
        for code in (
            fence_rules.UNAUTHENTICATED_SIGNAL,
            fence_rules.REPLAYED_SIGNAL,
            fence_rules.KIND_NOT_ALLOWED,
        )
    ]
    assert order == sorted(order)
