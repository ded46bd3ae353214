"""Paired tests on imported segment scores (bleuviz.significance.mean).

Oracle: a straightforward re-implementation of sacrebleu 2.6.0's ``PairedTest``
procedure (sacrebleu/significance.py: ``_bootstrap_resample``, ``_paired_bs_test``,
``_paired_ar_test``, ``estimate_ci``, ``_compute_p_value``) written below one
sample at a time, with the segment score as the only statistic and the mean as
the corpus score, in float64 as the issue asks (sacrebleu itself sums float32).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.errors import InputError
from bleuviz.significance.mean import compare_means


def oracle(base: np.ndarray, system: np.ndarray, n_bs: int, n_ar: int, seed: int) -> dict:
    """sacrebleu's paired bootstrap, AR and CIs, spelled out on means."""
    n = len(base)
    idx = np.random.default_rng(seed).choice(n, size=(n_bs, n), replace=True)
    bs_base = np.array([base[i].sum() / n for i in idx])
    bs_sys = np.array([system[i].sum() / n for i in idx])
    real = abs(base.sum() / n - system.sum() / n)

    def p_value(stats: np.ndarray, observed: float) -> float:
        return (int(np.sum(stats > observed)) + 1) / (len(stats) + 1)

    def ci(samples: np.ndarray) -> tuple[float, float]:
        ordered = np.sort(samples)
        lower = len(ordered) // 40
        upper = len(ordered) - lower - 1
        return float(ordered.mean()), float(0.5 * (ordered[upper] - ordered[lower]))

    diffs = np.abs(bs_sys - bs_base)
    pos = np.random.default_rng(seed).integers(2, size=(n_ar, n), dtype=bool)
    a = np.array([(np.where(m, base, system)).sum() / n for m in pos])
    b = np.array([(np.where(m, system, base)).sum() / n for m in pos])
    return {
        "base_ci": ci(bs_base),
        "sys_ci": ci(bs_sys),
        "p_bs": p_value(diffs - diffs.mean(), real),
        "p_ar": p_value(np.abs(a - b), real),
    }


# Multiples of 1/1024: their sums are exact in float64 in any order, so a trial that
# ties the observed difference ties in both computations. With arbitrary floats the
# driver's sums (system total + mask @ differences) and the spelled-out ones can
# round apart by an ulp, which decides a tie only in degenerate trials (one segment).
dyadic = st.integers(-100 * 1024, 100 * 1024).map(lambda k: k / 1024)
scores = st.lists(st.tuples(dyadic, dyadic), min_size=1, max_size=40)


@settings(max_examples=40, deadline=None)
@given(pairs=scores, seed=st.integers(0, 2**32 - 1))
def test_means_equal_the_spelled_out_procedure(pairs: list[tuple[float, float]], seed: int) -> None:
    base, system = (np.array(column) for column in zip(*pairs, strict=True))
    expected = oracle(base, system, 200, 320, seed)
    (b, s) = compare_means("A", base, {"B": system}, 200, 320, seed)
    assert b.result.score == pytest.approx(base.mean(), abs=1e-9)
    assert s.result.score == pytest.approx(system.mean(), abs=1e-9)
    assert (b.result.mean, b.result.ci) == pytest.approx(expected["base_ci"], abs=1e-9)
    assert (s.result.mean, s.result.ci) == pytest.approx(expected["sys_ci"], abs=1e-9)
    assert s.result.p_value_bs == pytest.approx(expected["p_bs"])
    assert s.result.p_value_ar == pytest.approx(expected["p_ar"])
    assert b.n_segments == s.n_segments == len(pairs)


def test_integer_ratings_with_ties_match_exactly() -> None:
    """Human ratings are integers: trials tie the observed difference often."""
    rng = np.random.default_rng(7)
    base = rng.integers(0, 5, 60).astype(float)
    system = base.copy()
    system[:6] += 1
    expected = oracle(base, system, 1000, 2000, 12345)
    s = compare_means("A", base, {"B": system}, 1000, 2000, 12345)[1].result
    assert (s.p_value_bs, s.p_value_ar) == (expected["p_bs"], expected["p_ar"])


def test_pairs_use_the_segments_both_systems_scored() -> None:
    rng = np.random.default_rng(3)
    base, b, c = rng.normal(size=(3, 50))
    b[::5] = np.nan
    c[1::7] = np.nan
    base[2] = np.nan
    rows = compare_means("A", base, {"B": b, "C": c}, 300, 640, 99)
    assert [r.n_segments for r in rows] == [49, 39, 42]
    for row, own in zip(rows[1:], (b, c), strict=True):
        mask = ~(np.isnan(base) | np.isnan(own))
        expected = oracle(base[mask], own[mask], 300, 640, 99)
        assert row.result.score == pytest.approx(own[mask].mean(), abs=1e-12)
        assert row.result.p_value_ar == pytest.approx(expected["p_ar"])
        assert (row.result.mean, row.result.ci) == pytest.approx(expected["sys_ci"], abs=1e-12)


def test_a_joint_run_equals_separate_pairs_without_missing_scores() -> None:
    """sacrebleu runs every system from a fresh generator: pairs and one run agree."""
    rng = np.random.default_rng(5)
    base, b, c = rng.normal(size=(3, 30))
    joint = compare_means("A", base, {"B": b, "C": c}, 100, 64, 1)
    alone = compare_means("A", base, {"C": c}, 100, 64, 1)
    assert joint[2] == alone[1]


def test_no_common_segment_or_other_lengths_are_refused() -> None:
    with pytest.raises(InputError, match="no segment has a score for A, B"):
        compare_means("A", np.array([1.0, np.nan]), {"B": np.array([np.nan, 2.0])}, 10, 0, 1)
    with pytest.raises(InputError, match="B: 1 segment scores but A has 2"):
        compare_means("A", np.array([1.0, 2.0]), {"B": np.array([2.0])}, 10, 0, 1)


def test_systems_on_the_same_segments_run_together_in_the_given_order() -> None:
    """B and D share their missing segments and run jointly; C alone; rows keep the order."""
    rng = np.random.default_rng(8)
    base, b, c, d = rng.normal(size=(4, 40))
    b[::6] = d[::6] = np.nan
    c[1::5] = np.nan
    rows = compare_means("A", base, {"B": b, "C": c, "D": d}, 120, 96, 4)
    assert [r.result.name for r in rows] == ["A", "B", "C", "D"]
    for row, (name, own) in zip(rows[1:], (("B", b), ("C", c), ("D", d)), strict=True):
        assert row == compare_means("A", base, {name: own}, 120, 96, 4)[1]
