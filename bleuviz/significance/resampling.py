"""The metric-agnostic half of sacrebleu's paired tests: draws, CIs, p-values, result rows.

Replicates sacrebleu/significance.py's ``estimate_ci`` and ``_compute_p_value``
and the p-value of ``_paired_bs_test``, and splits the random draws of
``_bootstrap_resample`` and ``_paired_ar_test`` into chunks that leave numpy's
stream unchanged (``draw_chunks``). Shared by ``bleuviz.significance.bleu`` (BLEU)
and ``bleuviz.significance.sacrebleu_metrics`` (chrF and TER), whose docstrings say how
each test draws and scores its resamples.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bleuviz.arrays import FloatArray

DEFAULT_SEED = 12345  # sacrebleu's SACREBLEU_SEED default
#: Resampled scores: float64 here, float32 where sacrebleu's own scores are (metric_significance).
SampleArray = NDArray[np.floating[Any]]
#: Cells of the largest (rows x segments) draw held in memory at once.
MAX_CELLS = 1 << 21


@dataclass(frozen=True, slots=True)
class BootstrapCI:
    """A corpus score with its bootstrap estimate: ``mean ± ci`` (95%), like sacrebleu."""

    score: float
    mean: float
    ci: float


@dataclass(frozen=True, slots=True)
class PairedResult:
    """One row of a paired comparison; the baseline's p-values are None."""

    name: str
    score: float
    mean: float
    ci: float
    p_value_bs: float | None
    p_value_ar: float | None


def paired_result(
    name: str, ci: BootstrapCI, p_bs: float | None, p_ar: float | None
) -> PairedResult:
    """Flatten a CI and the p-values into one output row."""
    return PairedResult(name, ci.score, ci.mean, ci.ci, p_bs, p_ar)


def estimate_ci(score: float, samples: SampleArray) -> BootstrapCI:
    """Mean and half the 95% interval of the sorted samples (sacrebleu ``estimate_ci``)."""
    ordered = np.sort(samples)
    lower = len(ordered) // 40  # "95%, i.e. 1/40 from left"
    upper = len(ordered) - lower - 1
    half_width = 0.5 * (ordered[upper] - ordered[lower])
    return BootstrapCI(score, float(ordered.mean()), float(half_width))


def compute_p_value(statistics: SampleArray, observed: float) -> float:
    """Return (c + 1) / (n + 1), c counting statistics strictly above ``observed``.

    As sacrebleu ``_compute_p_value`` (after multeval): ``>``, not ``>=``.
    """
    return (int(np.sum(statistics > observed)) + 1) / (len(statistics) + 1)


def bootstrap_p_value(baseline: SampleArray, system: SampleArray, observed: float) -> float:
    """Paired bootstrap p-value: sample differences shifted to mean 0 (``_paired_bs_test``)."""
    diffs = np.abs(system - baseline)
    return compute_p_value(diffs - diffs.mean(), observed)


def draw_chunks(n_rows: int, n_segments: int, multiple: int) -> Iterator[tuple[int, int]]:
    """Split ``n_rows`` draws of ``n_segments`` cells into chunks of at most MAX_CELLS.

    Drawing in chunks leaves numpy's stream unchanged: ``Generator.choice``
    draws its bounded integers through PCG64's own 32-bit buffer, which survives
    between calls, but ``integers(2, dtype=bool)`` keeps 32 booleans of a draw
    in a buffer local to the call, so boolean chunks hold a multiple of 32 rows.
    """
    rows = max(multiple, MAX_CELLS // max(n_segments, 1) // multiple * multiple)
    for start in range(0, n_rows, rows):
        yield start, min(start + rows, n_rows)


def count_matrix(idx: NDArray[np.int64]) -> FloatArray:
    """Turn (M, N) sampled positions into (M, N) counts of each segment per sample."""
    m, n = idx.shape
    flat = (idx + np.arange(m, dtype=np.int64)[:, None] * n).ravel()
    return np.bincount(flat, minlength=m * n).reshape(m, n).astype(np.float64)


def paired_signature(signature: str, n_bootstrap: int, n_ar: int, seed: int | None) -> str:
    """Insert the paired tests into a metric's signature, as sacrebleu's ``PairedTest`` does.

    sacrebleu adds ``bs:N`` (bootstrap resamples), ``ar:N`` (randomization trials)
    and ``seed:S`` after ``nrefs`` (``bs`` first when an AR run also bootstraps its
    CIs): ``nrefs:2|bs:1000|ar:10000|seed:12345|case:mixed|...``. A signature
    without ``nrefs`` (an imported score) gets them in front.
    """
    tests = [f"bs:{n_bootstrap}", *([f"ar:{n_ar}"] if n_ar > 0 else []), f"seed:{seed}".lower()]
    fields = signature.split("|")
    at = next((i + 1 for i, field in enumerate(fields) if field.startswith("nrefs:")), 0)
    return "|".join([*fields[:at], *tests, *fields[at:]])
