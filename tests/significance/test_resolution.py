"""How many resamples Holm's correction needs (``bleuviz.significance.resolution``).

Oracle: sacrebleu 2.6.0's ``_compute_p_value``: with no resample above the observed
difference it returns its smallest value, which Holm multiplies by the number of tests.
"""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.significance import _compute_p_value

from bleuviz.limits import MAX_RESAMPLES
from bleuviz.significance.resolution import (
    can_reach,
    needed_resamples,
    smallest_p_value,
    unreachable_note,
)


@pytest.mark.parametrize("n", [1, 19, 20, 1000, 10_000])
def test_smallest_p_value_is_sacrebleus(n: int) -> None:
    assert smallest_p_value(n) == _compute_p_value(np.zeros(n), 0.0)


@pytest.mark.parametrize(("n_tests", "alpha"), [(1, 0.05), (3, 0.05), (78, 0.05), (190, 0.01)])
def test_needed_resamples_reach_alpha_and_the_default_may_not(n_tests: int, alpha: float) -> None:
    needed = needed_resamples(n_tests, alpha, 1000)
    assert n_tests * _compute_p_value(np.zeros(needed), 0.0) < alpha / 9.99
    assert can_reach(needed, n_tests, alpha)
    assert can_reach(1000, n_tests, alpha) == (n_tests / 1001 < alpha)


def test_thirteen_systems_cannot_use_a_thousand() -> None:
    """The issue's case: 78 pairs, 1,000 resamples, Holm at 0.05."""
    assert not can_reach(1000, 78, 0.05)
    assert "use at least 15,600" in unreachable_note("bs", 1000, 78, 0.05)


def test_needed_resamples_are_capped() -> None:
    assert needed_resamples(10**7, 0.05, 1000) == MAX_RESAMPLES
