"""Figures of metrics against humans: names never clipped, overplotting handled."""

from __future__ import annotations

import numpy as np
import pytest

from bleuviz.render import human_charts
from bleuviz.render.human_charts import metric_vs_human_scatter, segment_scatter

SYSTEMS = [f"system-with-a-long-name-{i}" for i in range(13)]


def test_system_names_stay_inside_the_figure() -> None:
    rng = np.random.default_rng(3)
    metric, human = rng.uniform(20, 40, 13), rng.uniform(-8, -2, 13)
    fig = metric_vs_human_scatter(SYSTEMS, list(metric), list(human), "BLEU", "mqm")
    trace = fig.data[0]
    assert trace.cliponaxis is False  # a name may cross the plot area's edge
    x_low, x_high = fig.layout.xaxis.range
    y_low, y_high = fig.layout.yaxis.range
    x_span = np.ptp(metric)
    assert x_low < metric.min() - 0.1 * x_span and x_high > metric.max() + 0.1 * x_span
    # Names sit above their points: more room above the highest point than below the lowest.
    assert y_high - human.max() > human.min() - y_low > 0


def test_one_system_still_gets_a_range() -> None:
    fig = metric_vs_human_scatter(["A"], [30.0], [-3.0], "BLEU", "mqm")
    low, high = fig.layout.yaxis.range
    assert low < -3.0 < high


def test_segment_scatter_drops_unscored_pairs_and_is_translucent() -> None:
    metric = np.array([1.0, np.nan, 3.0, 4.0])
    human = np.array([0.0, -1.0, np.nan, -5.0])
    labels = ["A · 1", "A · 2", "<b>B</b> · 1", "B · 2"]
    fig = segment_scatter(metric, human, labels, "chrF", "mqm")
    trace = fig.data[0]
    assert list(trace.x) == [1.0, 4.0] and list(trace.y) == [0.0, -5.0]
    assert list(trace.text) == ["A · 1", "B · 2"]
    assert trace.marker.opacity < 0.5
    assert fig.layout.title.text == ""  # everything drawn: no sample to mention


def test_segment_scatter_samples_many_points_with_a_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(human_charts, "MAX_POINTS", 50)
    rng = np.random.default_rng(0)
    metric, human = rng.normal(size=500), rng.choice([0.0, -1.0, -5.0, -25.0], 500)
    labels = [f"s · {i}" for i in range(500)]
    first = segment_scatter(metric, human, labels, "BLEU", "<i>mqm</i>")
    again = segment_scatter(metric, human, labels, "BLEU", "<i>mqm</i>")
    assert len(first.data[0].x) == 50
    assert list(first.data[0].text) == list(again.data[0].text)  # the same sample each run
    index = [int(t.split(" · ")[1]) for t in first.data[0].text]
    assert list(first.data[0].x) == list(metric[index])
    assert first.layout.title.text == "50 of 500 segments, a random sample"
    assert "<i>" not in first.layout.yaxis.title.text
