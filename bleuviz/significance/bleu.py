"""BLEU's paired tests and bootstrap CI, run by the one driver with BLEU's resampler.

The resampler (how summed rows become scores) is :mod:`bleuviz.bleu.resampler`'s;
see ``bleuviz.significance.paired`` for the draws.
"""

from __future__ import annotations

from collections.abc import Mapping

from bleuviz.arrays import FloatArray
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.resampler import BleuResampler
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
