"""Correlation of metrics with human scores (bleuviz.analysis.correlation).

Oracles: scipy 1.17's ``pearsonr`` and ``kendalltau`` (tau-b) called directly on
the oriented values, a pairwise accuracy counted by hand from its definition
(Kocmi et al., 2021), and small cases worked out on paper.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from bleuviz.analysis.correlation import MetricView, correlate, pairwise_accuracy

SYSTEMS = ("A", "B", "C", "D")


def view(
    name: str, corpus: list[float], sentence: list[list[float]], higher: bool = True
) -> MetricView:
    """Build a view over SYSTEMS from plain lists."""
    return MetricView(
        name,
        dict(zip(SYSTEMS, corpus, strict=False)),
        {s: np.array(v, dtype=float) for s, v in zip(SYSTEMS, sentence, strict=False)},
        higher,
    )


def test_worked_example() -> None:
    human = view("human", [1.0, 2.0, 3.0, 4.0], [[1, 2], [2, np.nan], [3, 1], [4, 4]])
    metric = view("m", [10.0, 30.0, 20.0, 40.0], [[5, 6], [1, 9], [7, 2], [8, 8]])
    result = correlate(metric, human)
    # Pairs: (A,B) +,+ (A,C) +,+ (A,D) +,+ (B,C) -,+ (B,D) +,+ (C,D) +,+ -> 5 of 6.
    assert result.pairwise_accuracy == pytest.approx(5 / 6)
    assert result.system_kendall == pytest.approx(4 / 6)  # 5 concordant, 1 discordant
    assert result.system_pearson == pytest.approx(stats.pearsonr([10, 30, 20, 40], [1, 2, 3, 4])[0])
    # Segments with a human score: A(1,2) B(2) C(3,1) D(4,4) -> 7 pairs.
    assert result.n_segments == 7 and result.n_systems == 4
    expected = stats.kendalltau([5, 6, 1, 7, 2, 8, 8], [1, 2, 2, 3, 1, 4, 4]).statistic
    assert result.segment_kendall == pytest.approx(expected)


def test_lower_is_better_metrics_are_negated() -> None:
    human = view("human", [1.0, 2.0, 3.0], [[1], [2], [3]])
    ter = view("TER", [30.0, 20.0, 10.0], [[3], [2], [1]], higher=False)
    result = correlate(ter, human)
    assert result.system_pearson == pytest.approx(1.0)
    assert result.pairwise_accuracy == 1.0 and result.segment_kendall == pytest.approx(1.0)


def test_undefined_statistics_are_none() -> None:
    human = view("human", [1.0, 1.0], [[1], [1]])
    result = correlate(view("m", [1.0, 2.0], [[1], [2]]), human)
    assert result.system_pearson is None and result.segment_kendall is None
    one = correlate(view("m", [1.0], [[1]]), view("h", [2.0], [[2]]))
    assert one.system_kendall is None and one.pairwise_accuracy is None


def test_systems_without_a_human_score_are_left_out() -> None:
    human = MetricView("h", {"A": 1.0, "B": 2.0}, {"A": np.array([1.0]), "B": np.array([2.0])})
    metric = view("m", [1.0, 2.0, 9.0], [[1], [2], [9]])
    assert correlate(metric, human).n_systems == 2


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=2, max_size=12))
def test_against_scipy_and_the_definition(pairs: list[tuple[int, int]]) -> None:
    m, h = (np.array(c, dtype=float) for c in zip(*pairs, strict=True))
    names = [f"s{i}" for i in range(len(pairs))]
    metric = MetricView(
        "m",
        dict(zip(names, m, strict=True)),
        {n: np.array([v]) for n, v in zip(names, m, strict=True)},
    )
    human = MetricView(
        "h",
        dict(zip(names, h, strict=True)),
        {n: np.array([v]) for n, v in zip(names, h, strict=True)},
    )
    result = correlate(metric, human)
    same = [
        np.sign(m[i] - m[j]) == np.sign(h[i] - h[j])
        for i in range(len(m))
        for j in range(i + 1, len(m))
    ]
    assert result.pairwise_accuracy == pytest.approx(sum(same) / len(same))
    assert pairwise_accuracy(m, h) == result.pairwise_accuracy
    if np.ptp(m) > 0 and np.ptp(h) > 0:
        assert result.system_pearson == pytest.approx(stats.pearsonr(m, h).statistic)
        assert result.system_kendall == pytest.approx(stats.kendalltau(m, h).statistic)
        assert result.segment_kendall == pytest.approx(stats.kendalltau(m, h).statistic)
    else:
        assert result.system_pearson is None
