"""Plotly figure builders: pure functions of scores, no Streamlit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from bleuviz.bleu.result import BleuScore


def precision_by_order(scores: Mapping[str, BleuScore]) -> go.Figure:
    """Modified precision (0-100) per n-gram order: one line of dots per system.

    Lines stay readable with 9 to 20 systems within a point of each other, where
    grouped bars do not; hover names the system and the clipped count / total.
    """
    fig = go.Figure()
    for name, score in scores.items():
        orders = [f"{n}-gram" for n in range(1, len(score.precisions) + 1)]
        fractions = [f"{c}/{t}" for c, t in zip(score.counts, score.totals, strict=True)]
        fig.add_trace(
            go.Scatter(
                name=name,
                x=orders,
                y=list(score.precisions),
                mode="lines+markers",
                customdata=fractions,
                hovertemplate="%{x}: %{y:.1f} (%{customdata})<extra>" + name + "</extra>",
            )
        )
    fig.update_layout(
        yaxis_title="modified precision (%)",
        xaxis_title="n-gram order",
        legend_title="system",
        hovermode="closest",
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
