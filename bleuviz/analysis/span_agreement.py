"""Span-level agreement of predicted error spans with gold ones: MPP, micro-averaged.

Replicates the measure Perrella, Morales Agostinho and Zaragoza (2026, "Span-Level
Machine Translation Meta-Evaluation", arXiv:2603.19921) recommend, "match with
partial overlap and partial credit" (MPP) with micro-averaging, as their package
span-mt-metrics-eval computes it (``scoring/one_to_one.py``,
``matching/optimal.py``, ``scoring/aggregation.py``, defaults ``measure="MPP"``,
``matching="one_to_one"``, ``matching_algorithm="optimal"``, ``averaging="micro"``):

* In each segment, predicted and gold spans (half-open character offsets) are
  paired one to one; a pair needs a positive overlap. A matched pair adds
  ``overlap / len(predicted)`` to the precision credit and ``overlap / len(gold)``
  to the recall credit.
* The pairing is the one maximizing the segment's F-score, precision being the
  precision credit over the number of predicted spans and recall the recall
  credit over the number of gold spans; ties go to the larger P + R, then P, then R.
* Micro-averaging sums the credits and the span counts over segments before
  dividing. An empty denominator gives 1.0 (the package's convention); F is the
  harmonic mean, 0 when P + R is 0.

Deliberate differences in means, not in results: the package enumerates every
matching; here each predicted span's choices are searched left to right keeping
only Pareto-optimal (precision credit, recall credit) pairs, which is exact
because F grows with both. Segments where every overlapping pair is alone (each
span overlaps at most one span of the other side) take every pair, computed on
arrays for a whole system at once (:func:`columnar_credit`).
tests/analysis/test_span_agreement.py holds both to a brute-force enumeration.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import IntArray

Span = tuple[int, int]
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class SpanCredit:
    """MPP's components, summed over segments (micro-averaging adds them up).

    Attributes:
        precision_credit: sum over matched pairs of overlap / predicted span length.
        predicted: number of predicted spans.
        recall_credit: sum over matched pairs of overlap / gold span length.
        gold: number of gold spans.
    """

    precision_credit: float = 0.0
    predicted: int = 0
    recall_credit: float = 0.0
    gold: int = 0

    def __add__(self, other: SpanCredit) -> SpanCredit:
        return SpanCredit(
            self.precision_credit + other.precision_credit,
            self.predicted + other.predicted,
            self.recall_credit + other.recall_credit,
            self.gold + other.gold,
        )

    @property
    def precision(self) -> float:
        """Precision credit per predicted span (1.0 without predicted spans)."""
        return self.precision_credit / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        """Recall credit per gold span (1.0 without gold spans)."""
        return self.recall_credit / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall (0 when both are 0)."""
        return _harmonic(self.precision, self.recall)


def _harmonic(precision: float, recall: float) -> float:
    """Return the harmonic mean, 0 when precision + recall is 0."""
    total = precision + recall
    return 2 * precision * recall / total if total > 0 else 0.0


def span_agreement(
    predicted: Iterable[Sequence[Span]], gold: Iterable[Sequence[Span]]
) -> SpanCredit:
    """Return MPP's micro-summed credit of per-segment predicted against gold spans."""
    total = SpanCredit()
    for pred, ref in zip(predicted, gold, strict=True):
        total += segment_credit(pred, ref)
    return total


def segment_credit(predicted: Sequence[Span], gold: Sequence[Span]) -> SpanCredit:
    """Return one segment's MPP credit under its best one-to-one matching.

    Empty spans (start >= end) cannot overlap anything and are refused by the
    reference package; pass only non-empty spans.
    """
    n_pred, n_gold = len(predicted), len(gold)
    options = [_candidates(span, gold) for span in predicted]
    if not any(options):
        return SpanCredit(0.0, n_pred, 0.0, n_gold)
    best = max(_pareto_front(options), key=lambda p: _key(p, n_pred, n_gold))
    return SpanCredit(best[0], n_pred, best[1], n_gold)


def _candidates(span: Span, gold: Sequence[Span]) -> list[tuple[int, float, float]]:
    """Return the gold spans ``span`` overlaps: (index, precision credit, recall credit)."""
    out = []
    for j, (start, end) in enumerate(gold):
        overlap = min(span[1], end) - max(span[0], start)
        if overlap > 0:
            out.append((j, overlap / (span[1] - span[0]), overlap / (end - start)))
    return out


def _pareto_front(options: list[list[tuple[int, float, float]]]) -> list[Point]:
    """Return the Pareto-optimal (precision credit, recall credit) of all matchings.

    Predicted spans are taken in turn; a state remembers which gold spans that
    later predicted spans could still take are used, so only those distinguish
    states, and each state keeps its non-dominated points.
    """
    later: list[set[int]] = [set() for _ in range(len(options) + 1)]
    for i in range(len(options) - 1, -1, -1):
        later[i] = later[i + 1] | {j for j, _, _ in options[i]}
    states: dict[frozenset[int], list[Point]] = {frozenset(): [(0.0, 0.0)]}
    for i, choices in enumerate(options):
        grown: dict[frozenset[int], list[Point]] = {}
        for used, points in states.items():
            keep = used & later[i + 1]
            grown.setdefault(keep, []).extend(points)  # this span stays unmatched
            for j, p_credit, r_credit in choices:
                if j not in used:
                    key = (used | {j}) & later[i + 1]
                    grown.setdefault(key, []).extend(
                        (a + p_credit, b + r_credit) for a, b in points
                    )
        states = {key: _non_dominated(points) for key, points in grown.items()}
    return [point for points in states.values() for point in points]


def _non_dominated(points: list[Point]) -> list[Point]:
    """Keep the points no other point beats or equals in both coordinates."""
    out: list[Point] = []
    for a, b in sorted(set(points), key=lambda p: (-p[0], -p[1])):
        if not out or b > out[-1][1]:
            out.append((a, b))
    return out


def _key(point: Point, n_pred: int, n_gold: int) -> tuple[float, float, float, float]:
    """The reference package's objective: F, then P + R, then P, then R.

    Rounded to 12 decimals: the package compares with a tolerance of 1e-12, so
    sums of the same credits in another order still tie.
    """
    precision = point[0] / n_pred if n_pred else 1.0
    recall = point[1] / n_gold if n_gold else 1.0
    values = (_harmonic(precision, recall), precision + recall, precision, recall)
    return (round(values[0], 12), round(values[1], 12), round(values[2], 12), round(values[3], 12))


def merge_spans(spans: Iterable[Span]) -> tuple[Span, ...]:
    """Return the union of ``spans``: spans sharing a character merged, empty ones dropped.

    Spans that only touch (one ends where the next starts) stay apart.
    """
    merged: list[list[int]] = []
    for start, end in sorted(s for s in spans if s[0] < s[1]):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple((start, end) for start, end in merged)


@dataclass(frozen=True, slots=True, eq=False)
class SpanColumns:
    """Spans of many segments in one coordinate: offsets in the lines joined end to end.

    Within a segment the spans must be disjoint; all are sorted by start.

    Attributes:
        segments: (S,) each span's segment.
        starts / ends: (S,) the span's characters, end exclusive (ends > starts).
    """

    segments: IntArray
    starts: IntArray
    ends: IntArray


def columnar_credit(predicted: SpanColumns, gold: SpanColumns) -> SpanCredit:
    """Return the micro-summed MPP credit of two sets of disjoint, sorted spans.

    Segments where some span overlaps two of the other side are matched by
    :func:`segment_credit`; in all others every overlapping pair is matched,
    which is then the best matching (each pair adds to both credits).
    """
    p_lo = np.searchsorted(gold.ends, predicted.starts, side="right")
    p_hi = np.searchsorted(gold.starts, predicted.ends, side="left")
    g_lo = np.searchsorted(predicted.ends, gold.starts, side="right")
    g_hi = np.searchsorted(predicted.starts, gold.ends, side="left")
    tangled = np.union1d(predicted.segments[p_hi - p_lo > 1], gold.segments[g_hi - g_lo > 1])
    pairs = (p_hi - p_lo == 1) & ~np.isin(predicted.segments, tangled)
    j = p_lo[pairs]
    p_start, p_end = predicted.starts[pairs], predicted.ends[pairs]
    overlap = np.minimum(p_end, gold.ends[j]) - np.maximum(p_start, gold.starts[j])
    total = SpanCredit(
        float(np.sum(overlap / (p_end - p_start))),
        len(predicted.starts),
        float(np.sum(overlap / (gold.ends[j] - gold.starts[j]))),
        len(gold.starts),
    )
    for segment in tangled.tolist():
        credit = segment_credit(_spans_of(predicted, segment), _spans_of(gold, segment))
        total += SpanCredit(credit.precision_credit, 0, credit.recall_credit, 0)
    return total


def _spans_of(columns: SpanColumns, segment: int) -> list[Span]:
    """Return one segment's spans as pairs (segments are sorted)."""
    lo, hi = np.searchsorted(columns.segments, [segment, segment + 1])
    return list(zip(columns.starts[lo:hi].tolist(), columns.ends[lo:hi].tolist(), strict=True))
