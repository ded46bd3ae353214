"""The comparison charts carry what they draw: every segment, counted once.

Oracles: brute-force counts over the inputs (which segment falls in which grid cell,
which gain in which bin), written out independently of the chart builders.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

from bleuviz.render.compare_charts import (
    EVERY_POINT_MAX,
    SCATTER_GRID,
    Axis,
    difference_histogram,
    sentence_scatter,
)

NAMES = ("A", "B")


def scores(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Sentence-BLEU-like scores on 2 decimals, a tenth of them exactly 0 (many ties)."""
    rng = np.random.default_rng(seed)
    a, b = np.round(rng.uniform(0, 100, n), 2), np.round(rng.uniform(0, 100, n), 2)
    zero = rng.random(n) < 0.1
    a[zero], b[zero] = 0.0, 0.0
    return a, b


def marker_traces(fig: go.Figure) -> list[Any]:
    """The point traces (the diagonal is a line)."""
    return [t for t in fig.data if t.mode == "markers"]


def test_a_few_segments_are_drawn_one_point_per_pair_of_scores_each_counted() -> None:
    a, b = scores(EVERY_POINT_MAX, seed=1)
    segments = list(range(1, len(a) + 1))
    points = marker_traces(sentence_scatter(a, b, segments, NAMES))
    together: dict[tuple[float, float], list[int]] = {}  # segments by their two scores
    for s in segments:
        together.setdefault((a[s - 1], b[s - 1]), []).append(s)
    drawn, sizes = 0, {}
    for trace in points:
        for x, y, seg, more, size in zip(
            trace.x, trace.y, trace.customdata, trace.text, trace.marker.size, strict=True
        ):
            here = together[(x, y)]
            assert seg == min(here)  # a point sits at its own segment, the first of them
            assert more == (f" (and {len(here) - 1} more here)" if len(here) > 1 else "")
            sizes[len(here)] = size
            drawn += len(here)
    assert drawn == len(a)  # every segment counted once, no point drawn twice
    assert len(together[(0.0, 0.0)]) > 1  # the ties at 0 are one point, drawn larger
    assert sizes[len(together[(0.0, 0.0)])] > sizes[1]


@pytest.mark.parametrize("n", [50, EVERY_POINT_MAX + 1])
def test_points_on_the_axes_edge_are_drawn_whole(n: int) -> None:
    # Found on MQM (tried on WMT17 en-de with an MQM-like file): most segments score 0, the
    # axes' top, and their point, grown with their number, was cut by the plot's edge.
    a, b = scores(n, seed=4)
    mqm = Axis("MQM", scale=25.0, floor=-25.0, top=0.0)
    fig = sentence_scatter(-a / 4, -b / 4, list(range(1, n + 1)), NAMES, mqm)
    points = marker_traces(fig)
    assert max(max(t.y, default=-25.0) for t in points) == 0.0  # points on the top edge
    assert all(t.cliponaxis is False for t in points)  # drawn whole, over the edge


@pytest.mark.parametrize("seed", [2, 3])
def test_many_segments_are_drawn_one_point_per_cell_and_each_is_counted(seed: int) -> None:
    a, b = scores(EVERY_POINT_MAX * 3, seed)
    segments = np.arange(1, len(a) + 1)
    points = marker_traces(sentence_scatter(a, b, segments.tolist(), NAMES))
    size = 100 / SCATTER_GRID  # BLEU's axis runs from 0 to 100 here

    def cell(x: float, y: float) -> tuple[int, int]:
        return math.floor(x / size), math.floor(y / size)

    drawn = 0
    for trace, outcome in zip(points, (b > a, b == a, b < a), strict=True):
        members: dict[tuple[int, int], list[int]] = {}
        for s in segments[outcome]:
            members.setdefault(cell(a[s - 1], b[s - 1]), []).append(int(s))
        data = np.asarray(trace.customdata)
        assert len(data) == len(members) < outcome.sum()  # fewer points than segments
        for x, y, (seg, others) in zip(trace.x, trace.y, data, strict=True):
            assert (x, y) == (a[seg - 1], b[seg - 1])  # a point sits at its own segment
            here = members[cell(x, y)]
            assert seg == min(here) and others == len(here) - 1
        drawn += len(data) + int(data[:, 1].sum())
    assert drawn == len(a)  # every segment counted once


def test_the_histogram_counts_every_gain_in_its_bin() -> None:
    rng = np.random.default_rng(4)
    gains = np.round(rng.normal(0, 20, 3000), 2)
    gains[:50] = 2.5  # on a bin's edge: it belongs to the bin that starts there
    gains[50:60] = np.nan  # no gain (an imported score missing): not counted
    bars = difference_histogram(gains, NAMES).data[0]
    finite = gains[np.isfinite(gains)]
    width = 5.0  # 5% of BLEU's scale
    for center, count, label in zip(bars.x, bars.y, bars.customdata, strict=True):
        low, high = center - width / 2, center + width / 2
        assert count == int(((finite >= low) & (finite < high)).sum())
        assert label == f"{low:g} to {high:g}"
    assert sum(bars.y) == len(finite)
    assert bars.y[list(bars.x).index(5.0)] >= 50  # 2.5 is the low edge of the bin around 5
