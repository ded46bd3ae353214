"""Plotly figures comparing two systems: pure functions of scores, no Streamlit.

System A (the baseline) and system B keep the same two colours in every figure.
Figures meant to be clicked carry what a click must open in ``customdata``:
the segment number (from 1) on the scatter and the bucket label on the bucket bars.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from bleuviz.buckets import TIE_TOLERANCE, WinTieLoss
from bleuviz.scores import FloatArray

COLOR_A = "#1c7ed6"
COLOR_B = "#e8590c"
COLOR_TIE = "#868e96"
_MARGIN = {"t": 30, "b": 40, "l": 50, "r": 20}


def sentence_scatter(
    bleu_a: FloatArray, bleu_b: FloatArray, segments: Sequence[int], names: tuple[str, str]
) -> go.Figure:
    """Scatter sentence BLEU of A (x) against B (y), one trace per outcome, y = x drawn.

    ``customdata`` of every point is its segment number, so a click can open it.
    """
    a, b = np.asarray(bleu_a, dtype=np.float64), np.asarray(bleu_b, dtype=np.float64)
    seg = np.asarray(segments)
    diff = b - a
    outcomes = (
        (f"{names[1]} better", diff > TIE_TOLERANCE, COLOR_B),
        ("tie", np.abs(diff) <= TIE_TOLERANCE, COLOR_TIE),
        (f"{names[0]} better", diff < -TIE_TOLERANCE, COLOR_A),
    )
    fig = go.Figure()
    fig.add_trace(_diagonal())
    for label, mask, color in outcomes:
        fig.add_trace(
            go.Scatter(
                x=a[mask],
                y=b[mask],
                mode="markers",
                name=label,
                marker={"color": color, "size": 8, "opacity": 0.75},
                customdata=seg[mask],
                hovertemplate="segment %{customdata}<br>"
                + f"{names[0]}: %{{x:.2f}}<br>{names[1]}: %{{y:.2f}}<extra></extra>",
            )
        )
    fig.update_layout(
        xaxis={"title": f"sentence BLEU of {names[0]} (A)", "range": [-3, 103]},
        yaxis={"title": f"sentence BLEU of {names[1]} (B)", "range": [-3, 103]},
        legend={"orientation": "h", "y": 1.12},
        margin=_MARGIN,
    )
    return fig


def _diagonal() -> go.Scatter:
    """The y = x line: points above it are segments B scores higher."""
    return go.Scatter(
        x=[0, 100],
        y=[0, 100],
        mode="lines",
        line={"color": COLOR_TIE, "dash": "dot", "width": 1},
        hoverinfo="skip",
        showlegend=False,
    )


def difference_histogram(diff: FloatArray, names: tuple[str, str]) -> go.Figure:
    """Histogram of per-segment sentence BLEU differences B - A in 5-point bins."""
    fig = go.Figure(
        go.Histogram(
            x=np.asarray(diff, dtype=np.float64),
            xbins={"start": -102.5, "end": 102.5, "size": 5},
            marker={"color": COLOR_TIE},
            hovertemplate="B − A in %{x}: %{y} segments<extra></extra>",
        )
    )
    fig.add_vline(x=0, line={"color": "black", "width": 1})
    fig.update_layout(
        xaxis_title=f"sentence BLEU difference: {names[1]} − {names[0]}",
        yaxis_title="segments",
        bargap=0.05,
        height=300,
        margin=_MARGIN,
    )
    return fig


def win_tie_loss_bar(counts: WinTieLoss, names: tuple[str, str]) -> go.Figure:
    """One horizontal bar per outcome, with its count written on the bar."""
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


def bucket_bars(table: pd.DataFrame, names: tuple[str, str], title: str) -> go.Figure:
    """Grouped bars of corpus BLEU of A and B per bucket, segment counts in text and hover.

    ``table`` is a ``bucket_table`` frame; ``customdata`` of every bar is its bucket label.
    """
    labels = table["bucket"].tolist()
    counts = table["segments"].tolist()
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
                + "bucket %{x}: BLEU %{y:.2f} (%{text} segments)<extra></extra>",
            )
        )
    fig.update_layout(
        barmode="group",
        xaxis={"title": title, "type": "category"},
        yaxis_title="corpus BLEU of the bucket",
        legend={"orientation": "h", "y": 1.12},
        margin=_MARGIN,
    )
    return fig
