"""Tests of the n-gram id helpers: sorted codes and binary-search lookup.

The oracle is pandas: ``pd.Index(table).get_indexer``, which the lookup replaced
(it keeps a hash table alive per index), and ``np.unique`` for sorted codes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from bleuviz.bleu.ngrams import positions_in, unique_codes

keys = st.lists(st.integers(-3, 40), max_size=60).map(lambda v: np.asarray(v, dtype=np.int64))


@given(values=keys, table=keys)
def test_positions_in_equals_get_indexer(values: np.ndarray, table: np.ndarray) -> None:
    table = np.unique(table)
    got = positions_in(values, table)
    np.testing.assert_array_equal(got, pd.Index(table).get_indexer(values))
    assert got.dtype == np.int64


@given(values=keys)
def test_unique_codes_are_positions_in_the_sorted_uniques(values: np.ndarray) -> None:
    codes, uniques = unique_codes(values)
    np.testing.assert_array_equal(uniques, np.unique(values))
    np.testing.assert_array_equal(uniques[codes], values)
    assert codes.dtype == uniques.dtype == np.int64
    assert codes.shape == values.shape
