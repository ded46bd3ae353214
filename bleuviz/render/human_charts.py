"""Figures of metrics against human judgements (plotly, no Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from bleuviz.render.inert import inert_text


def metric_vs_human_scatter(
    systems: Sequence[str],
    metric: Sequence[float],
    human: Sequence[float],
    metric_label: str,
    human_label: str,
) -> go.Figure:
    """One point per system: the metric's corpus score (x) against the human mean (y).

    Points are labelled with the system names; hover shows both values. Names
    and labels come from the data, and Plotly reads HTML tags in ``text`` and
    hovers: they are escaped (``inert_text``).
    """
    metric_label, human_label = inert_text(metric_label), inert_text(human_label)
    fig = go.Figure(
        go.Scatter(
            x=list(metric),
            y=list(human),
            mode="markers+text",
            text=[inert_text(str(s)) for s in systems],
            textposition="top center",
            marker={"size": 11, "color": "#4c78a8"},
            hovertemplate="%{text}<br>"
            + f"{metric_label}: %{{x:.4f}}<br>{human_label}: %{{y:.4f}}<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis_title=f"{metric_label} (corpus score or mean)",
        yaxis_title=f"{human_label} (mean)",
        height=380,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
    )
    return fig
