"""Plotly figures comparing two systems: pure functions of scores, no Streamlit.

System A (the baseline) and system B keep the same two colours in every figure.
Figures meant to be clicked carry what a click must open in ``customdata``:
the segment number (from 1) on the scatter and the bucket label on the bucket bars.
System names and imported metrics' labels come from the data: they reach
Plotly escaped (``inert_text``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from bleuviz.analysis.buckets import TIE_TOLERANCE, WinTieLoss
from bleuviz.arrays import FloatArray
from bleuviz.render.inert import inert_text

COLOR_A = "#1c7ed6"
COLOR_B = "#e8590c"
COLOR_TIE = "#868e96"
_MARGIN = {"t": 30, "b": 40, "l": 50, "r": 20}


@dataclass(frozen=True, slots=True)
class Axis:
    """What the sentence scores are: a label, their range and their direction.

    ``scale`` is the nominal maximum (100 for BLEU, 1 for ROUGE) and ``floor``
    the lowest value shown (0, or below for an imported score such as MQM);
    ``top`` the highest value the scatter shows (None: ``scale``; an imported
    score's highest, so that MQM, never positive, stops at 0); ``digits`` the
    decimals of its values (``MetricSpec.digits``).
    """

    label: str = "sentence BLEU"
    scale: float = 100.0
    higher_is_better: bool = True
    floor: float = 0.0
    top: float | None = None
    digits: int = 2


BLEU_AXIS = Axis()

#: Up to this many segments the scatter draws every one. Above, it draws one point per cell
#: of a ``SCATTER_GRID`` x ``SCATTER_GRID`` grid over its axes: a cell is about 4 px wide,
#: under the 8-px marker, so the picture is the same, and chromium drew the tab of 100,000
#: segments x 2 systems (one SVG node a point) in 22 s.
EVERY_POINT_MAX = 5_000
SCATTER_GRID = 100


def sentence_scatter(
    score_a: FloatArray,
    score_b: FloatArray,
    segments: Sequence[int],
    names: tuple[str, str],
    axis: Axis = BLEU_AXIS,
) -> go.Figure:
    """Scatter sentence scores of A (x) against B (y), one trace per outcome, y = x drawn.

    ``customdata`` of every point is its segment number, so a click can open it.
    Segments with the same two scores (MQM's 0 and -1, BLEU's 0) are one point,
    its area grown with their number and the hover counting them (no jitter: a
    point stays at its scores). Above ``EVERY_POINT_MAX`` segments, each outcome
    draws the first segment of each grid cell (``_one_per_cell``) and ``customdata``
    is ``[segment, others in the cell]``. The axes span ``axis.floor`` to ``axis.top``
    (or ``axis.scale``), widened to the data.
    """
    a, b = np.asarray(score_a, dtype=np.float64), np.asarray(score_b, dtype=np.float64)
    seg = np.asarray(segments)
    names = _shown(names)
    label = inert_text(axis.label)
    gain = b - a if axis.higher_is_better else a - b
    outcomes = (
        (f"{names[1]} better", gain > TIE_TOLERANCE, COLOR_B),
        ("tie", np.abs(gain) <= TIE_TOLERANCE, COLOR_TIE),
        (f"{names[0]} better", gain < -TIE_TOLERANCE, COLOR_A),
    )
    finite = np.concatenate([a[np.isfinite(a)], b[np.isfinite(b)]])
    top = max(axis.scale if axis.top is None else axis.top, float(np.max(finite, initial=0.0)))
    low = min(axis.floor, float(np.min(finite, initial=0.0)))
    top = top if top > low else low + 1.0  # every score equal: still a square to draw in
    digits = axis.digits
    fig = go.Figure()
    fig.add_trace(_diagonal(low, top))
    one_per_cell = len(a) > EVERY_POINT_MAX
    where = f"{names[0]}: %{{x:.{digits}f}}<br>{names[1]}: %{{y:.{digits}f}}<extra></extra>"
    for outcome, mask, color in outcomes:
        points = _points(a[mask], b[mask], seg[mask], (low, top) if one_per_cell else None)
        # Not clipped: the ties at an axis' end (MQM's 0, BLEU's 0 and 100) are points grown
        # with their number, which the plot's edge cut in half.
        points.update(name=outcome, marker_color=color, cliponaxis=False)
        fig.add_trace(points.update(hovertemplate=points.hovertemplate + where))
    edge = [low - 0.03 * (top - low), top + 0.03 * (top - low)]
    fig.update_layout(
        xaxis={"title": f"{label} of {names[0]} (A)", "range": edge},
        yaxis={"title": f"{label} of {names[1]} (B)", "range": edge},
        legend={"orientation": "h", "y": 1.12},
        margin=_MARGIN,
    )
    return fig


def _one_per_cell(
    x: FloatArray, y: FloatArray, segments: np.ndarray, low: float, top: float
) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """Keep the first point of each grid cell, at its own scores, and count the others there.

    Returns the kept points' x and y and, per point, ``[segment, others in its cell]``
    (a click opens that segment; the hover says how many more share the cell).
    """
    drawn = np.isfinite(x) & np.isfinite(y)  # Plotly draws no point without both scores
    x, y, segments = x[drawn], y[drawn], segments[drawn]
    size = (top - low) / SCATTER_GRID or 1.0
    column = np.floor((x - low) / size).astype(np.int64)
    row = np.floor((y - low) / size).astype(np.int64)
    cell = column * (SCATTER_GRID + 2) + row  # top itself falls in cell SCATTER_GRID
    _, first, count = np.unique(cell, return_index=True, return_counts=True)
    in_order = np.argsort(first)  # the first point of each cell, in the given order
    first, count = first[in_order], count[in_order]
    return x[first], y[first], np.column_stack([segments[first], count - 1])


def _points(
    x: FloatArray, y: FloatArray, segments: np.ndarray, grid: tuple[float, float] | None
) -> go.Scatter:
    """One outcome's points: one per distinct pair of scores, or per cell of a ``grid``
    over (low, top); the hovertemplate's head names the segment and the others there."""
    if grid is not None:
        x, y, cells = _one_per_cell(x, y, segments, *grid)
        # Rows as JSON lists: a 2-D array would travel as a typed array, and a click's
        # selection event would hand back its encoding, not the point's row.
        return go.Scatter(
            x=x,
            y=y,
            mode="markers",
            marker={"size": _POINT_PX, "opacity": 0.75},
            customdata=cells.tolist(),
            hovertemplate="segment %{customdata[0]} (and %{customdata[1]} more in this cell)<br>",
        )
    x, y, first, others = _one_per_score(x, y, segments)
    return go.Scatter(
        x=x,
        y=y,
        mode="markers",
        marker={"size": _stacked_size(others), "opacity": 0.75},
        customdata=first,
        text=[f" (and {n} more here)" if n else "" for n in others],
        hovertemplate="segment %{customdata}%{text}<br>",
    )


#: Marker size (px) of one segment, and the most a stack of equal points grows to.
_POINT_PX, _STACK_PX = 8, 28


def _one_per_score(
    x: FloatArray, y: FloatArray, segments: np.ndarray
) -> tuple[FloatArray, FloatArray, np.ndarray, np.ndarray]:
    """Keep the first segment of each distinct (x, y), and count the others there.

    Returns the kept points' x, y and segment, and how many more segments each stands for.
    """
    drawn = np.isfinite(x) & np.isfinite(y)  # Plotly draws no point without both scores
    x, y, segments = x[drawn], y[drawn], segments[drawn]
    _, first, count = np.unique(
        np.column_stack([x, y]), axis=0, return_index=True, return_counts=True
    )
    in_order = np.argsort(first)  # in the given order
    first, count = first[in_order], count[in_order]
    return x[first], y[first], segments[first], count - 1


def _stacked_size(others: np.ndarray) -> list[float]:
    """Marker sizes whose area grows with the segments a point stands for, up to ``_STACK_PX``."""
    return [min(_POINT_PX * math.sqrt(n + 1.0), _STACK_PX) for n in others.tolist()]


def _diagonal(low: float, top: float) -> go.Scatter:
    """The y = x line: points above it are segments B scores higher."""
    return go.Scatter(
        x=[low, top],
        y=[low, top],
        mode="lines",
        line={"color": COLOR_TIE, "dash": "dot", "width": 1},
        hoverinfo="skip",
        showlegend=False,
    )


def difference_histogram(
    diff: FloatArray, names: tuple[str, str], axis: Axis = BLEU_AXIS
) -> go.Figure:
    """Histogram of per-segment gains of B over A, in bins of 5% of the scale."""
    size = (axis.scale - min(axis.floor, 0.0)) / 20
    names = _shown(names)
    values = np.asarray(diff, dtype=np.float64)
    values = values[np.isfinite(values)]  # a segment without an imported score has no gain
    # TER differences may exceed the nominal scale: widen the bins' range, never drop a value.
    bound = max(axis.scale, float(np.ceil(np.max(np.abs(values), initial=0.0) / size) * size))
    order = "B − A" if axis.higher_is_better else "A − B"
    # Counted here, not by Plotly: 100,000 values would be megabytes of JSON for the
    # browser to bin on every redraw. Bins are [start + k*size, start + (k+1)*size).
    n_bins = round(2 * bound / size) + 1
    edges = -size / 2 - bound + size * np.arange(n_bins + 1)
    counts, _ = np.histogram(values, bins=edges)
    ranges = [f"{low:g} to {high:g}" for low, high in pairwise(edges)]
    fig = go.Figure(
        go.Bar(
            x=(edges[:-1] + edges[1:]) / 2,
            y=counts,
            customdata=ranges,
            marker={"color": COLOR_TIE},
            hovertemplate=f"gain of {names[1]} (B) over {names[0]} (A) in "
            + "%{customdata}: %{y} segments<extra></extra>",
        )
    )
    fig.add_vline(x=0, line={"color": "black", "width": 1})
    fig.update_layout(
        # Short enough for half of a 1280-px page; the names are in the hover.
        xaxis_title=f"gain of B, {order} (right: B better)",
        yaxis_title="segments",
        bargap=0.05,
        height=300,
        margin=_MARGIN,
    )
    return fig


def win_tie_loss_bar(counts: WinTieLoss, names: tuple[str, str]) -> go.Figure:
    """One horizontal bar per outcome, with its count written on the bar."""
    names = _shown(names)
    labels = [f"{names[1]} better", "tie", f"{names[0]} better"]
    values = [counts.wins, counts.ties, counts.losses]
    fig = go.Figure(
        go.Bar(
            x=values,
            y=labels,
            orientation="h",
            marker={"color": [COLOR_B, COLOR_TIE, COLOR_A]},
            text=values,
            textposition="auto",
            hovertemplate="%{y}: %{x} segments<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis_title="segments",
        yaxis={"autorange": "reversed"},
        height=180,
        margin={**_MARGIN, "l": 110},
    )
    return fig


def bucket_bars(
    table: pd.DataFrame,
    names: tuple[str, str],
    title: str,
    score: str = "corpus BLEU of the bucket",
) -> go.Figure:
    """Grouped bars of A's and B's score per bucket, segment counts in text and hover.

    ``table`` is a ``bucket_table`` frame; ``customdata`` of every bar is its bucket label.
    """
    labels = table["bucket"].tolist()
    counts = table["segments"].tolist()
    names = _shown(names)
    fig = go.Figure()
    for column, name, color in (("bleu_a", names[0], COLOR_A), ("bleu_b", names[1], COLOR_B)):
        fig.add_trace(
            go.Bar(
                name=name,
                x=labels,
                y=table[column].tolist(),
                marker={"color": color},
                customdata=labels,
                text=[f"n={n}" for n in counts],
                textposition="outside",
                hovertemplate=f"{name}<br>"
                + "bucket %{x}: %{y:.4g} (%{text} segments)<extra></extra>",
            )
        )
    fig.update_layout(
        barmode="group",
        xaxis={"title": title, "type": "category"},
        yaxis_title=score,
        legend={"orientation": "h", "y": 1.12},
        margin=_MARGIN,
    )
    return fig


def _shown(names: tuple[str, str]) -> tuple[str, str]:
    """A's and B's names escaped for Plotly (they come from file names)."""
    return inert_text(names[0]), inert_text(names[1])
