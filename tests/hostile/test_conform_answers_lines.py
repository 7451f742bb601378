"""``conform --answers`` reads a file of reply lines by "\\n" alone (a review finding).

``str.splitlines`` also splits at U+2028, U+0085, form feeds and more; a reply
whose answer holds one raw (``parse_reply`` accepts it) was cut in two and
refused as "not a reply line".
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bernstein_signals_toolkit.tools.commands._conform_answers import answers_file

SEPARATORS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character ``str.splitlines`` splits at ("\\r\\n" is two of them)."""
ANSWER = st.text(alphabet=st.sampled_from(SEPARATORS) | st.characters(codec="utf-8"), max_size=12)
REPLY = st.tuples(st.none() | st.text(min_size=1, max_size=6), ANSWER)


def test_the_separators_are_str_splitlines_own() -> None:
    every = "".join(chr(code) for code in range(0x110000))
    assert {c for c in every if len(f"a{c}b".splitlines()) == 2} == set(SEPARATORS)


@settings(max_examples=200, deadline=None)
@given(st.lists(REPLY, min_size=1, max_size=5), st.sampled_from(["\n", "\r\n"]))
def test_reply_lines_with_any_separator_in_their_answers_are_read_whole(
    replies: list[tuple[str | None, str]], ending: str
) -> None:
    lines = [
        json.dumps({"in_reply_to": reply_to, "answer": answer}, ensure_ascii=False)
        for reply_to, answer in replies
    ]
    raw = [c for line in lines for c in line if c in SEPARATORS]
    assert all(c in "\x85\u2028\u2029" for c in raw)  # JSON escapes the control characters
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "answers.jsonl"
        path.write_bytes(ending.join(lines).encode())
        pairs, in_order = answers_file(str(path))
    assert pairs == [(reply_to, answer) for reply_to, answer in replies if reply_to is not None]
    assert in_order == [answer for reply_to, answer in replies if reply_to is None]


def test_a_raw_line_separator_in_an_answer_is_read() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "answers.jsonl"
        path.write_text('{"in_reply_to":"q-1","answer":"a\u2028b\x85c"}\n', encoding="utf-8")
        assert answers_file(str(path)) == ([("q-1", "a\u2028b\x85c")], [])
