"""The one home of masking a run's key (issue 23 item 4): found in any case and behind JSON
escapes, masked in a stream however it is cut into writes."""

from __future__ import annotations

import io

from hypothesis import example, given
from hypothesis import strategies as st

from bernstein_signals_toolkit.tools.key_mask import KEY_MASK, KeyMask, masked

KEY_TEXT = "a11ce0a11ce0a11c:c9b3b002332c88704de090a77890bdb22895d89397344af27f946b48609141d0"
SECRET = KEY_TEXT.partition(":")[2]
MASK = KeyMask(KEY_TEXT)


def _escaped(text: str, positions: set[int]) -> str:
    return "".join(f"\\u{ord(c):04X}" if i in positions else c for i, c in enumerate(text))


def test_the_secret_is_found_in_any_case_and_behind_escapes() -> None:
    assert MASK.holds(f"x {KEY_TEXT} y")
    assert MASK.holds(SECRET.upper())
    assert MASK.holds(SECRET[:10] + SECRET[10:].upper())
    assert MASK.holds(_escaped(SECRET, {0, 5, 63}))
    assert MASK.holds(_escaped(SECRET, set(range(64))).encode())
    assert not MASK.holds(SECRET[:-1])
    assert not MASK.holds(KEY_TEXT.partition(":")[0])  # the run nonce is no secret
    assert repr(MASK) == "KeyMask(...)"
    assert KeyMask.of(None) is None


def test_mask_shows_every_copy_as_the_mask() -> None:
    data = f"{KEY_TEXT} and {SECRET.upper()}.".encode()
    run = KEY_TEXT.partition(":")[0]
    assert MASK.mask(data) == f"{run}:".encode() + KEY_MASK + b" and " + KEY_MASK + b"."


_TEXT = st.text(alphabet="0123456789abcdefABCDEF :\n\\u", max_size=40)


@st.composite
def _streams(draw: st.DrawFn) -> tuple[bytes, list[int]]:
    """Text with copies of the secret (in random case) among hex-looking noise, and cuts."""
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        parts.append(draw(_TEXT))
        upper = draw(st.sets(st.integers(0, 63)))
        parts.append("".join(c.upper() if i in upper else c for i, c in enumerate(SECRET)))
    parts.append(draw(_TEXT))
    data = "".join(parts).encode()
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=12)))
    return data, cuts


@given(_streams())
@example((SECRET.encode() * 2, [1, 63, 64, 65, 127]))
@example((SECRET[:63].encode() + SECRET.encode(), [63]))
def test_the_writer_masks_as_the_whole_text_would_be_masked(
    stream: tuple[bytes, list[int]],
) -> None:
    data, cuts = stream
    target = io.BytesIO()
    with masked(target, MASK) as out:
        for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True):
            out.write(data[start:end])
            out.flush()  # each write reaches the filter as it is
    assert target.getvalue() == MASK.mask(data)
    assert SECRET.encode() not in target.getvalue().lower()


def test_without_a_key_the_writer_is_the_target() -> None:
    target = io.BytesIO()
    with masked(target, None) as out:
        assert out is target
