"""One driver for sacrebleu's paired tests, over summed statistics of any metric.

Replicates sacrebleu/significance.py (``PairedTest``, ``_paired_bs_test``,
``_paired_ar_test``, ``_bootstrap_resample``, ``estimate_ci``, ``_compute_p_value``)
draw for draw, but a resample is one row of summed statistics (a count matrix
times the statistics matrix), and rows are scored together by a ``Resampler``:
each metric's own (``MetricSpec.resampler``: :mod:`bleuviz.bleu.resampler` for
BLEU, :mod:`bleuviz.metrics.sacrebleu_resampler` for chrF, chrF++ and TER),
which says how summed statistics become scores.

Random draws, exactly as sacrebleu makes them:

* paired bootstrap: ``np.random.default_rng(seed).choice(N, size=(n, N),
  replace=True)``. sacrebleu creates a fresh generator with the same seed for
  the baseline's CI and for every system, so all of them share one index matrix.
* approximate randomization: ``default_rng(seed).integers(2, size=(n, N),
  dtype=bool)``, again fresh per system. A true cell takes the baseline's segment
  into pseudo-system A and the system's into B; false, the reverse.

Draws are made in chunks of rows to bound memory; the stream is unchanged (see
``bleuviz.significance.resampling.draw_chunks``). Kept on purpose: p = (c + 1) /
(n + 1), where c counts statistics *strictly* above the observed one, so a system
compared with itself gets p = 1 / (n + 1), not 1.

Deviations: sums are exact (sacrebleu's float32 sums are exact only while a
column sum stays below 2**24); seed 0 is a seed like any other (``PairedTest``
turns 0 into "no seed" for every system but the baseline); ``None`` draws
entropy from the OS, like ``SACREBLEU_SEED=none``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.errors import InputError
from bleuviz.limits import RESAMPLES, SEEDS, TRIALS
from bleuviz.metrics.spec import Resampler
from bleuviz.progress import Progress
from bleuviz.significance.resampling import (
    PairedResult,
    SampleArray,
    bootstrap_p_value,
    compute_p_value,
    count_matrix,
    draw_chunks,
    estimate_ci,
    paired_result,
)


def check_counts(count: int, count_name: str, seed: int | None, n_ar: int | None = None) -> None:
    """Refuse counts and a seed outside their domains (``bleuviz.limits``), as the command
    line and links do: resamples 1 to a million, trials 0 (off) to a million, a seed
    from 0 to 2**53 - 1 (or None)."""
    RESAMPLES.check(count_name, count)
    if n_ar is not None:
        TRIALS.check("n_ar", n_ar)
    if seed is not None:
        SEEDS.check("seed", seed)


def check_segments(named: Sequence[tuple[str, int]]) -> None:
    """Refuse a baseline without segments, or a system with another segment count."""
    (first, n), *rest = named
    if n == 0:
        raise InputError(f"{first}: no segments to resample")
    for name, count in rest:
        if count != n:
            raise InputError(f"{name}: {count} segments but {first} has {n}")


def paired_tests(
    named: Sequence[tuple[str, FloatArray]],
    resampler: Resampler,
    n_bootstrap: int,
    n_ar: int,
    seed: int | None,
    progress: Progress | None = None,
) -> list[PairedResult]:
    """Compare every system with the first (the baseline), as ``PairedTest`` does.

    Inputs must be checked (``check_counts``, ``check_segments``). Returns one
    row per system, the baseline first with p-values None; ``n_ar`` 0 leaves the
    AR p-values None. ``progress`` hears of each chunk of resamples and trials.
    """
    matrices = [matrix for _, matrix in named]
    real = [resampler.corpus_score(matrix) for matrix in matrices]
    boot = bootstrap_samples(matrices, resampler, n_bootstrap, seed, progress)
    p_ar: list[float | None] = [None] * (len(named) - 1)
    if n_ar > 0 and len(named) > 1:
        p_ar = list(ar_p_values(matrices, real, resampler, n_ar, seed, progress))
    rows = [paired_result(named[0][0], estimate_ci(real[0], boot[0]), None, None)]
    for j, (name, _) in enumerate(named[1:], start=1):
        p_bs = bootstrap_p_value(boot[0], boot[j], abs(real[0] - real[j]))
        rows.append(paired_result(name, estimate_ci(real[j], boot[j]), p_bs, p_ar[j - 1]))
    return rows


def bootstrap_samples(
    matrices: Sequence[FloatArray],
    resampler: Resampler,
    n_samples: int,
    seed: int | None,
    progress: Progress | None = None,
) -> list[SampleArray]:
    """Score ``n_samples`` resamples of every system from one shared index matrix.

    One array per system over all samples, as in sacrebleu: its dtype follows
    the scores' types (float32 where sacrebleu's own scores are).
    """
    n, width = matrices[0].shape
    stacked = np.hstack(matrices)
    rng = np.random.default_rng(seed)
    scores: list[list[SampleArray]] = [[] for _ in matrices]
    for start, stop in draw_chunks(n_samples, n, multiple=1):
        _report(progress, "paired bootstrap", "resample", start, n_samples)
        idx = rng.choice(n, size=(stop - start, n), replace=True)
        sums = count_matrix(idx) @ stacked
        for j, matrix in enumerate(matrices):
            chunk = sums[:, j * width : (j + 1) * width]
            scores[j].append(np.asarray(resampler.bootstrap_scores(chunk, matrix[idx[:, -1]])))
    return [np.concatenate(system) for system in scores]


def ar_p_values(
    matrices: Sequence[FloatArray],
    real: Sequence[float],
    resampler: Resampler,
    n_trials: int,
    seed: int | None,
    progress: Progress | None = None,
) -> list[float]:
    """AR p-value of every system against the first, all from one shared mask matrix."""
    (base, *owns), (n, width) = matrices, matrices[0].shape
    # A = mask @ baseline + ~mask @ system = system total + mask @ (baseline - system).
    diffs = np.hstack([base - own for own in owns])
    own_totals = [resampler.total(own) for own in owns]
    both = [resampler.total(base) + total for total in own_totals]
    rng = np.random.default_rng(seed)
    gaps: list[list[SampleArray]] = [[] for _ in owns]
    for start, stop in draw_chunks(n_trials, n, multiple=32):
        _report(progress, "approximate randomization", "trial", start, n_trials)
        mask = rng.integers(2, size=(stop - start, n), dtype=bool)
        shifts = mask.astype(np.float64) @ diffs
        base_last = mask[:, -1:]  # A ends with the baseline's last segment where True
        for j, own in enumerate(owns):
            sum_a = own_totals[j] + shifts[:, j * width : (j + 1) * width]
            last_a = np.where(base_last, base[-1], own[-1])
            last_b = np.where(base_last, own[-1], base[-1])
            a = np.asarray(resampler.trial_scores(sum_a, last_a))
            b = np.asarray(resampler.trial_scores(both[j] - sum_a, last_b))
            gaps[j].append(np.abs(a - b))
    return [
        compute_p_value(np.concatenate(gap), abs(real[0] - r))
        for gap, r in zip(gaps, real[1:], strict=True)
    ]


def _report(progress: Progress | None, test: str, unit: str, done: int, total: int) -> None:
    """Tell ``progress`` how far a test is: "paired bootstrap: resample 201 of 1,000"."""
    if progress is not None:
        progress(f"{test}: {unit} {done + 1:,} of {total:,}", done / total)
