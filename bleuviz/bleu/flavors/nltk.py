"""BLEU as NLTK computes it (nltk/translate/bleu_score.py, ``corpus_bleu``, nltk 3.10).

Vectorized over rows of statistics. NLTK's quirks are kept on purpose:

* each segment's n-gram denominator is ``max(1, count)`` before the corpus sum
  (``modified_precision``), so segments shorter than n add 1 (``floor_totals``);
* no unigram match gives exactly 0, before any smoothing;
* ``method0`` replaces a zero precision by ``sys.float_info.min``, which gives a
  tiny positive score instead of 0;
* smoothing methods 4 to 7 look at the *last* segment of the corpus for the
  hypothesis length (method 6) and the 5-gram precision (method 5, hard-coded 5);
* precisions that stay 0 after smoothing are left out of the geometric mean.

NLTK raises an AssertionError in ``method6`` when the trigram precision is 0
(or there are fewer than three orders); bleuviz defines the score as 0 there.
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu.flavors.base import Flavor, ScoringSettings
from bleuviz.bleu.result import BleuArrays

if TYPE_CHECKING:
    from bleuviz.bleu.stats import SegmentStats

NLTK_METHODS: tuple[str, ...] = tuple(f"method{i}" for i in range(8))
#: The version whose behaviour is replicated (and tested against).
NLTK_VERSION = "3.10.4"
EPSILON, ALPHA, K = 0.1, 5, 5  # SmoothingFunction() defaults (Chen and Cherry, 2014)


def nltk_rows(
    rows: SegmentStats,
    last: SegmentStats,
    weights: FloatArray,
    smooth: str = "method0",
    auto_reweigh: bool = False,
) -> BleuArrays:
    """Score M rows; ``last`` holds, per row, the statistics of its corpus's last segment."""
    n = len(weights)
    num = rows.matches[:, :n].astype(np.float64)
    den = rows.floor_totals[:, :n].astype(np.float64)
    hyp_len, ref_len = rows.hyp_len, rows.closest_ref_len
    p = _smooth(num, den, hyp_len, last, smooth)
    weight = np.broadcast_to(weights, p.shape).copy()
    if auto_reweigh and np.array_equal(weights, np.full(4, 0.25)):
        short = (hyp_len > 0) & (hyp_len < 4)
        columns = np.arange(n)[None, :]
        reweighed = np.where(columns < hyp_len[:, None], 1.0 / np.maximum(hyp_len, 1)[:, None], 0.0)
        weight[short] = reweighed[short]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, weight * np.log(np.where(p > 0, p, 1.0)), 0.0)
    bp = _brevity_penalty(hyp_len, ref_len)
    score = bp * np.exp(_fsum_rows(terms))
    score = np.where((num[:, 0] == 0) | np.isnan(p).any(axis=1), 0.0, score)
    ratio = np.divide(hyp_len, ref_len, out=np.zeros(len(hyp_len)), where=ref_len > 0)
    return BleuArrays(100.0 * score, 100.0 * np.nan_to_num(p), bp, ratio)


def _fsum_rows(terms: FloatArray) -> FloatArray:
    """Sum each row with ``math.fsum``, as nltk does."""
    return np.fromiter((math.fsum(row) for row in terms), np.float64, len(terms))


def _brevity_penalty(hyp_len: IntArray, ref_len: IntArray) -> FloatArray:
    """nltk ``brevity_penalty``: 1 if c > r, 0 if c == 0, else exp(1 - r/c)."""
    safe = np.where(hyp_len > 0, hyp_len, 1)
    bp = np.where(hyp_len > ref_len, 1.0, np.exp(1 - ref_len / safe))
    return np.where((hyp_len <= ref_len) & (hyp_len == 0), 0.0, bp)


def _smooth(
    num: FloatArray, den: FloatArray, hyp_len: IntArray, last: SegmentStats, smooth: str
) -> FloatArray:
    """Apply ``SmoothingFunction().<smooth>`` to every row; NaN marks an nltk crash."""
    p = num / den
    zero = num == 0
    if smooth == "method0":
        return np.where(zero, sys.float_info.min, p)
    if smooth == "method1":
        return np.where(zero, (num + EPSILON) / den, p)
    if smooth == "method2":
        p[:, 1:] = (num[:, 1:] + 1) / (den[:, 1:] + 1)
        return p
    if smooth == "method3":
        return _geometric(p, zero, den, np.ones(len(p)))
    if smooth == "method4":
        return _method4(p, zero, den, hyp_len, last)
    if smooth == "method5":
        return _method5(p, last)
    if smooth == "method6":
        return _method6(p, num, last)
    return _method5(_method4(p, zero, den, hyp_len, last), last)  # method7


def _geometric(
    p: FloatArray, zero: NDArray[np.bool_], den: FloatArray, scale: FloatArray
) -> FloatArray:
    """Replace the k-th zero precision of a row by scale / (2**k * den) (NIST, method3)."""
    k = np.cumsum(zero, axis=1)
    return np.where(zero, scale[:, None] / (2.0**k * den), p)


def _method4(
    p: FloatArray, zero: NDArray[np.bool_], den: FloatArray, hyp_len: IntArray, last: SegmentStats
) -> FloatArray:
    """Chen and Cherry's method 4: numerator 1 / (2**k * K / ln(len)) for zero counts."""
    length = np.where(hyp_len > 0, hyp_len, last.hyp_len).astype(np.float64)
    applies = zero & (length > 1)[:, None]
    with np.errstate(divide="ignore"):
        k = np.cumsum(applies, axis=1)
        numerator = 1 / (2.0**k * K / np.log(np.where(length > 1, length, 2.0))[:, None])
    return np.where(applies, numerator / den, p)


def _method5(p: FloatArray, last: SegmentStats) -> FloatArray:
    """Average each precision with its neighbours; the 5-gram one comes from the last segment."""
    p5 = last.matches[:, 4] / last.floor_totals[:, 4]
    following = np.column_stack([p[:, 1:], p5])
    out = np.empty_like(p)
    previous = p[:, 0] + 1
    for i in range(p.shape[1]):
        out[:, i] = (previous + p[:, i] + following[:, i]) / 3
        previous = out[:, i]
    return out


def _method6(p: FloatArray, num: FloatArray, last: SegmentStats) -> FloatArray:
    """Gao and He's interpolation with a prior from the two lower orders (method 6)."""
    out = p.copy()
    if p.shape[1] < 3:
        return np.full_like(p, np.nan)
    crash = p[:, 2] == 0  # nltk: assert p_n[2]
    for i in range(2, p.shape[1]):
        with np.errstate(divide="ignore", invalid="ignore"):
            prior = np.where(out[:, i - 2] == 0, 0.0, out[:, i - 1] ** 2 / out[:, i - 2])
        length = np.maximum(last.hyp_len - i, 0)
        out[:, i] = (num[:, i] + ALPHA * prior) / (length + ALPHA)
    out[crash] = np.nan
    return out


def _score(
    rows: SegmentStats, last: SegmentStats, weights: FloatArray, config: ScoringSettings
) -> BleuArrays:
    """Score rows as ``corpus_bleu``, each with its corpus's last segment."""
    return nltk_rows(rows, last, weights, config.smoothing, config.auto_reweigh)


FLAVOR = Flavor(
    name="nltk",
    replicates=f"nltk {NLTK_VERSION}, nltk.translate.bleu_score.corpus_bleu / sentence_bleu",
    implementation=f"nltk-{NLTK_VERSION}",
    smoothing=NLTK_METHODS,
    default_smoothing="method0",
    brevity_reference="closest",
    score=_score,
    auto_reweigh=True,
    smoothing_orders={"method5": K, "method7": K},
    floor_totals=True,
    omits_zero_precision=True,
)
