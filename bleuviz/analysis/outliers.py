"""Segments where one system stands apart: empty output, extreme length, or far below the rest.

Three checks per system and segment, each a plain rule a user can tune:

* empty output: the hypothesis has no token while a reference has some;
* length ratio (hypothesis over the flavour's reference length) below ``low`` or
  above ``high`` (a truncated or run-on output, or one misaligned with the segment);
* sentence BLEU at least ``gap`` points below the median of the *other* systems
  on that segment (an output that is probably about something else).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from bleuviz.arrays import FloatArray, IntArray

COLUMNS = ["system", "seg", "check", "bleu", "median_others", "ratio"]


def find_outliers(
    bleu: Mapping[str, FloatArray],
    hyp_len: Mapping[str, IntArray],
    ref_len: Mapping[str, IntArray],
    gap: float = 30.0,
    low: float = 0.5,
    high: float = 2.0,
) -> pd.DataFrame:
    """One row per flagged (system, segment, check), largest gap first within each check."""
    names = list(bleu)
    scores = np.vstack([np.asarray(bleu[n], dtype=np.float64) for n in names])
    rows = []
    for k, name in enumerate(names):
        others = np.delete(scores, k, axis=0)
        median = np.median(others, axis=0) if len(others) else np.full(scores.shape[1], np.nan)
        hyp = np.asarray(hyp_len[name], dtype=np.float64)
        ref = np.asarray(ref_len[name], dtype=np.float64)
        ratio = np.divide(hyp, ref, out=np.full(len(hyp), np.nan), where=ref > 0)
        checks = {
            "empty output": (hyp == 0) & (ref > 0),
            f"length ratio < {low:g}": (hyp > 0) & (ratio < low),
            f"length ratio > {high:g}": ratio > high,
            f"BLEU ≥ {gap:g} below the others' median": median - scores[k] >= gap,
        }
        for check, mask in checks.items():
            for seg in np.flatnonzero(mask):
                rows.append((name, int(seg) + 1, check, scores[k, seg], median[seg], ratio[seg]))
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["gap"] = frame["median_others"] - frame["bleu"]
    return frame.sort_values(["check", "gap", "seg"], ascending=[True, False, True], kind="stable")
