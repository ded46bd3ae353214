"""BLEU as sacrebleu 2.x computes it (``BLEU.compute_bleu`` in sacrebleu/metrics/bleu.py).

Vectorized over rows of statistics; every quirk of the scalar original is kept:
no score at all without a unigram-or-higher match (sacrebleu issue #141), the
loop over orders stops at the first order with no hypothesis n-grams, ``add-k``
only smooths orders 2 and up, and ``my_log(0)`` is -9999999999.
One deliberate difference: sacrebleu's ``BLEUScore.counts``/``totals`` include
the k that ``add-k`` adds; bleuviz reports the raw counts (its precisions do
include the smoothing, exactly as sacrebleu's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu.flavors.base import Flavor, ScoringSettings
from bleuviz.bleu.result import BleuArrays

if TYPE_CHECKING:
    from bleuviz.bleu.stats import SegmentStats

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
_MY_LOG_ZERO = -9999999999.0  # sacrebleu.utils.my_log


def sacrebleu_rows(
    matches: IntArray,
    totals: IntArray,
    hyp_len: IntArray,
    ref_len: IntArray,
    weights: FloatArray,
    smooth: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> BleuArrays:
    """Score M rows; ``weights`` are the per-order weights (uniform in sacrebleu itself)."""
    k = len(weights)
    value = SMOOTH_DEFAULTS[smooth] if smooth_value is None else smooth_value
    bp = _brevity_penalty(hyp_len, ref_len)
    precisions, eff_order = _precisions(matches[:, :k], totals[:, :k], smooth, value)
    if effective_order:
        used = np.arange(k)[None, :] < eff_order[:, None]
    else:
        used = np.ones_like(precisions, dtype=bool)
        eff_order = np.full(len(precisions), k, dtype=np.int64)
    with np.errstate(divide="ignore"):
        logs = np.where(
            precisions > 0, np.log(np.where(precisions > 0, precisions, 1.0)), _MY_LOG_ZERO
        )
    # sacrebleu averages the logs with equal weights: sum(logs) / eff_order.
    uniform = bool(np.allclose(weights, 1.0 / k, rtol=0, atol=0))
    if uniform:
        mean_log = np.where(used, logs, 0.0).sum(axis=1) / np.maximum(eff_order, 1)
    else:
        # Custom weights (a bleuviz extension), over the orders in use.
        # sacrebleu's logs are of percentages, so the weights are normalized to sum 1
        # (otherwise the score scales by a power of 100).
        used_weight = np.where(used, weights[None, :], 0.0)
        used_total = used_weight.sum(axis=1)
        mean_log = (used_weight * logs).sum(axis=1) / np.where(used_total > 0, used_total, 1.0)
        # All the weight on orders effective order left out: no evidence, score 0.
        mean_log = np.where(used_total > 0, mean_log, -np.inf)
    score = bp * np.exp(mean_log)
    # "Early stop if there are no matches (#141)"
    no_match = np.asarray(matches[:, :k] == 0).all(axis=1)
    score = np.where(no_match, 0.0, score)
    precisions = np.where(np.reshape(no_match, (-1, 1)), 0.0, precisions)
    ratio = np.divide(hyp_len, ref_len, out=np.zeros(len(hyp_len)), where=ref_len > 0)
    return BleuArrays(score, precisions, bp, ratio)


def _brevity_penalty(hyp_len: IntArray, ref_len: IntArray) -> FloatArray:
    """Return exp(1 - r/c) where c < r, 1 otherwise, and 0 for an empty hypothesis."""
    short = hyp_len < ref_len
    safe = np.where(hyp_len > 0, hyp_len, 1)
    bp = np.where(short, np.exp(1 - ref_len / safe), 1.0)
    return np.where(short & (hyp_len == 0), 0.0, bp)


def _precisions(
    matches: IntArray, totals: IntArray, smooth: str, value: float | None
) -> tuple[FloatArray, IntArray]:
    """Return smoothed precisions (0-100) and each row's effective order."""
    m, k = matches.shape
    correct = matches.astype(np.float64)
    total = totals.astype(np.float64)
    precisions = np.zeros((m, k))
    active = np.ones(m, dtype=bool)
    eff_order = np.zeros(m, dtype=np.int64)
    mteval = np.ones(m)
    for n in range(k):
        if smooth == "add-k" and n > 0 and value is not None:
            correct[active, n] += value
            total[active, n] += value
        active &= total[:, n] != 0
        eff_order[active] = n + 1
        safe_total = np.where(active, total[:, n], 1.0)
        zero = active & (correct[:, n] == 0)
        if smooth == "exp":
            mteval[zero] *= 2
            precisions[zero, n] = 100.0 / (mteval[zero] * safe_total[zero])
        elif smooth == "floor" and value is not None:
            precisions[zero, n] = 100.0 * value / safe_total[zero]
        hit = active & ~zero
        precisions[hit, n] = 100.0 * correct[hit, n] / safe_total[hit]
    return precisions, eff_order


def _score(
    rows: SegmentStats, last: SegmentStats, weights: FloatArray, config: ScoringSettings
) -> BleuArrays:
    """Score rows as ``BLEU.compute_bleu`` (``last`` is not used)."""
    return sacrebleu_rows(
        rows.matches,
        rows.totals,
        rows.hyp_len,
        rows.closest_ref_len,
        weights,
        config.smoothing,
        config.smooth_value,
        config.effective_order,
    )


FLAVOR = Flavor(
    name="sacrebleu",
    replicates="sacrebleu 2.x, BLEU.corpus_score / sentence_bleu",
    implementation=None,
    smoothing=tuple(SMOOTH_DEFAULTS),
    default_smoothing="exp",
    smoothing_values={k: float(v) for k, v in SMOOTH_DEFAULTS.items() if v is not None},
    brevity_reference="closest",
    score=_score,
    effective_order=True,
    sentence_effective_order=True,
    float32_resampling=True,
)
