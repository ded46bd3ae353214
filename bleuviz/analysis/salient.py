"""Salient n-grams: what one system matches in the references more often than another.

Replicates compare-mt's n-gram difference analysis (neulab/compare-mt,
``compare_mt_main.generate_ngram_report`` with its defaults ``compare_type='match'``,
``alpha=1.0``, ``report_length=50``, orders 1 to 4):

* ``ngram_utils.compare_ngrams`` counts how many of a system's occurrences of
  each n-gram match the reference. An occurrence matches while the reference
  holds an unused copy, so a segment contributes ``min(hyp count, ref count)``.
* ``stat_utils.extract_salient_features`` scores every n-gram that either system
  matches with the smoothed ratio ``(a + alpha) / (a + b + 2 * alpha)``. Here
  ``a`` and ``b`` are the corpus match counts of A and B.
* The n-grams are sorted by that score. The top ``report_length`` are "A > B";
  the bottom ``report_length``, reversed, are "B > A".

Deliberate deviations:

* Tokens come from sacrebleu's tokenizer, the one behind the BLEU statistics.
  compare-mt splits pre-tokenized files on whitespace.
* With several references, an n-gram's reference count is its largest count in
  any single reference: BLEU's clip count, as in ``explain_segment``. compare-mt
  reads one reference.
* "A better" lists only n-grams that A matches more often (score above 0.5),
  and "B better" the reverse. On a small corpus compare-mt's two top-50 lists
  can overlap and put an n-gram on the wrong side.
* Ties in score are broken by the larger total match count, then by the
  n-gram's tokens. compare-mt leaves them in set order.
* Each n-gram carries the segments in which either system matches it.

Counting is columnar: a segment's ``min(hyp count, ref count)`` is the
clipped match count of its (segment, reference n-gram) pair, which the BLEU
statistics already count (``bleuviz.bleu.stats.pair_matches``); a corpus count
is a ``bincount`` of those by n-gram type (``bleuviz.analysis.ngram_types``);
ranking sorts integer and float columns. Only the listed n-grams become strings.
The per-segment ``Counter`` replica of compare-mt in the tests is the oracle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bleuviz.analysis.ngram_types import NgramTypes
from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu.explain import SegmentExplanation
from bleuviz.errors import ConfigError, InputError

Ngram = tuple[str, ...]
#: Per order, each (segment, reference n-gram) pair's clipped match count by one
#: system (``bleuviz.bleu.stats.pair_matches`` against ``NgramTypes.references``).
PairMatches = tuple[IntArray, ...]
#: compare-mt's defaults: orders 1-4, Laplace smoothing, 50 n-grams per side.
MAX_ORDER = 4
ALPHA = 1.0
REPORT_LENGTH = 50


@dataclass(frozen=True, slots=True, eq=False)
class SalientNgram:
    """One n-gram with both systems' corpus match counts and its smoothed ratio."""

    ngram: Ngram
    a_matches: int
    b_matches: int
    score: float  # (a + alpha) / (a + b + 2 alpha): above 0.5 favours A
    segments: IntArray  # 0-based segments where A or B matches it, ascending

    @property
    def order(self) -> int:
        """Number of tokens."""
        return len(self.ngram)

    @property
    def text(self) -> str:
        """The tokens joined by spaces."""
        return " ".join(self.ngram)


@dataclass(frozen=True, slots=True)
class SalientComparison:
    """The n-grams A matches more often than B, and the reverse, most salient first."""

    a_better: tuple[SalientNgram, ...]
    b_better: tuple[SalientNgram, ...]
    alpha: float
    orders: tuple[int, ...]

    def find(self, text: str) -> SalientNgram | None:
        """Return the listed n-gram whose text is ``text``, or None."""
        return next((s for s in (*self.a_better, *self.b_better) if s.text == text), None)


def smoothed_ratio(a: int, b: int, alpha: float = ALPHA) -> float:
    """Return compare-mt's salience score ``(a + alpha) / (a + b + 2 alpha)``."""
    _check_alpha(alpha)
    if a + b + 2 * alpha == 0:
        raise ConfigError("alpha: 0 is undefined for an n-gram neither system matches")
    return (a + alpha) / (a + b + 2 * alpha)


def _check_alpha(alpha: float) -> None:
    if alpha < 0:
        raise ConfigError(f"alpha: must be non-negative, got {alpha}")


@dataclass(frozen=True, slots=True)
class _Candidates:
    """Every n-gram of the wanted orders that A or B matches, as columns."""

    orders: IntArray
    types: IntArray
    a: IntArray
    b: IntArray

    def scores(self, alpha: float) -> FloatArray:
        """compare-mt's ratio, with the same float operations as ``smoothed_ratio``."""
        a, b = self.a.astype(np.float64), self.b.astype(np.float64)
        scores: FloatArray = (a + alpha) / (a + b + 2 * alpha)
        return scores


def salient_ngrams(
    types: NgramTypes,
    a: PairMatches,
    b: PairMatches,
    alpha: float = ALPHA,
    top: int = REPORT_LENGTH,
    orders: Iterable[int] = range(1, MAX_ORDER + 1),
) -> SalientComparison:
    """Rank the n-grams A and B match by compare-mt's smoothed ratio; keep ``top`` per side.

    Args:
        types: the test set's reference n-grams and their types.
        a: A's clipped match count of every pair (``pair_matches``).
        b: the same for B.
        alpha: smoothing (compare-mt's default 1: Laplace).
        top: n-grams to keep on each side (compare-mt's ``report_length``).
        orders: n-gram orders to consider.
    """
    _check_alpha(alpha)
    if top < 0:
        raise ConfigError(f"top: must be non-negative, got {top}")
    wanted = tuple(sorted(set(orders)))
    for name, counts in (("a", a), ("b", b)):
        if [len(c) for c in counts] != [len(t) for t in types.pair_types]:
            raise InputError(f"{name}: its pair counts are not of these n-gram types' references")
    for order in wanted:
        types.n_types(order)  # refuses an order the types do not hold
    found = _corpus_counts(types, a, b, wanted)
    scores = found.scores(alpha)
    a_side = _rank(types, found, scores, found.a > found.b, -scores, top)
    b_side = _rank(types, found, scores, found.a < found.b, scores, top)
    segments = _segments_with(types, a, b, found, np.concatenate([a_side, b_side]))

    def build(side: IntArray) -> tuple[SalientNgram, ...]:
        return tuple(
            SalientNgram(
                types.ngram(int(found.orders[i]), int(found.types[i])),
                int(found.a[i]),
                int(found.b[i]),
                float(scores[i]),
                segments[int(i)],
            )
            for i in side
        )

    return SalientComparison(build(a_side), build(b_side), alpha, wanted)


def _corpus_counts(
    types: NgramTypes, a: PairMatches, b: PairMatches, orders: tuple[int, ...]
) -> _Candidates:
    """Sum each side's pair counts by type, keeping the types either side matches."""
    parts = []
    for order in orders:
        pair_types, n = types.pair_types[order - 1], types.n_types(order)
        sums = [
            np.bincount(pair_types, weights=side[order - 1], minlength=n).astype(np.int64)
            for side in (a, b)
        ]
        kept = np.flatnonzero((sums[0] > 0) | (sums[1] > 0))
        parts.append((np.full(len(kept), order, dtype=np.int64), kept, *(s[kept] for s in sums)))
    columns = [np.concatenate(column) for column in zip(*parts, strict=True)]
    return _Candidates(*columns)


def _rank(
    types: NgramTypes,
    found: _Candidates,
    scores: FloatArray,
    side: np.ndarray,
    primary: FloatArray,
    top: int,
) -> IntArray:
    """Return the positions in ``found`` of the ``top`` best n-grams on one side.

    Best is the smallest ``primary`` (minus the score for A, the score for B),
    then the larger total match count, then the n-gram's tokens in code point
    order. Only n-grams scoring at least as well as the ``top``-th are sorted.
    """
    chosen = np.flatnonzero(side)
    if top == 0 or len(chosen) == 0:
        return chosen[:0]
    if len(chosen) > top:
        threshold = np.partition(primary[chosen], top - 1)[top - 1]
        chosen = chosen[primary[chosen] <= threshold]
    width = int(found.orders[chosen].max())
    ranks = np.empty((len(chosen), width), dtype=np.int64)
    for order in np.unique(found.orders[chosen]).tolist():
        rows = found.orders[chosen] == order
        ranks[rows] = types.token_ranks(order, found.types[chosen[rows]], width)
    total = found.a[chosen] + found.b[chosen]
    # np.lexsort sorts by its last key first.
    keys = (*(ranks[:, k] for k in reversed(range(width))), -total, primary[chosen])
    by_rank: IntArray = chosen[np.lexsort(keys)][:top]
    return by_rank


def _segments_with(
    types: NgramTypes, a: PairMatches, b: PairMatches, found: _Candidates, listed: IntArray
) -> dict[int, IntArray]:
    """Return, for each listed position in ``found``, the segments where A or B matches it."""
    out: dict[int, IntArray] = {}
    for order in np.unique(found.orders[listed]).tolist():
        here = listed[found.orders[listed] == order]
        pair_types = types.pair_types[order - 1]
        matched = (a[order - 1] > 0) | (b[order - 1] > 0)
        pairs = np.flatnonzero(matched & np.isin(pair_types, found.types[here]))
        # A pair is one (segment, n-gram): each segment appears once per type, in order.
        segments = types.references.orders[order - 1].segments[pairs]
        of_type = pair_types[pairs]
        by = np.lexsort((segments, of_type))
        segments, of_type = segments[by], of_type[by]
        for i in here.tolist():
            t = found.types[i]
            lo, hi = np.searchsorted(of_type, [t, t + 1])
            out[i] = segments[lo:hi].copy()
    return out


def salient_frame(items: Sequence[SalientNgram]) -> pd.DataFrame:
    """Return salient n-grams as a table: n-gram, order, both counts, score, segments."""
    return pd.DataFrame(
        {
            "n-gram": [s.text for s in items],
            "order": [s.order for s in items],
            "a": [s.a_matches for s in items],
            "b": [s.b_matches for s in items],
            "score": [s.score for s in items],
            "segments": [len(s.segments) for s in items],
        }
    )


@dataclass(frozen=True, slots=True)
class MatchGap:
    """An n-gram one system matches more often than the other in the same segment."""

    ngram: Ngram
    matched: int  # by this system
    other: int  # by the other system

    @property
    def text(self) -> str:
        """The tokens joined by spaces."""
        return " ".join(self.ngram)


def match_gaps(
    mine: SegmentExplanation, other: SegmentExplanation, order: int | None = None
) -> tuple[MatchGap, ...]:
    """Return the n-grams ``mine`` matches more often than ``other``, by order, first seen first.

    Both explanations must be of the same segment (same references). ``order``
    keeps one order only; None keeps every order both explanations hold.
    """
    if mine.ref_texts != other.ref_texts:
        raise InputError("other: the explanations are of segments with different references")
    shared = range(1, min(mine.max_order, other.max_order) + 1)
    gaps = []
    for n in [k for k in shared if order in (None, k)]:
        theirs = {row.ngram: row.matched for row in other.rows[n - 1]}
        gaps += [
            MatchGap(row.ngram, row.matched, theirs.get(row.ngram, 0))
            for row in mine.rows[n - 1]
            if row.matched > theirs.get(row.ngram, 0)
        ]
    return tuple(gaps)


def gaps_frame(gaps: Sequence[MatchGap]) -> pd.DataFrame:
    """Return match gaps as a table: n-gram, order, this system's and the other's matches."""
    return pd.DataFrame(
        {
            "n-gram": [g.text for g in gaps],
            "order": [len(g.ngram) for g in gaps],
            "matched": [g.matched for g in gaps],
            "other": [g.other for g in gaps],
        }
    )
