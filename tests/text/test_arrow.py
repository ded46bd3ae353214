"""The buffer-built pyarrow columns against pyarrow's own conversions (the oracle).

``pa.array``, ``pa.scalar``, ``fill_null`` and ``to_numpy`` are what
bleuviz.text.arrow avoids (they import pandas); here they check that the
columns, scalars and values are the same, including sliced columns (a non-zero
offset), empty ones and filled nulls.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.text.arrow import (
    bool_column,
    bool_values,
    int_column,
    int_values,
    string_column,
    string_scalar,
)


@settings(max_examples=100, deadline=None)
@given(lines=st.lists(st.text()))
def test_string_column_equals_pa_array(lines: list[str]) -> None:
    column = string_column([line.encode() for line in lines])
    column.validate(full=True)
    assert column.equals(pa.array(lines, pa.large_string()))


@settings(max_examples=100, deadline=None)
@given(text=st.text(), kind=st.sampled_from([pa.string(), pa.large_string()]))
def test_string_scalar_equals_pa_scalar(text: str, kind: pa.DataType) -> None:
    scalar = string_scalar(text, kind)
    assert scalar.type == kind
    assert scalar.equals(pa.scalar(text, kind))


@settings(max_examples=100, deadline=None)
@given(
    values=st.lists(st.integers(-(2**63), 2**63 - 1)),
    cut=st.integers(0, 5),
    kind=st.sampled_from([pa.int64(), pa.int32(), pa.uint8()]),
)
def test_int_columns_round_trip(values: list[int], cut: int, kind: pa.DataType) -> None:
    array = np.array(values, dtype=np.int64)
    column = int_column(array)
    assert column.equals(pa.array(array))
    narrow = pa.array(array).cast(kind, safe=False)[cut:]
    assert int_values(narrow).tolist() == narrow.to_numpy().astype(np.int64).tolist()


@settings(max_examples=100, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.integers(-(2**31), 2**31 - 1))),
    cut=st.integers(0, 9),
    fill=st.integers(-(2**31), 2**31 - 1),
    kind=st.sampled_from([pa.int64(), pa.int32()]),
)
def test_int_values_fill_nulls_as_fill_null(
    values: list[int | None], cut: int, fill: int, kind: pa.DataType
) -> None:
    column = pa.array(values, kind)[cut:]
    expected = column.fill_null(fill).to_numpy().astype(np.int64)
    assert int_values(column, fill=fill).tolist() == expected.tolist()


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.booleans()), cut=st.integers(0, 9))
def test_bool_columns_round_trip(values: list[bool], cut: int) -> None:
    array = np.array(values, dtype=bool)
    column = bool_column(array)
    assert column.equals(pa.array(array))
    sliced = pa.array(array)[cut:]
    assert bool_values(sliced).tolist() == sliced.to_numpy(zero_copy_only=False).tolist()


@pytest.mark.parametrize(
    "column", [pa.array([1, None]), pa.array(["a"]), pa.array([True, None])], ids=str
)
def test_nulls_and_other_types_are_refused(column: pa.Array) -> None:
    with pytest.raises(ValueError, match="null-free"):
        if pa.types.is_boolean(column.type):
            bool_values(column)
        else:
            int_values(column)
