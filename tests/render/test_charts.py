"""The sentence-BLEU box plot is sent as box statistics, which must describe the scores.

Oracle: numpy's percentiles (type 7) and Tukey's 1.5 IQR rule, computed here by hand.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuviz.render.charts import OUTLIER_DECIMALS, box_summary, sentence_score_boxes


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        # q1/median/q3 at positions 1.25, 2.5, 3.75 of 0..5; 100 lies beyond q3 + 1.5 IQR.
        ([0, 1, 2, 3, 4, 100], (1.25, 2.5, 3.75, 0.0, 4.0, 110 / 6, (100.0,))),
        ([7.0], (7.0, 7.0, 7.0, 7.0, 7.0, 7.0, ())),
        # The whisker never ends inside the box: the upper one stays at q3.
        ([0.0, 0.0, 0.0, 100.0], (0.0, 0.0, 25.0, 0.0, 25.0, 25.0, (100.0,))),
    ],
)
def test_box_summary_by_hand(values: list[float], expected: tuple[object, ...]) -> None:
    box = box_summary(values)
    got = (box.q1, box.median, box.q3, box.lowerfence, box.upperfence, box.mean, box.outliers)
    assert got[:6] == pytest.approx(expected[:6], abs=1e-12)
    assert got[6] == expected[6]


def test_box_summary_of_nothing_is_nan() -> None:
    box = box_summary([math.nan])
    assert math.isnan(box.median) and box.outliers == ()


@given(st.lists(st.floats(0, 100), min_size=1, max_size=200))
def test_every_score_is_in_the_whiskers_or_an_outlier(values: list[float]) -> None:
    box = box_summary(values)
    y = np.asarray(values)
    assert box.lowerfence <= box.q1 <= box.median <= box.q3 <= box.upperfence
    assert box.median == pytest.approx(float(np.median(y)))
    assert box.mean == pytest.approx(float(y.mean()))
    outside = y[(y < box.lowerfence) | (y > box.upperfence)]
    assert set(np.round(outside, OUTLIER_DECIMALS).tolist()) == set(box.outliers)
    iqr = box.q3 - box.q1
    assert all(v < box.q1 - 1.5 * iqr or v > box.q3 + 1.5 * iqr for v in outside)


def test_the_figure_carries_statistics_not_every_score() -> None:
    rng = np.random.default_rng(3)
    scores = {"a": rng.uniform(0, 100, 50_000), "b": np.r_[rng.normal(30, 2, 999), 100.0]}
    fig = sentence_score_boxes(scores)
    boxes = [t for t in fig.data if isinstance(t, go.Box)]
    points = [t for t in fig.data if isinstance(t, go.Scatter)]
    assert [b.name for b in boxes] == ["a", "b"]
    assert all(b.y is None for b in boxes)
    assert boxes[0].median == pytest.approx([float(np.median(scores["a"]))])
    assert list(points[1].y) == list(box_summary(scores["b"]).outliers)
    assert 100.0 in points[1].y
    assert len(fig.to_json()) < 20_000
