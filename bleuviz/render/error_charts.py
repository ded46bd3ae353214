"""Figures of human error spans: errors by category per system (plotly, no Streamlit).

Category and system names come from the data and reach Plotly, which reads
HTML tags and hover-template fields in its strings: they go through
``inert_text`` (see ``bleuviz.render.inert``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from bleuviz.analysis.error_tokens import OrderCounts
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
        legend={"title": "category", "traceorder": "normal"},  # as stacked, left to right
        height=max(260, 60 + 26 * len(names)),
        margin={"t": 30, "b": 40},
    )
    return fig


def flag_rate_bars(groups: Mapping[str, OrderCounts], order: int) -> go.Figure:
    """Per group of errors, the share of its error tokens BLEU flags beside other tokens'.

    ``groups`` maps a group (all errors, a severity, a category) to its counts
    at ``order``; groups without error tokens are left out. Each group's label
    gives its n (error tokens), each bar a Wilson 95% interval (whiskers; see
    ``bleuviz.analysis.error_reports.wilson_interval``), so that a group of ten
    tokens does not read like one of thousands. The difference in percentage
    points is written above each pair; a bar carries its group in ``customdata``,
    so that a click can list the group's segments.
    """
    shown = {name: c for name, c in groups.items() if c.error_tokens}
    names = [inert_text(name) for name in shown]
    counts = list(shown.values())
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            name="error tokens flagged",
            x=names,
            y=[100 * c.error_rate for c in counts],
            error_y=_whiskers([c.error_rate for c in counts], [c.error_interval for c in counts]),
            customdata=[
                [k, c.error_flagged, c.error_tokens, *_percents(c.error_interval)]
                for k, c in zip(names, counts, strict=True)
            ],
            text=[_points(c.difference) for c in counts],
            textposition="outside",
            marker={"color": "#c92a2a"},
            hovertemplate="%{x}: %{y:.1f}% of error tokens flagged "
            "(%{customdata[1]} of n = %{customdata[2]}; 95% interval "
            "%{customdata[3]:.1f}–%{customdata[4]:.1f}%)<extra></extra>",
        )
    )
    other_n = counts[0].other_tokens if counts else 0
    fig.add_trace(
        go.Bar(
            name=f"other tokens flagged (n = {other_n:,})",
            x=names,
            y=[100 * c.other_rate for c in counts],
            error_y=_whiskers([c.other_rate for c in counts], [c.other_interval for c in counts]),
            customdata=[
                [k, c.other_flagged, c.other_tokens, *_percents(c.other_interval)]
                for k, c in zip(names, counts, strict=True)
            ],
            marker={"color": "#adb5bd"},
            hovertemplate="%{x}: %{y:.1f}% of other tokens flagged "
            "(%{customdata[1]} of n = %{customdata[2]}; 95% interval "
            "%{customdata[3]:.1f}–%{customdata[4]:.1f}%)<extra></extra>",
        )
    )
    fig.update_layout(
        barmode="group",
        xaxis={
            "tickmode": "array",
            "tickvals": names,
            "ticktext": [
                f"{k}<br>n = {c.error_tokens:,}" for k, c in zip(names, counts, strict=True)
            ],
        },
        yaxis={"title": f"tokens flagged at order {order} (%)", "range": [0, 110]},
        legend={"orientation": "h", "y": -0.25},
        height=400,
        margin={"t": 30, "b": 40},
    )
    return fig


def _whiskers(
    rates: Sequence[float], intervals: Sequence[tuple[float, float]]
) -> dict[str, object]:
    """Plotly's asymmetric error bars (percentage points) for rates and their intervals."""
    return {
        "type": "data",
        "symmetric": False,
        "array": [100 * (high - rate) for rate, (_, high) in zip(rates, intervals, strict=True)],
        "arrayminus": [100 * (rate - low) for rate, (low, _) in zip(rates, intervals, strict=True)],
        "thickness": 1.5,
        "width": 4,
    }


def _percents(interval: tuple[float, float]) -> list[float]:
    """An interval of proportions in percent."""
    return [100 * interval[0], 100 * interval[1]]


def _points(difference: float) -> str:
    """A rate difference as signed percentage points (a dash where undefined)."""
    return "—" if difference != difference else f"{100 * difference:+.1f} pts"
