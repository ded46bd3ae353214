"""Plotly figure builders: pure functions of scores, no Streamlit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from bleuviz.bleu.result import BleuScore
from bleuviz.render.inert import inert_text
from bleuviz.render.palette import system_style


def precision_by_order(scores: Mapping[str, BleuScore]) -> go.Figure:
    """Modified precision (0-100): one row of dots per system, one colour per n-gram order.

    A dot plot stays readable with 9 to 20 systems within a point of each other,
    where grouped bars or overlapping lines do not. Systems keep the mapping's
    order (the ranking), top to bottom; hover shows the clipped count / total.
    """
    fig = go.Figure()
    names = [inert_text(name) for name in scores]
    orders = max((len(s.precisions) for s in scores.values()), default=0)
    for k in range(orders):
        fractions = [f"{s.counts[k]}/{s.totals[k]}" for s in scores.values()]
        fig.add_trace(
            go.Scatter(
                name=f"{k + 1}-gram",
                x=[s.precisions[k] for s in scores.values()],
                y=names,
                mode="markers",
                marker={"size": 10},
                customdata=fractions,
                hovertemplate="%{y}: %{x:.1f} (%{customdata})<extra>" + f"{k + 1}-gram</extra>",
            )
        )
    fig.update_layout(
        xaxis_title="modified precision (%)",
        yaxis={"autorange": "reversed", "automargin": True},
        legend_title="order",
        height=max(260, 40 + 28 * len(names)),
        margin={"t": 30, "b": 40},
    )
    return fig


#: Outlier points are drawn once per distinct value at this many decimals (they overlap anyway).
OUTLIER_DECIMALS = 1


@dataclass(frozen=True, slots=True)
class BoxSummary:
    """What a box plot draws: quartiles, whisker ends, mean and the outliers."""

    q1: float
    median: float
    q3: float
    lowerfence: float
    upperfence: float
    mean: float
    outliers: tuple[float, ...]


def box_summary(values: Sequence[float] | np.ndarray) -> BoxSummary:
    """Quartiles, Tukey fences (1.5 IQR, at data points), mean and the distinct outliers.

    Quartiles are numpy's linear interpolation (type 7), which is Plotly's default
    ``quartilemethod="linear"`` up to its interpolation on small samples; the
    whiskers end at the most extreme values within 1.5 IQR of the box, never
    inside the box, as Plotly draws them. Outliers are rounded to
    ``OUTLIER_DECIMALS`` and deduplicated. Non-finite values are left out; no
    value at all gives NaNs.
    """
    y = np.asarray(values, dtype=np.float64)
    y = y[np.isfinite(y)]
    if not len(y):
        nan = float("nan")
        return BoxSummary(nan, nan, nan, nan, nan, nan, ())
    q1, median, q3 = (float(q) for q in np.percentile(y, [25, 50, 75]))
    low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    inside = y[(y >= low) & (y <= high)]
    outliers = np.unique(np.round(y[(y < low) | (y > high)], OUTLIER_DECIMALS))
    return BoxSummary(
        q1,
        median,
        q3,
        min(q1, float(inside.min())),
        max(q3, float(inside.max())),
        float(y.mean()),
        tuple(float(v) for v in outliers),
    )


def sentence_score_boxes(sentence_bleu: Mapping[str, Sequence[float] | np.ndarray]) -> go.Figure:
    """Sentence BLEU per system as box plots (median, quartiles, mean, outliers), side by side.

    The boxes are computed here and sent as their statistics, not as every
    segment's score: 100,000 segments would otherwise be megabytes of JSON per
    system for the browser to sort on every redraw. Each system's outliers (one
    point per distinct value) are a scatter in the box's colour.
    """
    fig = go.Figure()
    for i, (system, values) in enumerate(sentence_bleu.items()):
        name = inert_text(system)
        box = box_summary(values)
        color = system_style(i).color  # set explicitly, so that a box and its outliers match
        fig.add_trace(
            go.Box(
                name=name,
                x=[name],
                q1=[box.q1],
                median=[box.median],
                q3=[box.q3],
                lowerfence=[box.lowerfence],
                upperfence=[box.upperfence],
                mean=[box.mean],
                boxmean=True,
                marker_color=color,
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[name] * len(box.outliers),
                y=list(box.outliers),
                mode="markers",
                marker={"size": 4, "color": color},
                name=name,
                hovertemplate="%{y:.1f}<extra>" + name + " (outlier)</extra>",
            )
        )
    fig.update_layout(
        yaxis_title="sentence BLEU",
        yaxis_range=[-2, 102],
        showlegend=False,
        margin={"t": 30, "b": 40},
    )
    return fig


def document_bars(documents: Sequence[str], scores: Mapping[str, Sequence[float]]) -> go.Figure:
    """Grouped bars of corpus BLEU per document and system, each system its own colour.

    Colours stay distinct to 20 systems (``render.palette``); past that, bars are hatched.
    """
    fig = go.Figure()
    ids = [inert_text(document) for document in documents]
    for i, (name, values) in enumerate(scores.items()):
        style = system_style(i)
        marker = {"color": style.color, "pattern": {"shape": style.pattern}}
        fig.add_trace(go.Bar(name=inert_text(name), x=ids, y=list(values), marker=marker))
    fig.update_layout(
        barmode="group",
        yaxis_title="document BLEU",
        xaxis_title="document",
        margin={"t": 30, "b": 40},
    )
    return fig
