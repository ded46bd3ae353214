"""BLEU's resampler for the paired-test driver, and BLEU's paired tests.

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

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.bleu import BleuConfig, score_rows
from bleuviz.bleu.result import BleuArrays
from bleuviz.bleu.stats import SegmentStats
from bleuviz.progress import Progress
from bleuviz.significance.paired import (
    ar_p_values,
    bootstrap_samples,
    check_counts,
    check_segments,
    paired_tests,
)
from bleuviz.significance.resampling import (
    DEFAULT_SEED,
    BootstrapCI,
    PairedResult,
    bootstrap_p_value,
    estimate_ci,
)

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


def bootstrap_ci(
    stats: SegmentStats, config: BleuConfig, n_samples: int = 1000, seed: int | None = DEFAULT_SEED
) -> BootstrapCI:
    """Estimate the 95% CI of corpus BLEU (sacrebleu ``corpus_score(..., n_bootstrap=n)``)."""
    check_counts(n_samples, "n_samples", seed)
    check_segments([("stats", len(stats))])
    resampler, matrix = BleuResampler(config, stats.max_order), stats.to_matrix()
    samples = bootstrap_samples([matrix], resampler, n_samples, seed)[0]
    return estimate_ci(resampler.corpus_score(matrix), samples)


def paired_bootstrap(
    baseline: SegmentStats,
    system: SegmentStats,
    config: BleuConfig,
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
) -> tuple[float, BootstrapCI, BootstrapCI]:
    """Run the paired bootstrap test; return the p-value and both systems' CIs."""
    check_counts(n_samples, "n_samples", seed)
    resampler, matrices, real = _pair(baseline, system, config)
    scores = bootstrap_samples(matrices, resampler, n_samples, seed)
    p_value = bootstrap_p_value(scores[0], scores[1], abs(real[0] - real[1]))
    return p_value, estimate_ci(real[0], scores[0]), estimate_ci(real[1], scores[1])


def paired_approximate_randomization(
    baseline: SegmentStats,
    system: SegmentStats,
    config: BleuConfig,
    n_trials: int = 10000,
    seed: int | None = DEFAULT_SEED,
) -> float:
    """Run the paired approximate randomization test; return its p-value."""
    check_counts(n_trials, "n_trials", seed)
    resampler, matrices, real = _pair(baseline, system, config)
    return ar_p_values(matrices, real, resampler, n_trials, seed)[0]


def _pair(
    baseline: SegmentStats, system: SegmentStats, config: BleuConfig
) -> tuple[BleuResampler, list[FloatArray], list[float]]:
    """Check a pair; return its resampler, statistics matrices and corpus scores."""
    check_segments([("baseline", len(baseline)), ("system", len(system))])
    resampler = BleuResampler(config, baseline.max_order)
    matrices = [baseline.to_matrix(), system.to_matrix()]
    return resampler, matrices, [resampler.corpus_score(m) for m in matrices]


def compare_systems(
    baseline_name: str,
    baseline: SegmentStats,
    systems: Mapping[str, SegmentStats],
    config: BleuConfig,
    n_bootstrap: int = 1000,
    n_ar: int = 10000,
    seed: int | None = DEFAULT_SEED,
    progress: Progress | None = None,
) -> list[PairedResult]:
    """Compare every system with the baseline (baseline first), as ``PairedTest`` does.

    Args:
        baseline_name: name of the baseline row.
        baseline: the baseline's per-segment statistics.
        systems: name -> per-segment statistics, in output order.
        config: how statistics become a score.
        n_bootstrap: bootstrap samples for the CIs and the paired bootstrap p-value.
        n_ar: approximate randomization trials; 0 leaves ``p_value_ar`` None.
        seed: seed of both tests (each starts from a fresh generator).
        progress: told which test is running and how far it is.

    Returns:
        One PairedResult per system; the scores, means, CIs and p-values equal
        ``PairedTest(..., test_type='bs', n_samples=n_bootstrap)`` and
        ``PairedTest(..., test_type='ar', n_samples=n_ar)``.

    Raises:
        InputError: a system has no segments or not as many as the baseline.
        ConfigError: a count or the seed is out of range, or the statistics hold
            fewer n-gram orders than ``config`` needs.
    """
    check_counts(n_bootstrap, "n_bootstrap", seed, n_ar)
    named = [(baseline_name, baseline), *systems.items()]
    check_segments([(name, len(stats)) for name, stats in named])
    resampler = BleuResampler(config, baseline.max_order)
    matrices = [(name, stats.to_matrix()) for name, stats in named]
    return paired_tests(matrices, resampler, n_bootstrap, n_ar, seed, progress)


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
