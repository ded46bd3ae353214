"""pyarrow columns to and from numpy through their buffers, so that pandas is not imported.

pyarrow imports pandas, when it is installed, the first time it converts Python
objects (``pa.array``, ``pa.scalar``, so a compute call given a Python number)
or converts a column to numpy (``to_numpy``, ``np.asarray``): 0.2 s of a
command's start-up. Building a column from buffers and reading its buffers
back do not; these helpers do that for what the tokenizers need (UTF-8 lines,
integer and boolean columns without nulls).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from bleuviz.arrays import IntArray


def string_column(encoded: Sequence[bytes]) -> pa.Array:
    """Return a ``large_string`` column of lines already encoded to UTF-8."""
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=offsets[1:])
    data = pa.py_buffer(b"".join(encoded))
    return pa.LargeStringArray.from_buffers(len(encoded), pa.py_buffer(offsets), data)


def int_column(values: IntArray) -> pa.Array:
    """Return an ``int64`` column of ``values``."""
    data = pa.py_buffer(np.ascontiguousarray(values, dtype=np.int64))
    return pa.Array.from_buffers(pa.int64(), len(values), [None, data])


def bool_column(values: NDArray[np.bool_]) -> pa.Array:
    """Return a boolean column of ``values``."""
    bits = pa.py_buffer(np.packbits(values, bitorder="little"))
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, bits])


def int_values(column: pa.Array) -> IntArray:
    """Return an integer column without nulls as ``int64`` numpy values (``to_numpy``).

    Raises:
        ValueError: the column holds nulls or is not of an integer type.
    """
    kind = column.type
    if column.null_count or not pa.types.is_integer(kind):
        raise ValueError(f"int_values: a null-free integer column is needed, got {kind}")
    if not len(column):
        return np.zeros(0, dtype=np.int64)
    dtype = np.dtype(("i" if pa.types.is_signed_integer(kind) else "u") + str(kind.bit_width // 8))
    data = np.frombuffer(column.buffers()[1], dtype, column.offset + len(column))
    return data[column.offset :].astype(np.int64)


def bool_values(column: pa.Array) -> NDArray[np.bool_]:
    """Return a boolean column without nulls as numpy (``to_numpy``).

    Raises:
        ValueError: the column holds nulls or is not boolean.
    """
    if column.null_count or not pa.types.is_boolean(column.type):
        raise ValueError(f"bool_values: a null-free boolean column is needed, got {column.type}")
    if not len(column):
        return np.zeros(0, dtype=bool)
    end = column.offset + len(column)
    bits = np.frombuffer(column.buffers()[1], np.uint8, (end + 7) // 8)
    return np.unpackbits(bits, count=end, bitorder="little")[column.offset :].astype(bool)
