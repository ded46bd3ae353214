"""The all-pairs heatmap: which pairs of systems differ significantly, differences written in."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from bleuviz.render.inert import inert_text
from bleuviz.render.numbers import P_VALUE_DIGITS, fixed
from bleuviz.significance.all_pairs import PairTest

#: Cell colours: significant, not significant (two shades, so the caption's "dark" is exact).
SIGNIFICANT, NOT_SIGNIFICANT = "#1c4e80", "#eef1f4"


def pairs_heatmap(
    names: Sequence[str],
    pairs: Sequence[PairTest],
    test: str = "p_value_bs",
    digits: int = 2,
    alpha: float = 0.05,
) -> go.Figure:
    """An N x N grid: cell (row b, column a) dark and starred when p < ``alpha``, text b − a.

    Systems keep the given order (e.g. the ranking) on both axes; the diagonal and
    untested pairs are empty. A cell is shaded by one thing only, whether the pair
    is significant, so the shading says what the caption says; the p-value is in
    the hover. Both halves are filled (the p-value is symmetric, the difference
    changes sign), so any row reads as "this system against the others".
    """
    index = {name: i for i, name in enumerate(names)}
    shown = [inert_text(name) for name in names]
    n = len(names)
    significant = np.full((n, n), np.nan)
    p = np.full((n, n), np.nan)
    text = np.full((n, n), "", dtype=object)
    for pair in pairs:
        if pair.a not in index or pair.b not in index:
            continue
        i, j = index[pair.a], index[pair.b]
        value = getattr(pair, test)
        star = "*" if value is not None and value < alpha else ""
        p[j, i] = p[i, j] = np.nan if value is None else value
        significant[j, i] = significant[i, j] = np.nan if value is None else float(bool(star))
        text[j, i] = fixed(pair.diff, digits, sign=True) + star
        text[i, j] = fixed(-pair.diff, digits, sign=True) + star
    fig = go.Figure(
        go.Heatmap(
            z=significant.tolist(),  # plain lists: the JSON stays readable
            x=shown,
            y=shown,
            text=text,
            customdata=p.tolist(),
            texttemplate="%{text}",
            colorscale=[[0.0, NOT_SIGNIFICANT], [1.0, SIGNIFICANT]],
            zmin=0.0,
            zmax=1.0,
            showscale=False,
            hovertemplate="%{y} − %{x}: %{text}<br>"
            + f"p = %{{customdata:.{P_VALUE_DIGITS}f}}<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis={"side": "top", "automargin": True},
        yaxis={"autorange": "reversed", "automargin": True},
        height=max(300, 60 + 36 * n),
        margin={"t": 80, "b": 20, "l": 20, "r": 20},
    )
    return fig
