"""Paired tests on the mean of a segment score read from outside (COMET, human judgements).

sacrebleu's ``PairedTest`` procedure (sacrebleu/significance.py), with the segment
score as the single statistic and the mean as the corpus score: the same draws
for a seed, the same CI and p-value formulas (``bleuviz.significance.paired``).
Deviations: sums are float64 (sacrebleu's bootstrap sums float32 statistics)
and summed by matrix products (``bleuviz.significance.paired``), so a trial
whose difference equals the observed one only up to rounding may count
differently than a sum in another order would; sums of integer ratings (and of
any scores with few binary digits) are exact and unaffected. A pair is tested
on the segments where both systems have a score, so each system is compared
with the baseline separately; with no missing scores this gives exactly the
numbers of one joint ``PairedTest`` run, since there too every system starts
from a fresh generator with the same seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bleuviz.arrays import FloatArray
from bleuviz.errors import InputError
from bleuviz.progress import Progress
from bleuviz.significance.paired import check_counts, paired_tests
from bleuviz.significance.resampling import DEFAULT_SEED, BootstrapCI, PairedResult


@dataclass(frozen=True, slots=True)
class MeanResampler:
    """Scores rows of summed segment scores as means over ``n_segments``."""

    n_segments: int

    def total(self, matrix: FloatArray) -> FloatArray:
        total: FloatArray = matrix.sum(axis=0)
        return total

    def corpus_score(self, matrix: FloatArray) -> float:
        return float(matrix[:, 0].sum() / self.n_segments)

    def bootstrap_scores(self, sums: FloatArray, lasts: FloatArray) -> FloatArray:
        means: FloatArray = sums[:, 0] / self.n_segments
        return means

    def trial_scores(self, sums: FloatArray, lasts: FloatArray) -> FloatArray:
        return self.bootstrap_scores(sums, lasts)


@dataclass(frozen=True, slots=True)
class MeanComparison:
    """A paired comparison of means, and how many segments it used."""

    result: PairedResult
    n_segments: int


def both_scored(a: FloatArray, b: FloatArray) -> NDArray[np.bool_]:
    """Return the mask of segments where both score arrays have a score (not NaN)."""
    mask: NDArray[np.bool_] = ~(np.isnan(a) | np.isnan(b))
    return mask


def compare_means(
    baseline_name: str,
    baseline: FloatArray,
    systems: Mapping[str, FloatArray],
    n_bootstrap: int = 1000,
    n_ar: int = 10000,
    seed: int | None = DEFAULT_SEED,
    progress: Progress | None = None,
) -> list[MeanComparison]:
    """Compare every system's mean segment score with the baseline's (baseline first).

    The baseline's row covers its scored segments; each system's row (score,
    mean, CI, p-values) covers the segments where it and the baseline both have
    a score. ``progress`` hears how far each system's tests are.

    Raises:
        InputError: arrays of different lengths, or no segment scored by both.
        ConfigError: a count or the seed is out of range.
    """
    check_counts(n_bootstrap, "n_bootstrap", seed, n_ar)
    base = np.asarray(baseline, dtype=np.float64)
    first = _tested(baseline_name, base, ~np.isnan(base), {}, n_bootstrap, 0, seed, progress)
    groups: dict[bytes, dict[str, FloatArray]] = {}
    masks: dict[bytes, NDArray[np.bool_]] = {}
    for name, scores in systems.items():
        own = np.asarray(scores, dtype=np.float64)
        if own.shape != base.shape:
            raise InputError(
                f"{name}: {len(own)} segment scores but {baseline_name} has {len(base)}"
            )
        mask = both_scored(base, own)
        masks.setdefault(mask.tobytes(), mask)
        groups.setdefault(mask.tobytes(), {})[name] = own
    tested: dict[str, MeanComparison] = {}
    for key, group in groups.items():
        args = (n_bootstrap, n_ar, seed, progress)
        tested |= _tested(baseline_name, base, masks[key], group, *args)
    return [first[baseline_name], *(tested[name] for name in systems)]


def _tested(
    baseline_name: str,
    base: FloatArray,
    mask: NDArray[np.bool_],
    systems: Mapping[str, FloatArray],
    n_bootstrap: int,
    n_ar: int,
    seed: int | None,
    progress: Progress | None,
) -> dict[str, MeanComparison]:
    """Run the paired tests on the masked segments; return each row by name.

    Systems scored on the same segments are tested in one run: each system's
    draws start from a fresh generator with the same seed, so a joint run gives
    each pair exactly the numbers of its own run, at a fraction of the draws.
    """
    n = int(mask.sum())
    if n == 0:
        names = ", ".join([baseline_name, *systems])
        raise InputError(f"segment scores: no segment has a score for {names}")
    named = [(baseline_name, base[mask][:, None])]
    named += [(name, values[mask][:, None]) for name, values in systems.items()]
    tests = paired_tests(named, MeanResampler(n), n_bootstrap, n_ar, seed, progress)
    return {row.name: MeanComparison(row, n) for row in tests}


def mean_ci(
    values: FloatArray, n_bootstrap: int = 1000, seed: int | None = DEFAULT_SEED
) -> BootstrapCI | None:
    """Return the mean of the scored segments with its bootstrap 95% CI (None: none scored).

    As sacrebleu's ``--confidence`` on one system: ``_bootstrap_resample`` and
    ``estimate_ci`` (the baseline row of ``compare_means``).
    """
    scores = np.asarray(values, dtype=np.float64)
    if np.isnan(scores).all():
        return None
    row = compare_means("", scores, {}, n_bootstrap, 0, seed)[0].result
    return BootstrapCI(row.score, row.mean, row.ci)
