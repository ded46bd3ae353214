"""Plotly figure builders: pure functions of scores, no Streamlit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from bleuviz.bleu.result import BleuScore


def precision_by_order(scores: Mapping[str, BleuScore]) -> go.Figure:
    """Modified precision (0-100): one row of dots per system, one colour per n-gram order.

    A dot plot stays readable with 9 to 20 systems within a point of each other,
    where grouped bars or overlapping lines do not. Systems keep the mapping's
    order (the ranking), top to bottom; hover shows the clipped count / total.
    """
    fig = go.Figure()
    names = list(scores)
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


def sentence_score_boxes(sentence_bleu: Mapping[str, Sequence[float] | np.ndarray]) -> go.Figure:
    """Sentence BLEU per system as box plots (median, quartiles, outliers), side by side."""
    fig = go.Figure()
    for name, values in sentence_bleu.items():
        fig.add_trace(
            go.Box(
                name=name,
                y=np.asarray(values),
                boxmean=True,
                hovertemplate="%{y:.2f}<extra>" + name + "</extra>",
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
    """Grouped bars of corpus BLEU per document and system."""
    fig = go.Figure()
    for name, values in scores.items():
        fig.add_trace(go.Bar(name=name, x=list(documents), y=list(values)))
    fig.update_layout(
        barmode="group",
        yaxis_title="document BLEU",
        xaxis_title="document",
        margin={"t": 30, "b": 40},
    )
    return fig
