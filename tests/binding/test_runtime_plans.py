"""Plan handoff: every refusal of resolve_plan_path, and read_plan's bounds."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bernstein_signals import (
    PlanPathError,
    StreamSignal,
    parse_signal,
    plan_draft,
    plan_ready,
    read_plan,
    resolve_plan_path,
)


def _ready(path: str) -> StreamSignal:
    signal = parse_signal(plan_ready(path))
    assert signal is not None
    return signal


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / ".sdd" / "plans").mkdir(parents=True)
    (tmp_path / ".sdd" / "plans" / "fix.md").write_text("# Fix\n- step\n", encoding="utf-8")
    return tmp_path


def test_a_plan_under_sdd_resolves_and_reads(workdir: Path) -> None:
    resolved = resolve_plan_path(workdir, ".sdd/plans/fix.md")
    assert resolved == (workdir / ".sdd" / "plans" / "fix.md").resolve()
    assert read_plan(workdir, _ready(".sdd/plans/fix.md")) == "# Fix\n- step\n"
    # No symlink is followed, not even one that stays inside .sdd.
    (workdir / ".sdd" / "latest.md").symlink_to("plans/fix.md")
    with pytest.raises(PlanPathError, match=re.escape("symlink at '.sdd/latest.md'")):
        resolve_plan_path(workdir, ".sdd/latest.md")
    with pytest.raises(PlanPathError, match=re.escape("symlink at '.sdd/latest.md'")):
        read_plan(workdir, _ready(".sdd/latest.md"))


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        (42, "not a str but int"),
        ("", "empty path"),
        (".sdd/plan\0.md", "NUL character"),
        (".sdd/plan\n.md", "control character"),
        (".sdd\\plans\\fix.md", "backslash"),
        ("/etc/passwd", "absolute path"),
        ("/work/.sdd/fix.md", "absolute path"),
        (".sdd/../secret.md", "'..' segment"),
        (".sdd/plans/../../x.md", "'..' segment"),
        (".sdd/./fix.md", "'.' or empty segment"),
        (".sdd//fix.md", "'.' or empty segment"),
        (".sdd/plans/", "'.' or empty segment"),
        ("plans/fix.md", "not under .sdd/"),
        (".sdd", "not under .sdd/"),
        (".sddx/fix.md", "not under .sdd/"),
    ],
)
def test_lexical_refusals_name_their_reason(workdir: Path, path: object, reason: str) -> None:
    with pytest.raises(PlanPathError) as caught:
        resolve_plan_path(workdir, path)
    assert caught.value.reason == reason
    assert reason in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_symlink_out_of_sdd_is_refused(
    workdir: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.md").write_text("secret")
    (workdir / ".sdd" / "plans" / "escape.md").symlink_to(outside / "secret.md")
    (workdir / ".sdd" / "up").symlink_to("..")
    for path in (".sdd/plans/escape.md", ".sdd/up/anything.md", ".sdd/up"):
        with pytest.raises(PlanPathError) as caught:
            resolve_plan_path(workdir, path)
        assert caught.value.reason.startswith("symlink at"), path
    with pytest.raises(PlanPathError, match=re.escape("symlink at '.sdd/plans/escape.md'")):
        read_plan(workdir, _ready(".sdd/plans/escape.md"))
    with pytest.raises(PlanPathError, match=re.escape("symlink at '.sdd/up'")):
        read_plan(workdir, _ready(".sdd/up/anything.md"))


def test_a_symlink_loop_is_a_plan_path_error(workdir: Path) -> None:
    (workdir / ".sdd" / "loop").symlink_to("loop")
    (workdir / ".sdd" / "a").symlink_to("b")
    (workdir / ".sdd" / "b").symlink_to("a")
    for path in (".sdd/loop", ".sdd/loop/x.md", ".sdd/a", ".sdd/a/x.md"):
        with pytest.raises(PlanPathError, match="symlink at"):
            resolve_plan_path(workdir, path)
        with pytest.raises(PlanPathError, match="symlink at"):
            read_plan(workdir, _ready(path))


def test_sdd_itself_as_a_symlink_out_of_workdir_is_refused(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("elsewhere")
    (outside / "fix.md").write_text("x")
    (tmp_path / ".sdd").symlink_to(outside)
    with pytest.raises(PlanPathError, match=re.escape("symlink at '.sdd'")):
        resolve_plan_path(tmp_path, ".sdd/fix.md")
    with pytest.raises(PlanPathError, match=re.escape("symlink at '.sdd'")):
        read_plan(tmp_path, _ready(".sdd/fix.md"))


def test_read_plan_refusals(workdir: Path) -> None:
    draft = parse_signal(plan_draft("# Plan"))
    assert draft is not None
    with pytest.raises(ValueError, match="needs a PLAN_READY signal, not PLAN_DRAFT"):
        read_plan(workdir, draft)
    with pytest.raises(ValueError, match="larger than 4 bytes"):
        read_plan(workdir, _ready(".sdd/plans/fix.md"), max_bytes=4)
    (workdir / ".sdd" / "plans" / "latin1.md").write_bytes(b"caf\xe9")
    with pytest.raises(ValueError, match="not UTF-8"):
        read_plan(workdir, _ready(".sdd/plans/latin1.md"))
    (workdir / ".sdd" / "plans" / "dir.md").mkdir()
    with pytest.raises(ValueError, match="not a regular file"):
        read_plan(workdir, _ready(".sdd/plans/dir.md"))
    with pytest.raises(FileNotFoundError):
        read_plan(workdir, _ready(".sdd/plans/missing.md"))
    fifo = workdir / ".sdd" / "plans" / "fifo.md"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        read_plan(workdir, _ready(".sdd/plans/fifo.md"))
    schemaless = StreamSignal(_ready(".sdd/x.md").kind, {"path": None}, "BERNSTEIN:PLAN_READY")
    with pytest.raises(PlanPathError, match="not a str but NoneType"):
        read_plan(workdir, schemaless)
