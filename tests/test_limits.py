"""The documented maxima and their check (``bleuviz.limits``)."""

from __future__ import annotations

import pytest

from bleuviz.errors import ConfigError
from bleuviz.limits import MAX_CHRF_ORDER, MAX_RESAMPLES, check_count


@pytest.mark.parametrize(
    ("value", "minimum", "maximum", "message"),
    [
        (MAX_RESAMPLES + 1, 1, MAX_RESAMPLES, "at most 1,000,000"),
        (0, 1, MAX_RESAMPLES, "at least 1"),
        (-1, 0, MAX_CHRF_ORDER, "at least 0"),
        (2.5, 0, MAX_CHRF_ORDER, "must be an integer"),
        (True, 0, MAX_CHRF_ORDER, "must be an integer"),
    ],
)
def test_check_count_refuses_naming_the_option(
    value: int, minimum: int, maximum: int, message: str
) -> None:
    with pytest.raises(ConfigError, match=f"^--opt: .*{message}"):
        check_count("--opt", value, minimum, maximum)


@pytest.mark.parametrize("value", [1, MAX_RESAMPLES])
def test_check_count_returns_values_in_range(value: int) -> None:
    assert check_count("--opt", value, 1, MAX_RESAMPLES) == value
