"""Every pair of systems from one set of draws: the all-pairs tests at the cost of one run.

sacrebleu's ``PairedTest`` starts every system from a fresh generator with the
same seed, so every baseline of an all-pairs run draws the same bootstrap index
matrix and the same randomization masks (``bleuviz.significance.paired``). Here
they are drawn once for all systems:

* paired bootstrap: every system's resampled scores are independent of the
  baseline, so one ``bootstrap_samples`` over all systems gives each pair's
  p-value (``bootstrap_p_value``) and each system's CI;
* approximate randomization: pseudo-system A of a pair (a, b) sums to
  ``total(b) + mask @ a - mask @ b``, so one product of the masks with every
  system's rows gives every pair's trials.

The numbers equal the per-baseline runs exactly when sums are exact in any
order: integer statistics (BLEU and chrF counts, TER's edits and a single
reference's length). ``exact_sums`` says so; callers fall back otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.metrics.spec import Resampler
from bleuviz.progress import Progress
from bleuviz.significance.all_pairs import PairTest
from bleuviz.significance.paired import bootstrap_samples
from bleuviz.significance.resampling import (
    SampleArray,
    bootstrap_p_value,
    compute_p_value,
    draw_chunks,
)

#: Integers are exact in float64 below this (2**53); sums stay far below it.
_EXACT = float(2**52)


def exact_sums(matrices: Sequence[FloatArray]) -> bool:
    """Whether every statistic is an integer small enough for order-free float64 sums."""
    return all(bool(np.all(m == np.rint(m))) and float(np.abs(m).sum()) < _EXACT for m in matrices)


def shared_pairs(
    named: Sequence[tuple[str, FloatArray]],
    resampler: Resampler,
    n_bootstrap: int,
    n_ar: int,
    seed: int | None,
    progress: Progress | None = None,
) -> tuple[dict[str, float], list[PairTest]]:
    """Each system's score and every pair (a before b), as ``all_pairs`` over paired runs.

    Inputs must be checked (``check_counts``, ``check_segments``, ``exact_sums``).
    """
    names = [name for name, _ in named]
    matrices = [matrix for _, matrix in named]
    real = [resampler.corpus_score(matrix) for matrix in matrices]
    boot = bootstrap_samples(matrices, resampler, n_bootstrap, seed, progress)
    index = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    p_ar: list[float | None] = [None] * len(index)
    if n_ar > 0:
        p_ar = list(_ar_p_values(matrices, real, resampler, index, n_ar, seed, progress))
    pairs = [
        PairTest(
            names[i],
            names[j],
            bootstrap_p_value(boot[i], boot[j], abs(real[i] - real[j])),
            p_ar[k],
            real[j] - real[i],
        )
        for k, (i, j) in enumerate(index)
    ]
    return dict(zip(names, real, strict=True)), pairs


def _ar_p_values(
    matrices: Sequence[FloatArray],
    real: Sequence[float],
    resampler: Resampler,
    index: Sequence[tuple[int, int]],
    n_trials: int,
    seed: int | None,
    progress: Progress | None,
) -> list[float]:
    """AR p-value of every pair (i, j), i the baseline, from one shared mask matrix."""
    n, width = matrices[0].shape
    stacked = np.hstack(matrices)
    totals = [resampler.total(matrix) for matrix in matrices]
    rng = np.random.default_rng(seed)
    gaps: list[list[SampleArray]] = [[] for _ in index]
    for start, stop in draw_chunks(n_trials, n, multiple=32):
        if progress is not None:
            progress(
                f"approximate randomization: trial {start + 1:,} of {n_trials:,}", start / n_trials
            )
        mask = rng.integers(2, size=(stop - start, n), dtype=bool)
        taken = mask.astype(np.float64) @ stacked
        last = mask[:, -1:]  # A ends with the baseline's last segment where True
        for k, (i, j) in enumerate(index):
            shift = taken[:, i * width : (i + 1) * width] - taken[:, j * width : (j + 1) * width]
            sum_a = totals[j] + shift
            last_a = np.where(last, matrices[i][-1], matrices[j][-1])
            last_b = np.where(last, matrices[j][-1], matrices[i][-1])
            a = np.asarray(resampler.trial_scores(sum_a, last_a))
            b = np.asarray(resampler.trial_scores(totals[i] + totals[j] - sum_a, last_b))
            gaps[k].append(np.abs(a - b))
    return [
        compute_p_value(np.concatenate(gap), abs(real[i] - real[j]))
        for gap, (i, j) in zip(gaps, index, strict=True)
    ]
