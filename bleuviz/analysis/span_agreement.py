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
because F grows with both. For a whole system at once (:func:`columnar_credit`),
segments with at most one span overlapping several are solved on arrays (every
lone pair taken, the best of the centre's pairs chosen); only the others are
searched one by one. Deviation in the input only: the objective is compared at
12 decimals where the package uses a tolerance of 1e-12.
tests/analysis/test_span_agreement.py holds both to a brute-force enumeration.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from bleuviz.arrays import FloatArray, IntArray

Span = tuple[int, int]
BoolArray = NDArray[np.bool_]
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

    With both sides disjoint, a span overlaps a run of the other side's spans,
    and those inside it overlap nothing else, so most segments are simple: a pair
    whose spans overlap nothing else is in every best matching (it adds to both
    credits); where one span (a *centre*) overlaps several, at most one of its
    pairs can be taken, and with a single centre in the segment the best is the
    pair giving the best objective, chosen on arrays. Segments with two centres
    or more are matched by :func:`segment_credit`.
    """
    edges = _Edges.of(predicted, gold)
    n_seg = int(max(predicted.segments.max(initial=-1), gold.segments.max(initial=-1))) + 1
    centres = np.bincount(predicted.segments[edges.p_deg > 1], minlength=n_seg)
    centres += np.bincount(gold.segments[edges.g_deg > 1], minlength=n_seg)
    kept = centres[edges.segment] <= 1
    simple = kept & edges.alone
    single = kept & ~edges.alone
    base_a = _sums(edges.segment[simple], edges.p_credit[simple], n_seg)
    base_b = _sums(edges.segment[simple], edges.r_credit[simple], n_seg)
    chosen = _best_pairs(edges, single, base_a, base_b, predicted, gold, n_seg)
    total = SpanCredit(
        float(base_a.sum() + edges.p_credit[chosen].sum()),
        len(predicted.starts),
        float(base_b.sum() + edges.r_credit[chosen].sum()),
        len(gold.starts),
    )
    tangled = np.flatnonzero(centres > 1)
    for pred, ref in zip(_by_segment(predicted, tangled), _by_segment(gold, tangled), strict=True):
        credit = segment_credit(pred, ref)
        total += SpanCredit(credit.precision_credit, 0, credit.recall_credit, 0)
    return total


def _sums(segments: IntArray, values: FloatArray, n_seg: int) -> FloatArray:
    """Sum ``values`` per segment."""
    return np.bincount(segments, weights=values, minlength=n_seg).astype(np.float64)


@dataclass(frozen=True, slots=True, eq=False)
class _Edges:
    """Every overlapping (predicted, gold) pair, with both credits and the degrees."""

    segment: IntArray
    p_credit: FloatArray
    r_credit: FloatArray
    alone: BoolArray  # the pair's spans overlap nothing else
    p_deg: IntArray  # per predicted span: gold spans it overlaps
    g_deg: IntArray  # per gold span: predicted spans it overlaps

    @classmethod
    def of(cls, predicted: SpanColumns, gold: SpanColumns) -> _Edges:
        """Find the pairs: a span overlaps the other side's spans lo..hi-1 (sorted searches)."""
        p_lo = np.searchsorted(gold.ends, predicted.starts, side="right")
        p_deg = np.maximum(np.searchsorted(gold.starts, predicted.ends, side="left") - p_lo, 0)
        g_lo = np.searchsorted(predicted.ends, gold.starts, side="right")
        g_deg = np.maximum(np.searchsorted(predicted.starts, gold.ends, side="left") - g_lo, 0)
        pred = np.repeat(np.arange(len(p_deg)), p_deg)
        firsts = np.concatenate(([0], np.cumsum(p_deg)))[:-1]
        g = p_lo[pred] + np.arange(len(pred)) - firsts[pred]
        p_start, p_end = predicted.starts[pred], predicted.ends[pred]
        overlap = np.minimum(p_end, gold.ends[g]) - np.maximum(p_start, gold.starts[g])
        return cls(
            predicted.segments[pred],
            overlap / (p_end - p_start),
            overlap / (gold.ends[g] - gold.starts[g]),
            (p_deg[pred] == 1) & (g_deg[g] == 1),
            p_deg,
            g_deg,
        )


def _best_pairs(
    edges: _Edges,
    single: BoolArray,
    base_a: FloatArray,
    base_b: FloatArray,
    predicted: SpanColumns,
    gold: SpanColumns,
    n_seg: int,
) -> IntArray:
    """Return, for each segment with one centre, its pair with the best objective."""
    idx = np.flatnonzero(single)
    if len(idx) == 0:
        return idx
    seg = edges.segment[idx]
    n_pred = np.bincount(predicted.segments, minlength=n_seg)[seg]
    n_gold = np.bincount(gold.segments, minlength=n_seg)[seg]
    precision = (base_a[seg] + edges.p_credit[idx]) / n_pred
    recall = (base_b[seg] + edges.r_credit[idx]) / n_gold
    total = precision + recall
    f = np.divide(2 * precision * recall, total, out=np.zeros_like(total), where=total > 0)
    keys = [np.round(v, 12) for v in (recall, precision, total, f)]
    order = np.lexsort((*keys, seg))  # by segment, then the objective ascending
    last = np.concatenate((seg[order][1:] != seg[order][:-1], [True]))
    return np.asarray(idx[order[last]], dtype=np.int64)


def _by_segment(columns: SpanColumns, segments: IntArray) -> list[list[Span]]:
    """Return the spans of each of ``segments`` (sorted), as lists of pairs."""
    lo = np.searchsorted(columns.segments, segments, side="left")
    hi = np.searchsorted(columns.segments, segments, side="right")
    keep = np.repeat(lo - np.concatenate(([0], np.cumsum(hi - lo)))[:-1], hi - lo)
    keep += np.arange(len(keep))
    pairs = list(zip(columns.starts[keep].tolist(), columns.ends[keep].tolist(), strict=True))
    cuts = np.concatenate(([0], np.cumsum(hi - lo))).tolist()
    return [pairs[a:b] for a, b in pairwise(cuts)]
