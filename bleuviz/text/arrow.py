"""pyarrow columns to and from numpy through their buffers, so that pandas is not imported.

pyarrow imports pandas, when it is installed, the first time it converts Python
objects (``pa.array``, ``pa.scalar``, so a compute call given a Python number)
or converts a column to numpy (``to_numpy``, ``np.asarray``): 0.2 s of a
command's start-up. Building a column from buffers and reading its buffers
back do not; these helpers do that for what the tokenizers need (UTF-8 lines
and string scalars, integer and boolean columns, nulls only where they are filled).
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


def string_scalar(text: str, kind: pa.DataType) -> pa.Scalar:
    """Return ``text`` as a string scalar of type ``kind`` (``pa.scalar(text, kind)``)."""
    scalar: pa.Scalar = string_column([text.encode()]).cast(kind)[0]
    return scalar


def int_column(values: IntArray) -> pa.Array:
    """Return an ``int64`` column of ``values``."""
    data = pa.py_buffer(np.ascontiguousarray(values, dtype=np.int64))
    return pa.Array.from_buffers(pa.int64(), len(values), [None, data])


def bool_column(values: NDArray[np.bool_]) -> pa.Array:
    """Return a boolean column of ``values``."""
    bits = pa.py_buffer(np.packbits(values, bitorder="little"))
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, bits])


def int_values(column: pa.Array, fill: int | None = None) -> IntArray:
    """Return an integer column as ``int64`` numpy values (``to_numpy``).

    A null becomes ``fill`` (``fill_null(fill).to_numpy()``); without ``fill``,
    the column must hold no nulls.

    Raises:
        ValueError: the column holds nulls and no ``fill`` is given, or is not of
            an integer type.
    """
    kind = column.type
    if not pa.types.is_integer(kind):
        raise ValueError(f"int_values: a null-free integer column is needed, got {kind}")
    if not len(column):
        return np.zeros(0, dtype=np.int64)
    dtype = np.dtype(("i" if pa.types.is_signed_integer(kind) else "u") + str(kind.bit_width // 8))
    data = np.frombuffer(column.buffers()[1], dtype, column.offset + len(column))
    values = data[column.offset :].astype(np.int64)
    if column.null_count:
        if fill is None:
            raise ValueError(
                f"int_values: a null-free integer column is needed, got nulls in {kind}"
            )
        values[~_bits(column.buffers()[0], column.offset, len(column))] = fill
    return values


def bool_values(column: pa.Array) -> NDArray[np.bool_]:
    """Return a boolean column without nulls as numpy (``to_numpy``).

    Raises:
        ValueError: the column holds nulls or is not boolean.
    """
    if column.null_count or not pa.types.is_boolean(column.type):
        raise ValueError(f"bool_values: a null-free boolean column is needed, got {column.type}")
    return _bits(column.buffers()[1], column.offset, len(column))


def _bits(buffer: pa.Buffer, offset: int, length: int) -> NDArray[np.bool_]:
    """Return ``length`` bits of an Arrow bitmap (least significant bit first) from ``offset``."""
    if not length:
        return np.zeros(0, dtype=bool)
    end = offset + length
    bits = np.frombuffer(buffer, np.uint8, (end + 7) // 8)
    return np.unpackbits(bits, count=end, bitorder="little")[offset:].astype(bool)
