"""The resampler of sacrebleu's chrF, chrF++ and TER, and their paired tests.

Replicates sacrebleu/significance.py (``PairedTest``, ``_paired_bs_test``,
``_paired_ar_test``, ``_bootstrap_resample``) over the rows of
``metric._extract_corpus_statistics(hyps, refs)``, with the draws, chunks and
formulas of ``bleuviz.significance.paired`` (read its docstring). Sums are exact and
vectorized (count or mask matrix @ statistics); every score still comes from
sacrebleu (through ``bleuviz.metrics.sacrebleu_adapter``): chrF and TER are not
reimplemented.

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
``bleuviz.significance.paired``, seed 0 is a seed like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike
from sacrebleu.metrics.base import Metric

from bleuviz.arrays import FloatArray
from bleuviz.errors import ConfigError, InputError
from bleuviz.metrics.sacrebleu_adapter import (
    statistics_width,
)
from bleuviz.metrics.sacrebleu_resampler import SacrebleuResampler
from bleuviz.progress import Progress
from bleuviz.significance.paired import check_counts, check_segments, paired_tests
from bleuviz.significance.resampling import DEFAULT_SEED, PairedResult


def compare_systems_metric(
    baseline_name: str,
    baseline: FloatArray,
    systems: Mapping[str, FloatArray],
    metric: Metric,
    n_bootstrap: int = 1000,
    n_ar: int = 10000,
    seed: int | None = DEFAULT_SEED,
    progress: Progress | None = None,
) -> list[PairedResult]:
    """Compare every system with the baseline (baseline first) on a sacrebleu metric.

    Args:
        baseline_name: name of the baseline row.
        baseline: (N, W) statistics, the rows of
            ``metric._extract_corpus_statistics(hyps, refs)`` as float64.
        systems: name -> (N, W) statistics, in output order.
        metric: a sacrebleu ``CHRF`` or ``TER``; it only scores statistics.
        n_bootstrap: bootstrap samples for the CIs and the paired bootstrap p-value.
        n_ar: approximate randomization trials; 0 leaves ``p_value_ar`` None.
        seed: seed of both tests (each starts from a fresh generator).
        progress: told which test is running and how far it is.

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
    check_counts(n_bootstrap, "n_bootstrap", seed, n_ar)
    named = [(baseline_name, _as_matrix(baseline_name, baseline))]
    named += [(name, _as_matrix(name, stats)) for name, stats in systems.items()]
    _check_shapes(named, metric)
    resampler = SacrebleuResampler(metric)
    return paired_tests(named, resampler, n_bootstrap, n_ar, seed, progress)


def _check_shapes(named: Sequence[tuple[str, FloatArray]], metric: Metric) -> None:
    """Refuse mismatched segment counts or widths, or a width the metric cannot score."""
    check_segments([(name, len(matrix)) for name, matrix in named])
    (first, base), *rest = named
    width = base.shape[1]
    for name, matrix in rest:
        if matrix.shape[1] != width:
            raise InputError(
                f"{name}: {matrix.shape[1]} statistics a segment but {first} has {width}"
            )
    expected = statistics_width(metric) or width
    if width != expected:
        raise ConfigError(
            f"metric: {type(metric).__name__} needs {expected} statistics a segment, got {width}"
        )


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
