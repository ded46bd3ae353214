"""Figures of human error spans: errors by category per system (plotly, no Streamlit).

Category and system names come from the data and reach Plotly, which reads
HTML tags and hover-template fields in its strings: they go through
``inert_text`` (see ``bleuviz.render.inert``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from bleuviz.render.inert import inert_text
from bleuviz.render.palette import SYSTEM_COLORS


def error_category_bars(
    systems: Sequence[str], counts: Mapping[str, Sequence[float]], unit: str
) -> go.Figure:
    """Stacked horizontal bars: per system (top to bottom), one segment per error category.

    ``counts`` maps a category to one value per system (errors, or errors per
    rating: ``unit`` says which, for the axis and the hover).
    """
    names = [inert_text(s) for s in systems]
    unit = inert_text(unit)
    fig = go.Figure()
    for i, (category, values) in enumerate(counts.items()):
        label = inert_text(category)
        fig.add_trace(
            go.Bar(
                name=label,
                x=list(values),
                y=names,
                orientation="h",
                marker={"color": SYSTEM_COLORS[i % len(SYSTEM_COLORS)]},
                hovertemplate="%{y}: %{x:.3~f} " + unit + "<extra>" + label + "</extra>",
            )
        )
    fig.update_layout(
        barmode="stack",
        xaxis_title=unit,
        yaxis={"autorange": "reversed", "automargin": True},
        legend_title="category",
        height=max(260, 60 + 26 * len(names)),
        margin={"t": 30, "b": 40},
    )
    return fig
