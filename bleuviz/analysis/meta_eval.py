"""Segment-level meta-evaluation as mt-metrics-eval computes it: grouped Kendall and acc_eq.

Replicates ``mt_metrics_eval/stats.py`` and ``tau_optimization.py``
(google-research/mt-metrics-eval) on a (systems, segments) matrix of oriented
scores, NaN where a side has no score:

* ``grouped_kendall``: Kendall's tau-b (``stats.Correlation.Kendall``'s default
  variant, scipy's ``kendalltau``) with ``average_by`` "none" (every
  (system, segment) pair at once), "item" (one tau per segment, across the
  systems) or "sys" (one per system, across its segments). As
  ``stats.AverageCorrelation`` does: a group keeps the pairs where both sides
  are scored, groups of fewer than two are skipped, so are groups whose tau is
  undefined (NaN: a constant side), and the rest are averaged with equal
  weights (``macro``). Deviation: where no group has a defined tau,
  mt-metrics-eval returns 0; this returns None ("undefined").
* ``pairwise_accuracy_eq``: pairwise accuracy with tie calibration (Deutsch et
  al., 2023, "Ties Matter", acc_eq; ``stats.KendallWithTiesOpt`` with
  ``variant="acc23"`` and ``sample_rate=1``, grouped by item as WMT23/24's
  segment-level task does). In each segment, a pair of systems counts as right
  when the metric orders it as the humans do or both tie it; a metric
  difference of at most epsilon is a tie. Epsilon is 0 or one of the pairs'
  metric differences, the one with the best average accuracy over segments
  (the smallest such, as ``np.nanargmax`` picks the first).
* ``is_human_reference``: the names WMT score files give human translations
  scored as systems (mt-metrics-eval's ``human_sys_names`` are system outputs
  named like a reference: ``ref``, ``refA``, ``refB``; WMT20's ``Human-A.0``;
  bleuviz's names from files keep a language suffix: ``refB.de``).
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import FloatArray

#: The groupings of segment-level Kendall: mt-metrics-eval's ``average_by`` values.
GROUPINGS = ("none", "item", "sys")
#: Rows of a grouped computation handled at once (bounds the pairs in memory).
_ROWS_AT_ONCE = 4096

#: ``ref``, ``refA``, ``ref-B``, ``Human-A``, each with any dotted suffix (``refB.de``,
#: ``Human-A.0``: a file's language or WMT's submission number).
_HUMAN_NAME = re.compile(r"^(?:ref(?:[-_]?[a-z0-9])?|human(?:[-_][\w-]*)?)(?:\.[\w-]+)*$", re.I)


def is_human_reference(system: str) -> bool:
    """Whether ``system`` names a human translation (``ref``, ``refA``, ``refB``, ``Human-A.0``)."""
    return _HUMAN_NAME.match(system) is not None


@dataclass(frozen=True, slots=True)
class TieCalibrated:
    """Pairwise accuracy with tie calibration and the threshold that gave it.

    Attributes:
        accuracy: acc_eq, mt-metrics-eval's number.
        epsilon: the metric difference counted as a tie (the first best).
        tied: the share of scored pairs (every segment's) the metric ties at
            ``epsilon``; near 1, acc_eq mostly counts the pairs the humans tie.
    """

    accuracy: float
    epsilon: float
    tied: float = 0.0


def grouped_kendall(metric: FloatArray, human: FloatArray, by: str) -> float | None:
    """Kendall's tau-b of (systems, segments) matrices, grouped as ``by`` (see ``GROUPINGS``)."""
    if by == "none":
        return _scipy_tau(metric.ravel(), human.ravel())
    if by == "sys":
        taus = [_scipy_tau(m, h) for m, h in zip(metric, human, strict=True)]
        defined = [t for t in taus if t is not None]
        return float(np.mean(defined)) if defined else None
    if by == "item":
        rows = np.concatenate(
            [_row_taus(m, h) for m, h in _row_chunks(metric.T, human.T)] or [np.zeros(0)]
        )
        rows = rows[np.isfinite(rows)]
        return float(rows.mean()) if len(rows) else None
    raise ValueError(f"by: {by!r} is not one of {', '.join(GROUPINGS)}")


def pairwise_accuracy_eq(metric: FloatArray, human: FloatArray) -> TieCalibrated | None:
    """acc_eq of (systems, segments) matrices, grouped by segment; None without a pair."""
    parts = [_pair_outcomes(m, h) for m, h in _row_chunks(metric.T, human.T)]
    diff = np.concatenate([p[0] for p in parts] or [np.zeros(0)])
    base = np.concatenate([p[1] for p in parts] or [np.zeros(0)])
    tie = np.concatenate([p[2] for p in parts] or [np.zeros(0)])
    weight = np.concatenate([p[3] for p in parts] or [np.zeros(0)])
    if not len(diff):
        return None
    weight = weight / np.count_nonzero(np.concatenate([p[4] for p in parts]))
    order = np.argsort(diff, kind="stable")
    diff = diff[order]
    gain = np.cumsum(((tie - base) * weight)[order])
    # An epsilon turns every pair whose difference is at most it into a tie: the
    # accuracy at a candidate is read after the last pair of its difference.
    last = np.flatnonzero(np.append(diff[1:] != diff[:-1], True))
    start = float(np.sum(base * weight))
    # tau_optimization starts from epsilon 0 (no pair made a tie) even where no
    # difference is 0; a difference of 0 changes nothing (those pairs are ties).
    candidates = np.concatenate([[0.0], diff[last]])
    values = np.concatenate([[start], start + gain[last]])
    # The first best (np.nanargmax's choice), equal maxima compared to 12 decimals:
    # the running sums' rounding must not pick a larger epsilon.
    best = int(np.argmax(np.round(values, 12)))
    tied = np.count_nonzero(diff <= candidates[best]) / len(diff)
    return TieCalibrated(float(values[best]), float(candidates[best]), float(tied))


def _scipy_tau(m: FloatArray, h: FloatArray) -> float | None:
    """scipy's tau-b over the pairs both scored; None for fewer than two or a constant side."""
    keep = np.isfinite(m) & np.isfinite(h)
    m, h = m[keep], h[keep]
    if len(m) < 2 or np.ptp(m) == 0 or np.ptp(h) == 0:
        return None
    from scipy import stats  # most of a second to import: only where a tau is computed

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = float(stats.kendalltau(m, h, variant="b").statistic)
    return value if math.isfinite(value) else None


def _row_chunks(metric: FloatArray, human: FloatArray) -> list[tuple[FloatArray, FloatArray]]:
    """The rows of both matrices, ``_ROWS_AT_ONCE`` at a time."""
    return [
        (metric[start : start + _ROWS_AT_ONCE], human[start : start + _ROWS_AT_ONCE])
        for start in range(0, len(metric), _ROWS_AT_ONCE)
    ]


def _pair_signs(
    m: FloatArray, h: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, np.ndarray]:
    """Every pair of columns in each row: metric difference, both signs, both scored."""
    i, j = np.triu_indices(m.shape[1], k=1)
    dm, dh = m[:, i] - m[:, j], h[:, i] - h[:, j]
    valid = np.isfinite(dm) & np.isfinite(dh)
    return dm, np.sign(np.where(valid, dm, 0)), np.sign(np.where(valid, dh, 0)), valid


def _row_taus(m: FloatArray, h: FloatArray) -> FloatArray:
    """Each row's tau-b over its scored columns (scipy's definition), NaN where undefined."""
    _, sm, sh, valid = _pair_signs(m, h)
    total = valid.sum(axis=1)
    concordance = (sm * sh).sum(axis=1)  # concordant minus discordant pairs
    untied_m = total - (valid & (sm == 0)).sum(axis=1)
    untied_h = total - (valid & (sh == 0)).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        taus: FloatArray = concordance / np.sqrt(untied_m * untied_h)
    taus[(untied_m == 0) | (untied_h == 0)] = np.nan
    return taus


def _pair_outcomes(
    m: FloatArray, h: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, np.ndarray]:
    """Per scored pair: |metric difference|, right as scored, right as a metric tie, and
    the pair's weight in its row's accuracy (1 / the row's pairs); then which rows have pairs.

    Right as scored: concordant, or tied by both (tau_optimization's ``con + ties_both``).
    """
    dm, sm, sh, valid = _pair_signs(m, h)
    pairs = valid.sum(axis=1)
    weight = np.divide(1.0, pairs, out=np.zeros(len(pairs)), where=pairs > 0)
    right = ((sm * sh) > 0) | ((sm == 0) & (sh == 0))
    return (
        np.abs(dm[valid]),
        right[valid].astype(np.float64),
        (sh == 0)[valid].astype(np.float64),
        np.broadcast_to(weight[:, None], valid.shape)[valid],
        pairs > 0,
    )
