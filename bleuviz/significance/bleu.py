"""Paired significance tests over sufficient statistics, as sacrebleu 2.x runs them.

Replicates sacrebleu/significance.py (``PairedTest``, ``_paired_bs_test``,
``_paired_ar_test``, ``_bootstrap_resample``, ``estimate_ci``, ``_compute_p_value``)
draw for draw, but a resample is one row of summed statistics (a count matrix
times the statistics matrix), and rows are scored together by ``score_rows``.

Random draws, exactly as sacrebleu makes them:

* paired bootstrap: ``np.random.default_rng(seed).choice(N, size=(n, N),
  replace=True)``. sacrebleu creates a fresh generator with the same seed for
  the baseline's CI and for every system, so all of them share one index matrix.
* approximate randomization: ``default_rng(seed).integers(2, size=(n, N),
  dtype=bool)``, again fresh per system. A true cell takes the baseline's segment
  into pseudo-system A and the system's into B; false, the reverse.

Draws are made in chunks of rows to bound memory; the stream is unchanged (see
``bleuviz.resampling.draw_chunks``). Quirks of sacrebleu that are kept on purpose:

* p = (c + 1) / (n + 1), where c counts statistics *strictly* above the observed
  one, so a system compared with itself gets p = 1 / (n + 1), not 1.
* The bootstrap sums float32 statistics, so under numpy 2 promotion rules its
  ``compute_bleu`` computes each precision in float32 (``_float32_scores``).

The metric-agnostic helpers (``estimate_ci``, ``compute_p_value``,
``bootstrap_p_value``, ``draw_chunks``, ``count_matrix``, ``paired_result``) live in
``bleuviz.significance.resampling``, shared with
``bleuviz.significance.sacrebleu_metrics``, which runs the same tests for chrF and TER.

Deviations: sums are exact (sacrebleu's float32 sums are exact only while a
column sum stays below 2**24); seed 0 is a seed like any other (``PairedTest``
turns 0 into "no seed" for every system but the baseline); ``None`` draws
entropy from the OS, like ``SACREBLEU_SEED=none``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bleuviz.bleu import BleuConfig, score_rows
from bleuviz.bleu.result import BleuArrays, FloatArray
from bleuviz.bleu.stats import SegmentStats
from bleuviz.errors import ConfigError, InputError
from bleuviz.significance.resampling import (
    DEFAULT_SEED,
    BootstrapCI,
    PairedResult,
    bootstrap_p_value,
    compute_p_value,
    count_matrix,
    draw_chunks,
    estimate_ci,
    paired_result,
)

# The result types and the default seed are part of this module's API (the Compare
# page and the command line import them from here), though
# bleuviz.significance.resampling defines them.
__all__ = [
    "DEFAULT_SEED",
    "BootstrapCI",
    "PairedResult",
    "bootstrap_ci",
    "compare_systems",
    "paired_approximate_randomization",
    "paired_bootstrap",
]

# numpy 2 (NEP 50) keeps float32 in ``100. * np.float32(c)``; numpy 1 promoted to float64.
_FLOAT32_PRECISIONS = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def bootstrap_ci(
    stats: SegmentStats, config: BleuConfig, n_samples: int = 1000, seed: int | None = DEFAULT_SEED
) -> BootstrapCI:
    """Estimate the 95% CI of corpus BLEU (sacrebleu ``corpus_score(..., n_bootstrap=n)``)."""
    _check_inputs([("stats", stats)], n_samples, "n_samples", seed)
    return estimate_ci(
        _corpus_score(stats, config), _bootstrap_scores([stats], config, n_samples, seed)[0]
    )


def paired_bootstrap(
    baseline: SegmentStats,
    system: SegmentStats,
    config: BleuConfig,
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
) -> tuple[float, BootstrapCI, BootstrapCI]:
    """Run the paired bootstrap test; return the p-value and both systems' CIs."""
    _check_inputs([("baseline", baseline), ("system", system)], n_samples, "n_samples", seed)
    real = [_corpus_score(baseline, config), _corpus_score(system, config)]
    scores = _bootstrap_scores([baseline, system], config, n_samples, seed)
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
    _check_inputs([("baseline", baseline), ("system", system)], n_trials, "n_trials", seed)
    return _ar_p_values(baseline, [system], config, n_trials, seed)[0]


def compare_systems(
    baseline_name: str,
    baseline: SegmentStats,
    systems: Mapping[str, SegmentStats],
    config: BleuConfig,
    n_bootstrap: int = 1000,
    n_ar: int = 10000,
    seed: int | None = DEFAULT_SEED,
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

    Returns:
        One PairedResult per system; the scores, means, CIs and p-values equal
        ``PairedTest(..., test_type='bs', n_samples=n_bootstrap)`` and
        ``PairedTest(..., test_type='ar', n_samples=n_ar)``.

    Raises:
        InputError: a system has no segments or not as many as the baseline.
        ConfigError: a count or the seed is out of range, or the statistics hold
            fewer n-gram orders than ``config`` needs.
    """
    _check_inputs([(baseline_name, baseline), *systems.items()], n_bootstrap, "n_bootstrap", seed)
    if n_ar < 0:
        raise ConfigError(f"n_ar: must be 0 (off) or positive, got {n_ar}")
    stats = [baseline, *systems.values()]
    real = [_corpus_score(s, config) for s in stats]
    boot = _bootstrap_scores(stats, config, n_bootstrap, seed)
    p_ar: list[float | None] = [None] * len(systems)
    if n_ar > 0 and systems:
        p_ar = list(_ar_p_values(baseline, stats[1:], config, n_ar, seed))
    rows = [paired_result(baseline_name, estimate_ci(real[0], boot[0]), None, None)]
    for j, name in enumerate(systems, start=1):
        p_bs = bootstrap_p_value(boot[0], boot[j], abs(real[0] - real[j]))
        rows.append(paired_result(name, estimate_ci(real[j], boot[j]), p_bs, p_ar[j - 1]))
    return rows


def _check_inputs(
    named: Sequence[tuple[str, SegmentStats]], count: int, count_name: str, seed: int | None
) -> None:
    """Refuse empty or mismatched statistics, a non-positive count or a negative seed."""
    if count < 1:
        raise ConfigError(f"{count_name}: must be positive, got {count}")
    if seed is not None and seed < 0:
        raise ConfigError(f"seed: must be a non-negative integer or None, got {seed}")
    (first, first_stats), *rest = named
    if len(first_stats) == 0:
        raise InputError(f"{first}: no segments to resample")
    for name, stats in rest:
        if len(stats) != len(first_stats):
            raise InputError(f"{name}: {len(stats)} segments but {first} has {len(first_stats)}")


def _corpus_score(stats: SegmentStats, config: BleuConfig) -> float:
    """Corpus score from the summed rows (nltk's context: the last segment)."""
    return float(score_rows(stats.total(), config, last=stats.select([len(stats) - 1])).score[0])


def _bootstrap_scores(
    systems: Sequence[SegmentStats], config: BleuConfig, n_samples: int, seed: int | None
) -> FloatArray:
    """Score ``n_samples`` resamples of every system from one shared index matrix: (S, n)."""
    n, width = len(systems[0]), _width(systems[0])
    matrix = np.hstack([_stats_matrix(s) for s in systems])
    rng = np.random.default_rng(seed)
    scores = np.empty((len(systems), n_samples))
    for start, stop in draw_chunks(n_samples, n, multiple=1):
        idx = rng.choice(n, size=(stop - start, n), replace=True)
        sums = count_matrix(idx) @ matrix
        for j, system in enumerate(systems):
            rows = _from_matrix(sums[:, j * width : (j + 1) * width], system.max_order)
            arrays = score_rows(rows, config, last=system.select(idx[:, -1]))
            scores[j, start:stop] = _resample_scores(arrays, config)
    return scores


def _ar_p_values(
    baseline: SegmentStats,
    systems: Sequence[SegmentStats],
    config: BleuConfig,
    n_trials: int,
    seed: int | None,
) -> list[float]:
    """AR p-value of every system against the baseline, all from one shared mask matrix."""
    base = _stats_matrix(baseline)
    gaps = _ar_gaps(base, [_stats_matrix(s) for s in systems], config, n_trials, seed)
    real = _corpus_score(baseline, config)
    observed = [abs(real - _corpus_score(s, config)) for s in systems]
    return [compute_p_value(gaps[j], observed[j]) for j in range(len(systems))]


def _ar_gaps(
    base: FloatArray,
    owns: Sequence[FloatArray],
    config: BleuConfig,
    n_trials: int,
    seed: int | None,
) -> FloatArray:
    """|score(A) - score(B)| of every trial's pseudo-systems, per system: (S, n_trials)."""
    n, width = base.shape
    k = (width - 3) // 3
    # A = mask @ baseline + ~mask @ system = system total + mask @ (baseline - system).
    diffs = np.hstack([base - own for own in owns])
    own_totals = [own.sum(axis=0) for own in owns]
    both = [base.sum(axis=0) + total for total in own_totals]
    lasts = [_from_matrix(np.vstack([base[-1], own[-1]]), k) for own in owns]
    rng = np.random.default_rng(seed)
    gaps = np.empty((len(owns), n_trials))
    for start, stop in draw_chunks(n_trials, n, multiple=32):
        mask = rng.integers(2, size=(stop - start, n), dtype=bool)
        shifts = mask.astype(np.float64) @ diffs
        pick = mask[:, -1].astype(np.int64)  # nltk context: A ends with the baseline's if True
        for j in range(len(owns)):
            sum_a = own_totals[j] + shifts[:, j * width : (j + 1) * width]
            a = score_rows(_from_matrix(sum_a, k), config, last=lasts[j].select(1 - pick))
            b = score_rows(_from_matrix(both[j] - sum_a, k), config, last=lasts[j].select(pick))
            gaps[j, start:stop] = np.abs(a.score - b.score)
    return gaps


def _width(stats: SegmentStats) -> int:
    """Columns of one system's statistics matrix: 3 lengths, then 3 blocks of K orders."""
    return 3 + 3 * stats.max_order


def _stats_matrix(stats: SegmentStats) -> FloatArray:
    """Lay statistics out as one float64 row per segment (integer sums stay exact)."""
    columns = (stats.hyp_len, stats.closest_ref_len, stats.shortest_ref_len)
    blocks = (stats.matches, stats.totals, stats.floor_totals)
    return np.column_stack([*columns, *blocks]).astype(np.float64)


def _from_matrix(sums: FloatArray, k: int) -> SegmentStats:
    """Turn rows of a statistics matrix (integral values) back into statistics."""
    ints = np.rint(np.atleast_2d(sums)).astype(np.int64)
    blocks = [ints[:, 3 + b * k : 3 + (b + 1) * k] for b in range(3)]
    return SegmentStats(ints[:, 0], ints[:, 1], ints[:, 2], *blocks)


def _resample_scores(arrays: BleuArrays, config: BleuConfig) -> FloatArray:
    """Scores of bootstrap samples: sacrebleu's float32 precisions for its flavour."""
    if not config.flavor_spec.float32_resampling or not _FLOAT32_PRECISIONS:
        return arrays.score
    return _float32_scores(arrays, config.weight_vector)


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
