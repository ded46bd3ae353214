"""How many resamples a corrected test needs before it can find a difference at all.

sacrebleu's ``_compute_p_value`` returns (c + 1) / (n + 1), so a test of n
bootstrap resamples or randomization trials never gives a p-value below
1 / (n + 1). Holm's correction multiplies the smallest of m p-values by m, so
with m pairs no pair can be significant at ``alpha`` unless m / (n + 1) < alpha:
with sacrebleu's default 1,000 resamples and 13 systems (78 pairs) the smallest
adjusted p-value is 78 / 1,001 ≈ 0.078, and every system lands in one cluster.

``needed_resamples`` asks for ten times the bare minimum, so that the smallest
attainable adjusted p-value is alpha / 10 and a pair whose true p-value is near
alpha / m is not lost to the coarse grid of attainable values.
"""

from __future__ import annotations

import math

from bleuviz.limits import MAX_RESAMPLES

#: The smallest attainable corrected p-value is alpha divided by this.
HEADROOM = 10


def smallest_p_value(n_resamples: int) -> float:
    """The smallest p-value a test of ``n_resamples`` can give: 1 / (n + 1) (sacrebleu)."""
    return 1.0 / (n_resamples + 1)


def can_reach(n_resamples: int, n_tests: int, alpha: float) -> bool:
    """Whether Holm over ``n_tests`` p-values of ``n_resamples`` can ever fall below ``alpha``."""
    return n_tests * smallest_p_value(n_resamples) < alpha


def needed_resamples(n_tests: int, alpha: float, default: int) -> int:
    """Resamples for ``n_tests`` corrected tests: ``default``, or 10 m / alpha when more.

    Capped at ``bleuviz.limits.MAX_RESAMPLES`` (then ``can_reach`` may still say no).
    """
    wanted = math.ceil(HEADROOM * n_tests / alpha)
    return min(MAX_RESAMPLES, max(default, wanted))


def unreachable_note(test: str, n_resamples: int, n_tests: int, alpha: float) -> str:
    """One sentence saying why ``test`` cannot find a difference, and how many would do."""
    over = f"Holm's correction over {n_tests:,} pairs" if n_tests > 1 else "the test"
    return (
        f"{test}: with {n_resamples:,} resamples the smallest p-value is "
        f"1/{n_resamples + 1:,} ≈ {smallest_p_value(n_resamples):.2g}, so {over} "
        f"can never reach p < {alpha:g}; use at least {needed_resamples(n_tests, alpha, 1):,}"
    )
