"""``bleuviz.text.split.split_lines`` against Python's ``str.split()``, line by line."""

from __future__ import annotations

from itertools import accumulate

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.text.split import split_lines
from bleuviz.text.whitespace import python_whitespace

#: Words, every character Python counts as whitespace, and multi-byte text around them.
PIECES = st.sampled_from(["a", "bc", "Über", "日本", "x.y", *python_whitespace()])
LINES = st.lists(st.lists(PIECES, max_size=8).map("".join), max_size=12)


@settings(max_examples=200, deadline=None)
@given(lines=LINES, large=st.booleans(), skip=st.integers(0, 3))
def test_tokens_and_offsets_are_str_split_of_every_line(
    lines: list[str], large: bool, skip: int
) -> None:
    """Empty and all-space lines, both string types, and a column sliced from a longer one."""
    column = pa.array(["pad"] * skip + lines, pa.large_string() if large else pa.string())
    got = split_lines(column.slice(skip))
    words = [line.split() for line in lines]
    assert got.tokens.to_pylist() == [w for line in words for w in line]
    assert got.offsets.tolist() == [0, *accumulate(map(len, words))]
