"""Plotly figure builders: pure functions of scores, no Streamlit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from bleuviz.bleu.result import BleuScore


def precision_by_order(scores: Mapping[str, BleuScore]) -> go.Figure:
    """Grouped bars of modified precision (0-100) per n-gram order, one group per system."""
    fig = go.Figure()
    for name, score in scores.items():
        orders = [f"{n}-gram" for n in range(1, len(score.precisions) + 1)]
        fractions = [f"{c}/{t}" for c, t in zip(score.counts, score.totals, strict=True)]
        fig.add_trace(
            go.Bar(
                name=name,
                x=orders,
                y=list(score.precisions),
                customdata=fractions,
                hovertemplate="%{x}: %{y:.1f} (%{customdata})<extra>" + name + "</extra>",
            )
        )
    fig.update_layout(
        barmode="group",
        yaxis_title="modified precision (%)",
        xaxis_title="n-gram order",
        legend_title="system",
        margin={"t": 30, "b": 40},
    )
    return fig


def sentence_bleu_histogram(sentence_bleu: Mapping[str, Sequence[float] | np.ndarray]) -> go.Figure:
    """Overlaid histograms of sentence BLEU, one per system, in 5-point bins."""
    fig = go.Figure()
    for name, values in sentence_bleu.items():
        fig.add_trace(
            go.Histogram(
                name=name,
                x=np.asarray(values),
                xbins={"start": 0, "end": 100.0001, "size": 5},
                opacity=0.6,
            )
        )
    fig.update_layout(
        barmode="overlay",
        xaxis_title="sentence BLEU",
        yaxis_title="segments",
        legend_title="system",
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
