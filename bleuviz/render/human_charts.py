"""Figures of metrics against human judgements (plotly, no Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from bleuviz.arrays import FloatArray
from bleuviz.render.inert import inert_text

#: Share of the data's span left free on each side of the system scatter, so that
#: the names written above the points stay inside the figure.
PAD = 0.12
#: Points a segment scatter draws at most (a seeded sample beyond).
MAX_POINTS = 4000


def metric_vs_human_scatter(
    systems: Sequence[str],
    metric: Sequence[float],
    human: Sequence[float],
    metric_label: str,
    human_label: str,
    digits: tuple[int, int] = (4, 4),
) -> go.Figure:
    """One point per system: the metric's corpus score (x) against the human mean (y).

    ``digits``: the metric's and the human score's decimals, for the hover.

    Points are labelled with the system names; hover shows both values. Names
    and labels come from the data, and Plotly reads HTML tags in ``text`` and
    hovers: they are escaped (``inert_text``). The names are not clipped: the
    axes leave room around the points and the text may cross the plot's edge.
    """
    metric_label, human_label = inert_text(metric_label), inert_text(human_label)
    fig = go.Figure(
        go.Scatter(
            x=list(metric),
            y=list(human),
            mode="markers+text",
            text=[inert_text(str(s)) for s in systems],
            textposition="top center",
            cliponaxis=False,
            marker={"size": 11, "color": "#4c78a8"},
            hovertemplate="%{text}<br>" + _both(metric_label, human_label, digits),
        )
    )
    fig.update_layout(
        xaxis_title=f"{metric_label} (corpus score or mean)",
        yaxis_title=f"{human_label} (mean)",
        xaxis_range=padded_range(metric),
        yaxis_range=padded_range(human, above=2 * PAD),
        height=380,
        margin={"l": 10, "r": 40, "t": 40, "b": 10},
    )
    return fig


def padded_range(values: Sequence[float], above: float = PAD) -> list[float] | None:
    """The span of the finite ``values``, widened by ``PAD`` below and ``above`` above."""
    finite = [v for v in values if np.isfinite(v)]
    if not finite:
        return None
    low, high = min(finite), max(finite)
    span = (high - low) or max(abs(high), 1.0)
    return [low - PAD * span, high + above * span]


def segment_scatter(
    metric: FloatArray,
    human: FloatArray,
    labels: Sequence[str],
    metric_label: str,
    human_label: str,
    seed: int = 0,
    digits: tuple[int, int] = (4, 4),
) -> go.Figure:
    """One point per (system, segment) both scored: the metric (x) against the human (y).

    Overplotting is handled twice: points are drawn translucent, so where many
    fall together (human scores take few values: MQM's 0, -1, -5, -25) the
    colour darkens; beyond ``MAX_POINTS`` a seeded random sample is drawn, and
    the title says how many of how many. ``labels`` ("system · segment") show on hover,
    with both scores at their ``digits`` (the metric's, the human score's).
    """
    keep = np.flatnonzero(np.isfinite(metric) & np.isfinite(human))
    total = len(keep)
    if total > MAX_POINTS:
        keep = np.sort(np.random.default_rng(seed).choice(keep, MAX_POINTS, replace=False))
    metric_label, human_label = inert_text(metric_label), inert_text(human_label)
    shown = f"{len(keep):,} of {total:,} segments, a random sample" if total > len(keep) else ""
    fig = go.Figure(
        go.Scattergl(
            x=metric[keep],
            y=human[keep],
            mode="markers",
            text=[inert_text(labels[int(i)]) for i in keep],
            marker={"size": 5, "color": "#4c78a8", "opacity": 0.25},
            hovertemplate="%{text}<br>" + _both(metric_label, human_label, digits),
        )
    )
    fig.update_layout(
        title={"text": shown, "font": {"size": 12}},
        xaxis_title=f"{metric_label} (segment score)",
        yaxis_title=f"{human_label} (segment score)",
        height=380,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
    )
    return fig


def _both(metric_label: str, human_label: str, digits: tuple[int, int]) -> str:
    """The hover's two scores, each at its own precision (``bleuviz.render.numbers``)."""
    x, y = digits
    return f"{metric_label}: %{{x:.{x}f}}<br>{human_label}: %{{y:.{y}f}}<extra></extra>"
