"""Plotly figures comparing two systems: pure functions of scores, no Streamlit.

System A (the baseline) and system B keep the same two colours in every figure.
Figures meant to be clicked carry what a click must open in ``customdata``:
the segment number (from 1) on the scatter and the bucket label on the bucket bars.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from bleuviz.analysis.buckets import TIE_TOLERANCE, WinTieLoss
from bleuviz.arrays import FloatArray

COLOR_A = "#1c7ed6"
COLOR_B = "#e8590c"
COLOR_TIE = "#868e96"
_MARGIN = {"t": 30, "b": 40, "l": 50, "r": 20}


@dataclass(frozen=True, slots=True)
class Axis:
    """What the sentence scores are: a label, their range and their direction.

    ``scale`` is the nominal maximum (100 for BLEU, 1 for ROUGE) and ``floor``
    the lowest value shown (0, or below for an imported score such as MQM).
    """

    label: str = "sentence BLEU"
    scale: float = 100.0
    higher_is_better: bool = True
    floor: float = 0.0


BLEU_AXIS = Axis()


def sentence_scatter(
    score_a: FloatArray,
    score_b: FloatArray,
    segments: Sequence[int],
    names: tuple[str, str],
    axis: Axis = BLEU_AXIS,
) -> go.Figure:
    """Scatter sentence scores of A (x) against B (y), one trace per outcome, y = x drawn.

    ``customdata`` of every point is its segment number, so a click can open it.
    """
    a, b = np.asarray(score_a, dtype=np.float64), np.asarray(score_b, dtype=np.float64)
    seg = np.asarray(segments)
    gain = b - a if axis.higher_is_better else a - b
    outcomes = (
        (f"{names[1]} better", gain > TIE_TOLERANCE, COLOR_B),
        ("tie", np.abs(gain) <= TIE_TOLERANCE, COLOR_TIE),
        (f"{names[0]} better", gain < -TIE_TOLERANCE, COLOR_A),
    )
    finite = np.concatenate([a[np.isfinite(a)], b[np.isfinite(b)]])
    top = max(axis.scale, float(np.max(finite, initial=0.0)))
    low = min(axis.floor, float(np.min(finite, initial=0.0)))
    digits = 2 if axis.scale >= 10 else 4
    fig = go.Figure()
    fig.add_trace(_diagonal(low, top))
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
                + f"{names[0]}: %{{x:.{digits}f}}<br>{names[1]}: %{{y:.{digits}f}}<extra></extra>",
            )
        )
    edge = [low - 0.03 * (top - low), top + 0.03 * (top - low)]
    fig.update_layout(
        xaxis={"title": f"{axis.label} of {names[0]} (A)", "range": edge},
        yaxis={"title": f"{axis.label} of {names[1]} (B)", "range": edge},
        legend={"orientation": "h", "y": 1.12},
        margin=_MARGIN,
    )
    return fig


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
    values = np.asarray(diff, dtype=np.float64)
    values = values[np.isfinite(values)]  # a segment without an imported score has no gain
    # TER differences may exceed the nominal scale: widen the bins' range, never drop a value.
    bound = max(axis.scale, float(np.ceil(np.max(np.abs(values), initial=0.0) / size) * size))
    order = "B − A" if axis.higher_is_better else "A − B"
    fig = go.Figure(
        go.Histogram(
            x=values,
            xbins={"start": -size / 2 - bound, "end": bound + size / 2, "size": size},
            marker={"color": COLOR_TIE},
            hovertemplate=f"gain of {names[1]} (B) over {names[0]} (A) in "
            + "%{x}: %{y} segments<extra></extra>",
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
