"""Segment-level meta-evaluation (bleuviz.analysis.meta_eval) against independent oracles.

Oracles: scipy 1.17's ``kendalltau(variant="b")`` (the variant mt-metrics-eval's
``stats.Correlation.Kendall`` uses by default) called group by group with
mt-metrics-eval's averaging rules written out here (skip groups of fewer than
two scored pairs and undefined taus, plain mean); and acc_eq computed by brute
force from its definition (Deutsch et al., 2023): every candidate epsilon (0 and
each pair's metric difference) tried, each segment's pairs counted one by one.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from bleuviz.analysis.meta_eval import (
    grouped_kendall,
    is_human_reference,
    pairwise_accuracy_eq,
)


def scipy_mean_tau(rows_m: np.ndarray, rows_h: np.ndarray) -> float | None:
    """mt-metrics-eval's AverageCorrelation over rows, with scipy's tau-b."""
    taus = []
    for m, h in zip(rows_m, rows_h, strict=True):
        keep = ~(np.isnan(m) | np.isnan(h))
        if keep.sum() < 2:
            continue
        tau = stats.kendalltau(m[keep], h[keep], variant="b").statistic
        if not math.isnan(tau):
            taus.append(tau)
    return float(np.mean(taus)) if taus else None


def brute_acc_eq(m: np.ndarray, h: np.ndarray) -> tuple[float, float] | None:
    """acc_eq grouped by item, from its definition: (best accuracy, smallest best epsilon)."""
    items = []
    for seg in range(m.shape[1]):
        scored = [s for s in range(m.shape[0]) if not (np.isnan(m[s, seg]) or np.isnan(h[s, seg]))]
        pairs = [(m[a, seg], m[b, seg], h[a, seg], h[b, seg]) for a, b in combinations(scored, 2)]
        if pairs:
            items.append(pairs)
    if not items:
        return None
    candidates = sorted({0.0} | {abs(p[0] - p[1]) for pairs in items for p in pairs})

    def accuracy(eps: float) -> float:
        per_item = []
        for pairs in items:
            right = 0
            for m1, m2, h1, h2 in pairs:
                metric_tie = abs(m1 - m2) <= eps
                if metric_tie:
                    right += h1 == h2
                else:
                    right += (m1 - m2) * (h1 - h2) > 0
            per_item.append(right / len(pairs))
        return sum(per_item) / len(per_item)

    values = [accuracy(eps) for eps in candidates]
    best = max(values)
    first = next(i for i, v in enumerate(values) if math.isclose(v, best, abs_tol=1e-12))
    return best, candidates[first]


def brute_tied_share(m: np.ndarray, h: np.ndarray, eps: float) -> float:
    """The share of every segment's scored pairs whose metric difference is at most ``eps``."""
    diffs = [
        abs(m[a, seg] - m[b, seg])
        for seg in range(m.shape[1])
        for a, b in combinations(range(m.shape[0]), 2)
        if not np.isnan([m[a, seg], m[b, seg], h[a, seg], h[b, seg]]).any()
    ]
    return sum(d <= eps for d in diffs) / len(diffs)


def matrices(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """(systems, segments) matrices of small integers (many ties), some NaN."""
    n_sys = draw(st.integers(1, 6))
    n_seg = draw(st.integers(1, 7))
    cell = st.one_of(st.integers(-3, 3).map(float), st.just(math.nan))
    m = np.array(draw(st.lists(cell, min_size=n_sys * n_seg, max_size=n_sys * n_seg)))
    h = np.array(draw(st.lists(cell, min_size=n_sys * n_seg, max_size=n_sys * n_seg)))
    return m.reshape(n_sys, n_seg), h.reshape(n_sys, n_seg)


scored_matrices = st.composite(matrices)()


@settings(max_examples=150, deadline=None)
@given(scored_matrices)
def test_grouped_kendall_equals_scipy_group_by_group(mh: tuple[np.ndarray, np.ndarray]) -> None:
    m, h = mh
    for by, rows_m, rows_h in (("item", m.T, h.T), ("sys", m, h)):
        expected = scipy_mean_tau(rows_m, rows_h)
        got = grouped_kendall(m, h, by)
        assert (got is None) == (expected is None), by
        if expected is not None:
            assert got == pytest.approx(expected, abs=1e-12), by


@settings(max_examples=100, deadline=None)
@given(scored_matrices)
def test_no_grouping_is_scipy_over_every_scored_pair(mh: tuple[np.ndarray, np.ndarray]) -> None:
    m, h = mh
    keep = ~(np.isnan(m) | np.isnan(h))
    expected = scipy_mean_tau(m[keep][None, :], h[keep][None, :])
    got = grouped_kendall(m, h, "none")
    assert (got is None) == (expected is None)
    if expected is not None:
        assert got == pytest.approx(expected, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(scored_matrices)
def test_acc_eq_equals_brute_force(mh: tuple[np.ndarray, np.ndarray]) -> None:
    m, h = mh
    expected = brute_acc_eq(m, h)
    got = pairwise_accuracy_eq(m, h)
    assert (got is None) == (expected is None)
    if expected is not None and got is not None:
        assert got.accuracy == pytest.approx(expected[0], abs=1e-12)
        assert got.epsilon == expected[1]


@settings(max_examples=100, deadline=None)
@given(scored_matrices)
def test_acc_eq_says_which_share_of_pairs_its_epsilon_ties(
    mh: tuple[np.ndarray, np.ndarray],
) -> None:
    m, h = mh
    expected = brute_acc_eq(m, h)
    got = pairwise_accuracy_eq(m, h)
    if expected is not None and got is not None:
        assert got.tied == pytest.approx(brute_tied_share(m, h, expected[1]), abs=1e-12)


def test_acc_eq_on_real_valued_scores_equals_brute_force() -> None:
    rng = np.random.default_rng(7)
    h = rng.choice([0.0, -1.0, -5.0, -25.0], size=(5, 40))  # MQM-like: many human ties
    m = np.round(h + rng.normal(0, 4, size=h.shape), 1)
    m[2, 3] = np.nan
    expected = brute_acc_eq(m, h)
    got = pairwise_accuracy_eq(m, h)
    assert expected is not None and got is not None
    assert got.accuracy == pytest.approx(expected[0], abs=1e-12)
    assert got.epsilon == pytest.approx(expected[1])
    assert got.epsilon > 0  # with human ties this common, some calibration pays


def test_unknown_grouping_is_refused() -> None:
    with pytest.raises(ValueError, match="by"):
        grouped_kendall(np.zeros((2, 2)), np.zeros((2, 2)), "doc")


@pytest.mark.parametrize(
    ("name", "human"),
    [
        ("ref", True),
        ("refA", True),
        ("refB", True),
        ("ref-C", True),
        ("Human-A.0", True),
        ("human-P", True),
        ("refB.de", True),
        ("ref.en", True),
        ("reference-free", False),
        ("online-B.0.de", False),
        ("refinery", False),
        ("Lan-BridgeMT", False),
        ("GPT4-5shot", False),
    ],
)
def test_human_references_are_known_by_name(name: str, human: bool) -> None:
    assert is_human_reference(name) is human
