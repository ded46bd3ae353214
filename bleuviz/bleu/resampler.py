"""BLEU's resampler: how rows of summed BLEU statistics become scores, for paired tests.

Resamples and pseudo-systems are rows of summed ``SegmentStats``
(``SegmentStats.to_matrix``), scored by ``score_rows`` with the flavour's own
maths; nltk's smoothing reads the last segment of each resample (the last
sampled index) or pseudo-system (the baseline's or the system's last segment,
as the mask's last cell says). See ``bleuviz.significance.paired`` for the draws.

Kept from sacrebleu on purpose: its bootstrap sums float32 statistics, so under
numpy 2 promotion rules its ``compute_bleu`` computes each precision in float32
(``_float32_scores``); flavours whose ``float32_resampling`` is set replicate it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.result import BleuArrays
from bleuviz.bleu.score import score_rows
from bleuviz.bleu.stats import SegmentStats

# numpy 2 (NEP 50) keeps float32 in ``100. * np.float32(c)``; numpy 1 promoted to float64.
_FLOAT32_PRECISIONS = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


@dataclass(frozen=True, slots=True)
class BleuResampler:
    """Scores rows of summed BLEU statistics with ``config``."""

    config: BleuConfig
    max_order: int

    def total(self, matrix: FloatArray) -> FloatArray:
        """Sum a system's rows (integers: exact in any order)."""
        total: FloatArray = matrix.sum(axis=0)
        return total

    def corpus_score(self, matrix: FloatArray) -> float:
        """Corpus BLEU from the summed rows (nltk's context: the last segment)."""
        return float(self._score(self.total(matrix)[None, :], matrix[-1:]).score[0])

    def bootstrap_scores(self, sums: FloatArray, lasts: FloatArray) -> FloatArray:
        """Scores of bootstrap resamples, with sacrebleu's float32 precisions where due."""
        arrays = self._score(sums, lasts)
        if not self.config.flavor_spec.float32_resampling or not _FLOAT32_PRECISIONS:
            return arrays.score
        return _float32_scores(arrays, self.config.weight_vector)

    def trial_scores(self, sums: FloatArray, lasts: FloatArray) -> FloatArray:
        """Scores of approximate-randomization pseudo-systems."""
        return self._score(sums, lasts).score

    def _score(self, sums: FloatArray, lasts: FloatArray) -> BleuArrays:
        rows = SegmentStats.from_matrix(sums, self.max_order)
        last = SegmentStats.from_matrix(lasts, self.max_order)
        return score_rows(rows, self.config, last=last)


def _float32_scores(arrays: BleuArrays, weights: FloatArray) -> FloatArray:
    """Recompute positive scores from precisions rounded to float32.

    sacrebleu's ``_bootstrap_resample`` and ``_paired_bs_test`` score samples of
    ``np.array(stats, dtype='float32')``, so ``100. * correct / total`` is a
    float32 (a difference of up to ~2e-6 BLEU). A score is positive only if every
    order it averages has a positive precision (``my_log(0)`` is -9999999999), so
    those orders are exactly the positive precisions, each with its weight
    rescaled as ``sacrebleu_rows`` does (uniform weights: 1 / effective order).
    """
    used = arrays.precisions > 0
    weight = np.where(used, weights[None, :], 0.0)
    weight *= weights.sum() / np.maximum(weight.sum(axis=1, keepdims=True), 1e-300)
    p32 = arrays.precisions.astype(np.float32).astype(np.float64)
    log_mean = (weight * np.log(np.where(used, p32, 1.0))).sum(axis=1)
    return np.where(arrays.score > 0, arrays.bp * np.exp(log_mean), arrays.score)
