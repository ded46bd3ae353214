"""The all-pairs heatmap: p-values of every pair of systems, score differences written in."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from bleuviz.render.inert import inert_text
from bleuviz.significance.all_pairs import PairTest


def pairs_heatmap(
    names: Sequence[str], pairs: Sequence[PairTest], test: str = "p_value_bs", digits: int = 2
) -> go.Figure:
    """An N x N grid: cell (row b, column a) coloured by the pair's p-value, its text b − a.

    Systems keep the given order (e.g. the ranking) on both axes; the diagonal and
    untested pairs are empty. Significant cells (p < 0.05) are dark. Both halves
    are filled (the p-value is symmetric, the difference changes sign), so any
    row reads as "this system against the others".
    """
    index = {name: i for i, name in enumerate(names)}
    shown = [inert_text(name) for name in names]
    n = len(names)
    p = np.full((n, n), np.nan)
    text = np.full((n, n), "", dtype=object)
    for pair in pairs:
        if pair.a not in index or pair.b not in index:
            continue
        i, j = index[pair.a], index[pair.b]
        value = getattr(pair, test)
        p[j, i] = p[i, j] = np.nan if value is None else value
        text[j, i] = f"{pair.diff:+.{digits}f}"
        text[i, j] = f"{-pair.diff:+.{digits}f}"
    fig = go.Figure(
        go.Heatmap(
            z=p,
            x=shown,
            y=shown,
            text=text,
            texttemplate="%{text}",
            colorscale=[[0.0, "#1c4e80"], [0.05, "#7aa6c2"], [0.0501, "#f1f3f5"], [1.0, "#ffffff"]],
            zmin=0.0,
            zmax=1.0,
            colorbar={"title": "p-value"},
            hovertemplate="%{y} − %{x}: %{text}<br>p = %{z:.4f}<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis={"side": "top", "automargin": True},
        yaxis={"autorange": "reversed", "automargin": True},
        height=max(300, 60 + 36 * n),
        margin={"t": 80, "b": 20, "l": 20, "r": 20},
    )
    return fig
