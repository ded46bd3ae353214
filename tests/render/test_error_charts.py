"""Figures of human error spans (``bleuviz.render.error_charts``): traces, and names inert."""

from __future__ import annotations

import html

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
    assert [list(row[1:]) for row in error.customdata] == [[6, 10], [3, 4]]
