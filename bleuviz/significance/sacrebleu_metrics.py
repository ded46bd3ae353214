"""Paired significance tests for sacrebleu's chrF, chrF++ and TER, as ``PairedTest`` runs them.

Replicates sacrebleu/significance.py (``PairedTest``, ``_paired_bs_test``,
``_paired_ar_test``, ``_bootstrap_resample``) over the rows of
``metric._extract_corpus_statistics(hyps, refs)``, with the draws, chunks and
formulas of ``bleuviz.significance.bleu`` (read its docstring). Sums are exact and
vectorized (count or mask matrix @ statistics); every score still comes from
sacrebleu's ``_compute_score_from_stats``: chrF and TER are not reimplemented.

Types that sacrebleu's numbers depend on, kept on purpose:

* Bootstrap: sacrebleu scores ``np.array(stats, dtype='float32')[idx].sum(0)``, so
  chrF's precisions and TER's ratio are float32 arithmetic; here each exact sum is
  cast to float32 and scored the same way. The scores form one array, as there:
  float32 unless a resample scored a Python ``0.0`` (chrF without any match, TER
  without reference words), which makes it float64; the mean, and the comparison
  with the (Python float) observed difference, follow that dtype.
* AR and corpus scores: sacrebleu scores int64 (chrF) or float64 (TER) sums in
  double precision; here they go over as Python ints or floats (``_as_python``).

Deviations, for TER with three or more references only (its average reference
length k / n_refs is then not a float32; with one or two it is an integer or a
half): the bootstrap sums do not round in float32 (~1e-5 in a mean or CI), and in
AR a pseudo-system's reference length equals the real one bit for bit (``_total``),
so a trial that ties the observed difference, frequent for TER, is a tie as in
exact arithmetic, where sacrebleu's float64 sums count some ties by rounding. Also
exact: counts past 2**24, where sacrebleu's float32 sums round. As in
``bleuviz.significance.bleu``, seed 0 is a seed like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sacrebleu.metrics.base import Metric
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from bleuviz.bleu.result import FloatArray
from bleuviz.errors import ConfigError, InputError
from bleuviz.significance.resampling import (
    DEFAULT_SEED,
    PairedResult,
    SampleArray,
    bootstrap_p_value,
    compute_p_value,
    count_matrix,
    draw_chunks,
    estimate_ci,
    paired_result,
)


def compare_systems_metric(
    baseline_name: str,
    baseline: FloatArray,
    systems: Mapping[str, FloatArray],
    metric: Metric,
    n_bootstrap: int = 1000,
    n_ar: int = 10000,
    seed: int | None = DEFAULT_SEED,
) -> list[PairedResult]:
    """Compare every system with the baseline (baseline first) on a sacrebleu metric.

    Args:
        baseline_name: name of the baseline row.
        baseline: (N, W) statistics, the rows of
            ``metric._extract_corpus_statistics(hyps, refs)`` as float64.
        systems: name -> (N, W) statistics, in output order.
        metric: a sacrebleu ``CHRF`` or ``TER``; only ``_compute_score_from_stats`` is called.
        n_bootstrap: bootstrap samples for the CIs and the paired bootstrap p-value.
        n_ar: approximate randomization trials; 0 leaves ``p_value_ar`` None.
        seed: seed of both tests (each starts from a fresh generator).

    Returns:
        One PairedResult per system; the scores, means, CIs and p-values equal
        ``PairedTest(..., test_type='bs', n_samples=n_bootstrap)`` and
        ``PairedTest(..., test_type='ar', n_samples=n_ar)`` with the same metric.

    Raises:
        InputError: statistics are not a finite 2-D array, have no segments, or
            differ from the baseline's in shape.
        ConfigError: a count or the seed is out of range, or the width of the
            statistics does not fit a chrF or TER metric.
    """
    named = [(baseline_name, baseline), *systems.items()]
    matrices = _check_inputs(named, metric, n_bootstrap, n_ar, seed)
    real = [_corpus_score(matrix, metric) for matrix in matrices]
    boot = _bootstrap_scores(matrices, metric, n_bootstrap, seed)
    p_ar: list[float | None] = [None] * len(systems)
    if n_ar > 0 and systems:
        p_ar = list(_ar_p_values(matrices, real, metric, n_ar, seed))
    rows = [paired_result(baseline_name, estimate_ci(real[0], boot[0]), None, None)]
    for j, name in enumerate(systems, start=1):
        p_bs = bootstrap_p_value(boot[0], boot[j], abs(real[0] - real[j]))
        rows.append(paired_result(name, estimate_ci(real[j], boot[j]), p_bs, p_ar[j - 1]))
    return rows


def _check_inputs(
    named: Sequence[tuple[str, ArrayLike]],
    metric: Metric,
    n_bootstrap: int,
    n_ar: int,
    seed: int | None,
) -> list[FloatArray]:
    """Refuse bad counts, seed or statistics; return the statistics as float64 matrices."""
    if n_bootstrap < 1:
        raise ConfigError(f"n_bootstrap: must be positive, got {n_bootstrap}")
    if n_ar < 0:
        raise ConfigError(f"n_ar: must be 0 (off) or positive, got {n_ar}")
    if seed is not None and seed < 0:
        raise ConfigError(f"seed: must be a non-negative integer or None, got {seed}")
    matrices = [_as_matrix(name, stats) for name, stats in named]
    first, (n, width) = named[0][0], matrices[0].shape
    if n == 0:
        raise InputError(f"{first}: no segments to resample")
    for (name, _), matrix in zip(named[1:], matrices[1:], strict=True):
        if matrix.shape[0] != n:
            raise InputError(f"{name}: {matrix.shape[0]} segments but {first} has {n}")
        if matrix.shape[1] != width:
            raise InputError(
                f"{name}: {matrix.shape[1]} statistics a segment but {first} has {width}"
            )
    expected = (
        3 * metric.order if isinstance(metric, CHRF) else 2 if isinstance(metric, TER) else width
    )
    if width != expected:
        raise ConfigError(
            f"metric: {type(metric).__name__} needs {expected} statistics a segment, got {width}"
        )
    return matrices


def _as_matrix(name: str, stats: ArrayLike) -> FloatArray:
    """Return one system's statistics as a finite float64 (segments x statistics) matrix."""
    matrix = np.asarray(stats, dtype=np.float64)
    if matrix.ndim != 2:
        raise InputError(
            f"{name}: statistics must be 2-D (segments x statistics), got {matrix.ndim}-D"
        )
    if not np.isfinite(matrix).all():
        raise InputError(f"{name}: statistics must be finite numbers")
    return matrix


def _corpus_score(matrix: FloatArray, metric: Metric) -> float:
    """Score the corpus as ``_aggregate_and_compute`` does on sacrebleu's list rows."""
    return float(metric._compute_score_from_stats(_as_python(_total(matrix)[None, :])[0]).score)


def _total(matrix: FloatArray) -> FloatArray:
    """Sum the rows one after another, in the order of sacrebleu's ``sum_of_lists``.

    The order matters only where sums round (TER, 3+ references). AR trials start
    from these totals too, so the reference length that every pseudo-system shares
    with the real systems is the same float in the trials and the observed scores.
    """
    total: FloatArray = np.cumsum(matrix, axis=0)[-1]
    return total


def _bootstrap_scores(
    matrices: Sequence[FloatArray], metric: Metric, n_samples: int, seed: int | None
) -> list[SampleArray]:
    """Score ``n_samples`` resamples of every system from one shared index matrix."""
    n, width = matrices[0].shape
    stacked = np.hstack(matrices)
    rng = np.random.default_rng(seed)
    scores: list[list[Any]] = [[] for _ in matrices]
    for start, stop in draw_chunks(n_samples, n, multiple=1):
        idx = rng.choice(n, size=(stop - start, n), replace=True)
        sums = (count_matrix(idx) @ stacked).astype(np.float32)  # exact, then sacrebleu's dtype
        for j, system in enumerate(scores):
            system.extend(_scores(metric, sums[:, j * width : (j + 1) * width]))
    # One array per system over all samples, as in sacrebleu: its dtype follows the values.
    return [np.array(system) for system in scores]


def _ar_p_values(
    matrices: Sequence[FloatArray],
    real: Sequence[float],
    metric: Metric,
    n_trials: int,
    seed: int | None,
) -> list[float]:
    """AR p-value of every system against the baseline, all from one shared mask matrix."""
    (base, *owns), (n, width) = matrices, matrices[0].shape
    # A = mask @ baseline + ~mask @ system = system total + mask @ (baseline - system).
    diffs = np.hstack([base - own for own in owns])
    own_totals = [_total(own) for own in owns]
    both = [_total(base) + total for total in own_totals]
    rng = np.random.default_rng(seed)
    scores_a: list[list[Any]] = [[] for _ in owns]
    scores_b: list[list[Any]] = [[] for _ in owns]
    for start, stop in draw_chunks(n_trials, n, multiple=32):
        mask = rng.integers(2, size=(stop - start, n), dtype=bool)
        shifts = mask.astype(np.float64) @ diffs
        for j in range(len(owns)):
            sum_a = own_totals[j] + shifts[:, j * width : (j + 1) * width]
            scores_a[j].extend(_scores(metric, _as_python(sum_a)))
            scores_b[j].extend(_scores(metric, _as_python(both[j] - sum_a)))
    gaps = [np.abs(np.array(a) - np.array(b)) for a, b in zip(scores_a, scores_b, strict=True)]
    return [compute_p_value(gap, abs(real[0] - r)) for gap, r in zip(gaps, real[1:], strict=True)]


def _scores(metric: Metric, rows: Any) -> list[Any]:
    """Score each row of summed statistics, keeping the type sacrebleu's score has."""
    return [metric._compute_score_from_stats(row).score for row in rows]


def _as_python(sums: FloatArray) -> list[list[Any]]:
    """Rows of exact sums as Python numbers: ints where integral (chrF), else floats (TER).

    sacrebleu's AR scores int64 (chrF) or float64 (TER) rows, and its corpus score
    Python numbers; all of them divide in correctly rounded double precision, so
    the scores are bit-identical, and Python numbers score about 2.5 times faster.
    """
    ints = np.rint(sums)
    rows: list[list[Any]] = (ints.astype(np.int64) if np.array_equal(ints, sums) else sums).tolist()
    return rows
