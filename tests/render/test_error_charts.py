"""Figures of human error spans (``bleuviz.render.error_charts``): traces, and names inert."""

from __future__ import annotations

import html

import pytest
from scipy import stats

from bleuviz.analysis.error_reports import wilson_interval
from bleuviz.analysis.error_tokens import OrderCounts
from bleuviz.render.error_charts import error_category_bars, flag_rate_bars

HOSTILE = "<b>x</b> %{y}"


def test_category_bars_stack_one_trace_per_category() -> None:
    systems = ["A", HOSTILE]
    counts = {"Accuracy": [0.5, 0.25], HOSTILE: [0.1, 0.0]}
    fig = error_category_bars(systems, counts, "errors per rating")
    assert fig.layout.barmode == "stack"
    assert [html.unescape(t.name) for t in fig.data] == ["Accuracy", HOSTILE]
    assert list(fig.data[0].x) == [0.5, 0.25]
    assert [html.unescape(y) for y in fig.data[1].y] == systems
    for trace in fig.data:  # no tag or template field from the data reaches Plotly
        assert "<b>" not in trace.name and "<b>" not in trace.hovertemplate
        assert all("<" not in y and "%{" not in y for y in trace.y)
        assert trace.hovertemplate.count("%{") == 2  # %{y} and %{x}: ours only


def test_flag_rate_bars_show_both_rates_and_their_difference() -> None:
    groups = {
        "all errors": OrderCounts(
            1, error_tokens=10, error_flagged=6, other_tokens=40, other_flagged=10
        ),
        "major": OrderCounts(1, error_tokens=4, error_flagged=3, other_tokens=40, other_flagged=10),
        "Locale convention": OrderCounts(1, 0, 0, 40, 10),  # no error token: left out
    }
    fig = flag_rate_bars(groups, 1)
    error, other = fig.data
    assert list(error.x) == ["all errors", "major"]
    assert list(error.y) == [60.0, 75.0]
    assert list(other.y) == [25.0, 25.0]
    assert list(error.text) == ["+35.0 pts", "+50.0 pts"]
    assert [row[0] for row in error.customdata] == ["all errors", "major"]  # a click's group
    assert [list(row[1:3]) for row in error.customdata] == [[6, 10], [3, 4]]


def test_flag_rate_bars_give_each_group_its_n_and_a_wilson_interval() -> None:
    # issue 44: a group of 10 tokens must not read like one of 6,198
    small = OrderCounts(1, error_tokens=10, error_flagged=6, other_tokens=6198, other_flagged=3100)
    large = OrderCounts(
        1, error_tokens=6198, error_flagged=3719, other_tokens=6198, other_flagged=3100
    )
    fig = flag_rate_bars({"Style": small, "all errors": large}, 1)
    error, other = fig.data
    assert list(fig.layout.xaxis.ticktext) == ["Style<br>n = 10", "all errors<br>n = 6,198"]
    assert list(fig.layout.xaxis.tickvals) == list(error.x)
    assert other.name == "other tokens flagged (n = 6,198)"
    for trace, counts in ((error, [(6, 10), (3719, 6198)]), (other, [(3100, 6198)] * 2)):
        for k, (flagged, n) in enumerate(counts):
            ci = stats.binomtest(flagged, n).proportion_ci(method="wilson")
            rate = 100 * flagged / n
            assert trace.error_y.array[k] == pytest.approx(100 * ci.high - rate)
            assert trace.error_y.arrayminus[k] == pytest.approx(rate - 100 * ci.low)
    # the small group's whiskers are far wider than the large one's
    assert error.error_y.array[0] > 10 * error.error_y.array[1]


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (0, 7), (3, 10), (999, 1000), (5, 6198)])
def test_wilson_interval_equals_scipys(k: int, n: int) -> None:
    ci = stats.binomtest(k, n).proportion_ci(method="wilson")
    assert wilson_interval(k, n) == pytest.approx((ci.low, ci.high))
