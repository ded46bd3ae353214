"""Where two metrics disagree about A versus B, segment by segment, and how strongly.

"BLEU says A is better, COMET says B": for each segment, each metric's gain of
B over A (oriented so that positive means B is better); a segment is a
disagreement when the gains have opposite signs. Strength compares unlike
scales by rank: each gain's magnitude becomes its percentile among that
metric's nonzero magnitudes, and a disagreement is as strong as its weaker
side (both metrics must be confident), so the top rows are segments where
both metrics see a large difference in opposite directions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bleuviz.arrays import FloatArray
from bleuviz.errors import InputError


def disagreements(gain_x: FloatArray, gain_y: FloatArray) -> pd.DataFrame:
    """Return the segments whose gains have opposite signs, strongest first.

    Args:
        gain_x: (N,) gain of B over A by the first metric (positive: B better).
        gain_y: (N,) the same by the second metric; NaN where a segment has no score.

    Returns:
        Columns ``seg`` (from 1), ``gain_x``, ``gain_y``, ``pct_x``, ``pct_y``
        (percentiles of the magnitudes, 0-100) and ``strength`` (their minimum).
    """
    x, y = np.asarray(gain_x, dtype=np.float64), np.asarray(gain_y, dtype=np.float64)
    if x.shape != y.shape:
        raise InputError(f"gain_y: {len(y)} segments but gain_x has {len(x)}")
    pct_x, pct_y = magnitude_percentiles(x), magnitude_percentiles(y)
    opposite = np.sign(x) * np.sign(y) < 0  # False where either is 0 or NaN
    frame = pd.DataFrame(
        {
            "seg": np.arange(1, len(x) + 1),
            "gain_x": x,
            "gain_y": y,
            "pct_x": pct_x,
            "pct_y": pct_y,
            "strength": np.minimum(pct_x, pct_y),
        }
    )[opposite]
    return frame.sort_values(["strength", "seg"], ascending=[False, True], kind="stable")


def magnitude_percentiles(gain: FloatArray) -> FloatArray:
    """Percentile (0-100] of each |gain| among the finite nonzero ones; 0 elsewhere.

    Ties share the highest rank they cover (``rank(method="max")``), so equal
    magnitudes get equal percentiles.
    """
    magnitude = pd.Series(np.abs(gain))
    usable = magnitude[(magnitude > 0) & np.isfinite(magnitude)]
    out = np.zeros(len(gain))
    if len(usable):
        out[usable.index] = usable.rank(method="max").to_numpy() / len(usable) * 100
    return out
