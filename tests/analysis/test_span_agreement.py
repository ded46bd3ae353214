"""Tests of bleuviz.analysis.span_agreement: MPP, micro-averaged (Perrella et al., 2026).

Golden numbers are worked by hand from the definition in span-mt-metrics-eval
(``scoring/one_to_one.py``: a matched pair adds overlap / predicted length to the
precision credit and overlap / gold length to the recall credit; the matching
maximizes the segment's F). Generated cases are checked against ``mpp_oracle``,
which enumerates every matching on character sets.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.analysis.span_agreement import (
    SpanColumns,
    SpanCredit,
    columnar_credit,
    merge_spans,
    segment_credit,
    span_agreement,
)
from tests.analysis import mpp_oracle as oracle

Span = tuple[int, int]


def test_worked_example_partial_credit() -> None:
    # "the quick brown fox": gold "quick" (4, 9) and "fox" (16, 19);
    # predicted "quick brown" (4, 15) and "fox" (16, 19).
    credit = segment_credit([(4, 15), (16, 19)], [(4, 9), (16, 19)])
    assert credit == SpanCredit(5 / 11 + 1, 2, 1 + 1, 2)
    assert credit.precision == pytest.approx((5 / 11 + 1) / 2)
    assert credit.recall == 1.0
    p = (5 / 11 + 1) / 2
    assert credit.f1 == pytest.approx(2 * p / (p + 1))


def test_best_matching_is_not_the_greedy_one() -> None:
    # Predicted A (0, 10) overlaps gold x (0, 4) by 4 and y (6, 12) by 4; B (11, 13)
    # overlaps only y, by 1. Giving y to A (greedy by overlap: 4 > 1) leaves B and x
    # unmatched (P = 0.4 / 2, R = (4/6) / 2); A-x and B-y give P = (0.4 + 0.5) / 2 and
    # R = (1 + 1/6) / 2, the better F.
    credit = segment_credit([(0, 10), (11, 13)], [(0, 4), (6, 12)])
    assert credit.precision_credit == pytest.approx(0.4 + 0.5)
    assert credit.recall_credit == pytest.approx(1 + 1 / 6)


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        ([], [], (1.0, 1.0, 1.0)),  # the package's convention: empty denominators give 1
        ([(0, 3)], [], (0.0, 1.0, 0.0)),
        ([], [(0, 3)], (1.0, 0.0, 0.0)),
        ([(0, 3)], [(3, 6)], (0.0, 0.0, 0.0)),  # touching is no overlap
        ([(0, 4)], [(0, 4)], (1.0, 1.0, 1.0)),
    ],
)
def test_edge_cases(
    predicted: list[Span], gold: list[Span], expected: tuple[float, float, float]
) -> None:
    credit = span_agreement([predicted], [gold])
    assert (credit.precision, credit.recall, credit.f1) == pytest.approx(expected)


def test_micro_averaging_sums_before_dividing() -> None:
    # Segment 1: one exact hit. Segment 2: three predictions, no gold. Micro P = 1/4
    # (a macro average of segment precisions would give (1 + 0) / 2).
    credit = span_agreement([[(0, 2)], [(0, 1), (2, 3), (4, 5)]], [[(0, 2)], []])
    assert credit.precision == pytest.approx(1 / 4)
    assert credit.recall == 1.0


def spans_in(limit: int) -> st.SearchStrategy[list[Span]]:
    """0-4 non-empty spans within ``limit`` characters (they may overlap)."""
    span = st.tuples(st.integers(0, limit - 1), st.integers(1, 5)).map(
        lambda t: (t[0], min(limit, t[0] + t[1]))
    )
    return st.lists(span, max_size=4)


@settings(max_examples=300, deadline=None)
@given(predicted=spans_in(20), gold=spans_in(20))
def test_segment_credit_equals_brute_force(predicted: list[Span], gold: list[Span]) -> None:
    credit = segment_credit(predicted, gold)
    a, b = oracle.segment(predicted, gold)
    assert credit.precision_credit == pytest.approx(a)
    assert credit.recall_credit == pytest.approx(b)
    assert (credit.predicted, credit.gold) == (len(predicted), len(gold))


@settings(max_examples=200, deadline=None)
@given(spans=spans_in(30))
def test_merge_spans_is_the_union(spans: list[Span]) -> None:
    merged = merge_spans(spans)
    assert list(merged) == oracle.union(spans)
    covered = set().union(*(oracle.chars(s) for s in spans)) if spans else set()
    assert set().union(*(oracle.chars(s) for s in merged)) == covered


def columns(per_segment: list[tuple[Span, ...]], width: int) -> SpanColumns:
    """Lay each segment's spans out at ``width`` characters a segment."""
    rows = [
        (i, i * width + s, i * width + e) for i, spans in enumerate(per_segment) for s, e in spans
    ]
    table = np.array(rows, dtype=np.int64).reshape(-1, 3)
    return SpanColumns(table[:, 0], table[:, 1], table[:, 2])


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(1, 5))
def test_columnar_credit_equals_per_segment(data: st.DataObject, n: int) -> None:
    predicted = [merge_spans(data.draw(spans_in(20))) for _ in range(n)]
    gold = [merge_spans(data.draw(spans_in(20))) for _ in range(n)]
    fast = columnar_credit(columns(predicted, 20), columns(gold, 20))
    slow = span_agreement(predicted, gold)
    assert (fast.predicted, fast.gold) == (slow.predicted, slow.gold)
    assert fast.precision_credit == pytest.approx(slow.precision_credit)
    assert fast.recall_credit == pytest.approx(slow.recall_credit)
    p, r, f = oracle.micro(predicted, gold)
    assert (fast.precision, fast.recall, fast.f1) == pytest.approx((p, r, f))


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        # one centre (a predicted span over two gold spans) beside a lone pair
        ([(0, 10), (12, 14)], [(0, 2), (4, 10), (12, 14)]),
        # one centre (a gold span over three predicted spans)
        ([(0, 1), (2, 3), (4, 9)], [(0, 9)]),
        # two centres: a chain predicted-gold-predicted-gold
        ([(0, 4), (6, 10)], [(3, 7), (9, 12)]),
    ],
)
def test_columnar_paths_equal_segment_credit(predicted: list[Span], gold: list[Span]) -> None:
    fast = columnar_credit(columns([tuple(predicted)], 20), columns([tuple(gold)], 20))
    slow = segment_credit(predicted, gold)
    assert fast.precision_credit == pytest.approx(slow.precision_credit)
    assert fast.recall_credit == pytest.approx(slow.recall_credit)
    assert slow.precision_credit > 0
