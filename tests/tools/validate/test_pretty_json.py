"""The validator's indented JSON renderer against ``json.dumps(indent=2)``, its oracle."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bernstein_signals_toolkit.tools.validate.pretty_json import dumps_indented

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_KEYS = st.text() | st.integers() | st.floats() | st.booleans() | st.none()
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(_KEYS, inner, max_size=4)
    ),
    max_leaves=25,
)


def _oracle(value: Any, indent: int) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + " " * indent)


@given(_VALUES, st.integers(min_value=0, max_value=12))
@example({"k": "\u2028\ud800\x00", 7: [], 2.5: {}, True: -0.0, None: [float("nan")]}, 4)
def test_the_same_text_as_json_dumps(value: Any, indent: int) -> None:
    assert dumps_indented(value, indent) == _oracle(value, indent)


class _Text(str):
    pass


class _Number(int):
    def __repr__(self) -> str:
        return "not json"


def test_subclasses_are_rendered_as_json_renders_them() -> None:
    value = {_Text("k"): [_Text("v"), _Number(3)]}
    assert dumps_indented(value, 2) == _oracle(value, 2)


@pytest.mark.parametrize("value", [{(1, 2): 1}, [object()], {"a": {1, 2}}])
def test_what_json_refuses_is_refused_alike(value: Any) -> None:
    with pytest.raises(TypeError) as expected:
        _oracle(value, 0)
    with pytest.raises(TypeError) as ours:
        dumps_indented(value)
    assert str(ours.value) == str(expected.value)
