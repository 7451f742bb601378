"""README.md: its code fences balance, and every shell block in it runs (issue 16, item 15).

A shell block (``sh``, ``bash``, ``shell``) runs in a temporary copy of the
project's tracked files, with the toolkit's ``bin`` folder first on ``PATH``
as the Quick start says, under ``set -e``: it must exit 0. The line right
before a block may say how it is tested, as an HTML comment:

- ``<!-- readme-test: setup: SHELL -->``: run SHELL first (variables, stand-in
  commands, stdin);
- ``<!-- readme-test: skip (REASON) -->``: not run here, for the reason given;
- ``<!-- NAME: tests/FILE.py runs this block ... -->``: another test runs it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from project_support import project_copy

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SHELL_LANGUAGES = {"sh": "sh", "bash": "bash", "shell": "bash"}

_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_SETUP = re.compile(r"^<!-- readme-test: setup: (?P<code>.+) -->$")
_SKIP = re.compile(r"^<!-- readme-test: skip \((?P<reason>[^)]*\S[^)]*)\) -->$")
_ELSEWHERE = re.compile(r"^<!-- [\w-]+: (?P<test>tests/\S+\.py) runs this block\b.* -->$")
_MARKER = re.compile(r"^<!-- (readme-test|[\w-]+: tests/)")


@dataclass(frozen=True)
class Block:
    line: int
    """1-based line of the opening fence."""
    language: str
    code: str
    marker: str
    """The line before the fence."""


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced block, checking that fences pair up (CommonMark's rules, plus one:
    a fence with a language inside an open block is a close that was forgotten)."""
    lines = text.splitlines()
    blocks: list[Block] = []
    opening: tuple[int, str, str] | None = None
    body: list[str] = []
    for number, line in enumerate(lines, start=1):
        match = _FENCE.match(line)
        if opening is None:
            if match:
                opening, body = (number, match["fence"], match["info"].strip()), []
            continue
        start, fence, info = opening
        closes = (
            match is not None
            and match["fence"][0] == fence[0]
            and len(match["fence"]) >= len(fence)
            and not match["info"].strip()
        )
        if closes:
            marker = lines[start - 2] if start >= 2 else ""
            blocks.append(Block(start, info.split()[0] if info else "", "\n".join(body), marker))
            opening = None
        else:
            assert not (match and match["info"].strip() and match["fence"][0] == fence[0]), (
                f"README.md:{number}: a fence with a language inside the block opened at"
                f" line {start}: the block is not closed"
            )
            body.append(line)
    assert opening is None, f"README.md:{opening[0]}: this fence is never closed"
    return blocks


def test_fences_balance() -> None:
    blocks = fenced_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) > 10


@pytest.mark.parametrize(
    "broken",
    [
        "# t\n```yaml\na: 1\n\n## Next\n",
        "```sh\nls\n```python\nx\n```\n",
        "````\n```\n",
        "~~~\n```\n",
    ],
)
def test_an_unclosed_fence_is_found(broken: str) -> None:
    with pytest.raises(AssertionError, match=r"README\.md:"):
        fenced_blocks(broken)


def test_markers_sit_right_before_a_block_and_give_reasons() -> None:
    text = README.read_text(encoding="utf-8")
    marked = {block.line - 1 for block in fenced_blocks(text) if block.marker}
    for number, line in enumerate(text.splitlines(), start=1):
        if _MARKER.match(line):
            assert number in marked, f"README.md:{number}: a marker not right before a fence"
            assert _SETUP.match(line) or _SKIP.match(line) or _ELSEWHERE.match(line), (
                f"README.md:{number}: not a readme-test marker (setup, skip (reason), or a test)"
            )


def _shell_blocks() -> list[Block]:
    blocks = fenced_blocks(README.read_text(encoding="utf-8"))
    return [block for block in blocks if block.language in SHELL_LANGUAGES]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("block", _shell_blocks(), ids=lambda block: f"line{block.line}")
def test_every_shell_block_runs(block: Block, tmp_path: Path) -> None:
    if _ELSEWHERE.match(block.marker):
        test = _ELSEWHERE.match(block.marker)
        assert test is not None
        assert (ROOT / test["test"]).is_file(), f"README.md:{block.line}: {test['test']}"
        return
    skipped = _SKIP.match(block.marker)
    if skipped:
        # The reason is the marker's; the test still checks the block is shell code.
        checked = subprocess.run(
            [SHELL_LANGUAGES[block.language], "-n", "-c", block.code],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert checked.returncode == 0, f"README.md:{block.line}: {checked.stderr}"
        return
    setup = _SETUP.match(block.marker)
    project = project_copy(tmp_path / "project")
    script = f"set -e\n{setup['code'] if setup else ''}\n{block.code}\n"
    result = subprocess.run(
        [SHELL_LANGUAGES[block.language], "-c", script],
        cwd=project,
        env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert result.returncode == 0, (
        f"README.md:{block.line} exits {result.returncode}\n{result.stdout}\n{result.stderr}"
    )
