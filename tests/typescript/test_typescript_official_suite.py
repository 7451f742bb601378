"""The official JSON-Schema-Test-Suite (draft 2020-12) through the TypeScript renderer: every
group the compiler accepts for the typescript target gives each case its expected verdict,
with the very errors (pointer, rule, message, detail) the Python renderer gives.

Each group's schema is rendered as an ES module importing the generated package's
runtime, and run in one Node process (tests/typescript/harness.mjs).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bernstein_signals_toolkit.generator.emitters import _python_validators, _typescript_validators
from bernstein_signals_toolkit.toolkit_errors import SourceError
from typescript.node_support import BINDING, ROOT, Harness
from typescript.test_typescript_differential import _tagged

SUITE = ROOT / ".cache" / "JSON-Schema-Test-Suite" / "draft2020-12"
FILES = sorted(SUITE.glob("*.json"))


@pytest.fixture(scope="module")
def harness() -> Iterator[Harness]:
    running = Harness()
    yield running
    running.close()


def _python_check(schema: object) -> Any:
    text = _python_validators.schema_module(schema, "suite.schema.json")
    namespace: dict[str, Any] = {
        "__name__": "bernstein_signals._suite",
        "__package__": "bernstein_signals",
    }
    exec(compile(text, "<suite>", "exec"), namespace)  # the compiler's own output
    return namespace["check"]


@pytest.mark.timeout(300)
def test_every_accepted_group_agrees_with_the_suite_and_python(
    harness: Harness, tmp_path: Path
) -> None:
    if not FILES:
        message = f"{SUITE} is empty: run scripts/ensure-test-data .venv/bin/python"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    accepted, failures = 0, []
    groups = [
        (f"{path.stem}: {group['description']}", group)
        for path in FILES
        for group in json.loads(path.read_text(encoding="utf-8"))
    ]
    for index, (name, group) in enumerate(groups):
        try:
            text = _typescript_validators.schema_module(
                group["schema"], "suite.schema.json", BINDING.as_uri()
            )
        except SourceError:
            continue
        accepted += 1
        module = tmp_path / f"group{index}.mjs"
        module.write_text(text, encoding="utf-8")
        cases = group["tests"]
        found = harness.ask(
            op="suite", module=module.as_uri(), cases=[_tagged(case["data"]) for case in cases]
        )["results"]
        python = _python_check(group["schema"])
        for case, errors in zip(cases, found, strict=True):
            expected = [[e.pointer, e.rule, e.message, e.detail] for e in python(case["data"])]
            if (not errors) != case["valid"] or errors != expected:
                failures.append(f"{name} / {case['description']}: {errors} vs {expected}")
    print(f"{accepted} of {len(groups)} groups accepted; {len(failures)} failing cases")
    assert accepted > len(groups) // 2
    assert failures == []
