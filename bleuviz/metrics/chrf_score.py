"""chrF's options and its score from statistics, replicating sacrebleu 2.6's ``CHRF``.

The statistics of a segment are ``[hyp, ref, match]`` for each character order
1..``char_order`` then each word order 1..``word_order`` (sacrebleu's layout).
``f_scores`` is ``CHRF._compute_f_score`` with ``eps_smoothing=False`` (sacrebleu's
default, the "effective order" average of precisions and recalls) applied to
every row at once; every floating-point operation is sacrebleu's, in its order,
so the scores are equal to the bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.errors import ConfigError
from bleuviz.limits import MAX_CHRF_BETA, MAX_CHRF_ORDER, check_count

#: sacrebleu's CHRF.CHAR_ORDER, WORD_ORDER and BETA.
CHAR_ORDER, WORD_ORDER, BETA = 6, 0, 2


@dataclass(frozen=True, slots=True)
class ChrfConfig:
    """chrF's options, as sacrebleu's ``CHRF`` takes them (``--chrf-*`` on its command line).

    Whitespace inside n-grams and epsilon smoothing are not offered: sacrebleu's
    defaults (both off) are what the columnar path replicates.

    Each order is an integer from 0 to ``MAX_CHRF_ORDER`` (20, ``bleuviz.limits``) and
    not both 0; beta is an integer from 1 (sacrebleu's ``--chrf-beta`` is an int, and
    0 would drop recall) to ``MAX_CHRF_BETA``.

    Raises:
        ConfigError: an order or beta out of range or not an integer, or no order at all.
    """

    char_order: int = CHAR_ORDER
    word_order: int = WORD_ORDER
    beta: int = BETA
    lowercase: bool = False

    def __post_init__(self) -> None:
        for option, value in (("char_order", self.char_order), ("word_order", self.word_order)):
            check_count(f"chrF {option}", value, 0, MAX_CHRF_ORDER)
        if self.order < 1:
            raise ConfigError("chrF orders: the character and word orders are both 0")
        check_count("chrF beta", self.beta, 1, MAX_CHRF_BETA)
        if not isinstance(self.lowercase, (bool, np.bool_)):
            raise ConfigError(f"chrF lowercase: must be true or false, got {self.lowercase!r}")

    @property
    def order(self) -> int:
        """Character plus word orders (statistics have 3 columns per order)."""
        return self.char_order + self.word_order

    @property
    def name(self) -> str:
        """sacrebleu's score name: ``chrF2``, ``chrF2++`` (one + per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order


def f_scores(stats: IntArray, beta: int) -> FloatArray:
    """Return sacrebleu's chrF of every row of ``stats`` (R, 3 * order), 0-100.

    Mirrors ``CHRF._compute_f_score`` with ``eps_smoothing=False``: precision and
    recall of each order where both hypothesis and reference have n-grams,
    averaged over those orders, then the F-beta of the averages.
    """
    counts = np.asarray(stats, dtype=np.float64)
    factor = beta**2
    avg_prec = np.zeros(len(counts))
    avg_rec = np.zeros(len(counts))
    effective = np.zeros(len(counts), dtype=np.int64)
    for i in range(counts.shape[1] // 3):
        n_hyp, n_ref, n_match = counts[:, 3 * i], counts[:, 3 * i + 1], counts[:, 3 * i + 2]
        both = (n_hyp > 0) & (n_ref > 0)
        prec = np.divide(n_match, n_hyp, out=np.zeros_like(n_match), where=both)
        rec = np.divide(n_match, n_ref, out=np.zeros_like(n_match), where=both)
        # sacrebleu adds only where both exist; adding 0.0 elsewhere leaves the sum as is.
        avg_prec += prec
        avg_rec += rec
        effective += both
    some = effective > 0
    np.divide(avg_prec, effective, out=avg_prec, where=some)
    np.divide(avg_rec, effective, out=avg_rec, where=some)
    avg_prec[~some] = 0.0
    avg_rec[~some] = 0.0
    nonzero = (avg_prec + avg_rec) != 0
    score = (1 + factor) * avg_prec * avg_rec
    np.divide(score, factor * avg_prec + avg_rec, out=score, where=nonzero)
    return np.where(nonzero, 100 * score, 0.0)


def corpus_f_score(stats: IntArray, beta: int) -> float:
    """Return sacrebleu's corpus chrF: the score of the summed statistics."""
    return float(f_scores(stats.sum(axis=0, keepdims=True), beta)[0])
