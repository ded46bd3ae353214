"""The array types every stage passes around (numpy, typed for mypy)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
#: Which rows to take: a slice, positions (any order, repeats allowed) or a boolean mask.
Index = slice | NDArray[np.int64] | NDArray[np.bool_] | Sequence[int]
