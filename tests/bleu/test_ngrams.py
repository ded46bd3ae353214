"""Tests of the n-gram id helpers: sorted codes, lookup and line room.

The oracles are numpy's own: ``np.unique(..., return_inverse=True)`` for the
packed-sort ``unique_inverse``, and a plain loop over a dict for ``lookup``.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from bleuviz.bleu.ngrams import UNSEEN, lookup, room, unique_inverse

keys = st.lists(st.integers(-3, 40), max_size=60).map(lambda v: np.asarray(v, dtype=np.int64))
wide = st.lists(st.integers(0, 2**62), max_size=40).map(lambda v: np.asarray(v, dtype=np.int64))


@given(values=keys, table=keys)
def test_lookup_finds_positions_or_unseen(values: np.ndarray, table: np.ndarray) -> None:
    table = np.unique(table[table >= 0])
    where = {int(v): i for i, v in enumerate(table)}
    got = lookup(values, table)
    np.testing.assert_array_equal(
        got, [where.get(int(v), UNSEEN) if v >= 0 else UNSEEN for v in values]
    )
    assert got.dtype == np.int64


@given(values=st.one_of(keys.map(np.abs), wide))
def test_unique_inverse_equals_numpy(values: np.ndarray) -> None:
    """Small keys take the packed sort, keys near 2**62 numpy's argsort: same answer."""
    uniques, inverse = unique_inverse(values)
    expected, expected_inverse = np.unique(values, return_inverse=True)
    np.testing.assert_array_equal(uniques, expected)
    np.testing.assert_array_equal(inverse, expected_inverse.reshape(-1))
    assert uniques.dtype == inverse.dtype == np.int64


@given(lengths=st.lists(st.integers(0, 5), max_size=8))
def test_room_counts_tokens_left_in_the_line(lengths: list[int]) -> None:
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    expected = [n - i for n in lengths for i in range(n)]
    np.testing.assert_array_equal(room(offsets), expected)
