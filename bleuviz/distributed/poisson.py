"""A Poisson bootstrap whose weights depend on (seed, segment number) only.

Past :data:`~bleuviz.distributed.limits.EXACT_RESAMPLING_SEGMENTS` segments the
rows of every segment no longer travel to one machine. Each resample instead
gives every segment a Poisson(1) weight (Hanley and MacGibbon's "Poisson
bootstrap", as Chamandy et al. use at Google), and a resample's statistics are
the weighted sum of the rows, summed per partition as int64 and then across
partitions. A weight is a pure function of (seed, segment number, resample
number): a counter-based hash (SplitMix64's finaliser) turned into a uniform
number and through Poisson(1)'s inverse distribution function, so the result
does not depend on how the segments are partitioned or on which worker runs.

Not sacrebleu-identical (sacrebleu draws exactly N indices with replacement);
the signature says ``bs:poisson:N``. nltk's BLEU smoothing reads the resample's
last segment: here it is the corpus's last segment.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bleuviz.arrays import FloatArray, IntArray

#: Weights drawn at a time (resamples x segments cells), about 32 MB of uint64.
_CELLS = 1 << 22
_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: Poisson(1)'s distribution function at 0, 1, ..., 19 (P(X > 19) < 1e-18).
_CDF = np.cumsum([math.exp(-1) / math.factorial(k) for k in range(20)])


_U64 = np.ndarray[Any, np.dtype[np.uint64]]


def _mix(x: _U64) -> _U64:
    """SplitMix64's finaliser: a bijection of uint64 that spreads every input bit."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    mixed: _U64 = x ^ (x >> np.uint64(31))
    return mixed


def weights(seed: int, first: int, n: int, start: int, stop: int) -> IntArray:
    """Poisson(1) weights of resamples ``start`` to ``stop`` for segments ``first`` to ``first+n``.

    Returns a (stop - start, n) int64 matrix; the same cell for the same (seed,
    segment, resample) whatever the partition.
    """
    with np.errstate(over="ignore"):
        key = _mix(np.array([seed & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64) * _GOLDEN + 1)
        segments = _mix(np.arange(first, first + n, dtype=np.uint64) * _GOLDEN + key)
        resamples = np.arange(start, stop, dtype=np.uint64)[:, None] * _GOLDEN
        bits = _mix(segments[None, :] ^ _mix(resamples + key))
    uniform = (bits >> np.uint64(11)).astype(np.float64) * 2.0**-53
    drawn: IntArray = np.searchsorted(_CDF, uniform, side="right").astype(np.int64)
    return drawn


def weighted_sums(
    matrices: list[FloatArray], seed: int, first: int, n_resamples: int
) -> list[FloatArray]:
    """Each matrix's (n_resamples, k) weighted row sums over this partition's segments.

    The matrices are one partition's rows of several systems; they share the
    weights, as a paired test needs. Integer rows give integer sums, exact below
    2**53 (the client adds partitions as int64); TER's fractional reference
    lengths (3+ references) give float sums, added in partition order.
    """
    n = len(matrices[0])
    sums = [np.zeros((n_resamples, m.shape[1]), dtype=np.float64) for m in matrices]
    step = max(1, _CELLS // max(n, 1))
    for start in range(0, n_resamples, step):
        stop = min(start + step, n_resamples)
        w = weights(seed, first, n, start, stop).astype(np.float64)
        for total, matrix in zip(sums, matrices, strict=True):
            total[start:stop] = w @ matrix
    return sums
