"""The hostile-input driver of ``vendor``, for tests/test_packaging.py and the CLI's hostile suite.

``drive_vendor()`` runs Hypothesis over odd folder names and odd things in the way.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

__all__ = ["drive_vendor"]

_ODD_NAMES = st.sampled_from(
    [b"lib", b"l\xffib", b"a\nb", b" lead", b"-dash", b"x" * 200, b"deep/er/still", b"."]
)
_ODD_PLACES = st.sampled_from(["none", "dir is a file", "package is a file", "fifo", "link", "dir"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=_ODD_NAMES, place=_ODD_PLACES, check=st.booleans())
def drive_vendor(name: bytes, place: str, check: bool) -> None:
    """Odd folder names and odd things in the way: exit 0, 1 or 2, never a traceback,
    a refusal one line, and nothing outside DIR/bernstein_signals written."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        outside = root / "outside.txt"
        outside.write_bytes(b"victim\n")
        folder = root / os.fsdecode(name)
        package = folder / "bernstein_signals"
        if place == "dir is a file":
            folder.parent.mkdir(parents=True, exist_ok=True)
            if folder != root:
                folder.write_bytes(b"a file\n")
        elif place != "none":
            package.parent.mkdir(parents=True, exist_ok=True)
            if place == "package is a file":
                package.write_bytes(b"a file\n")
            elif place == "fifo":
                package.mkdir()
                os.mkfifo(package / "kinds.py")
            elif place == "link":
                package.symlink_to(root / "outside.txt")
        args = ["vendor", *(["--check"] if check else []), "--", os.fsdecode(name)]
        result = subprocess.run(
            [sys.executable, "-m", "bernstein_signals_toolkit.cli", *args],
            cwd=root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
            timeout=120,
        )
        err = result.stderr.decode("utf-8", "replace")
        assert "Traceback" not in err, err
        assert result.returncode in (0, 1, 2), err
        if result.returncode == 2:
            assert len(err.splitlines()) == 1, err
            assert err.startswith("bernstein-signals"), err
        assert outside.read_bytes() == b"victim\n"
