"""The report's charts: static SVG drawn by matplotlib's SVG backend, in the app's palette.

Each chart is drawn on a ``Figure`` of its own (no pyplot state), its text kept
as text (``svg.fonttype: none``: searchable, printable, small), its ids
prefixed so that several charts share one page, and with a fixed hash salt and
no date, so that the same numbers give the same bytes.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
from markupsafe import Markup
from matplotlib.figure import Figure

from bleuviz.render.palette import system_style

#: The "what BLEU sees" colours of the app (``bleuviz.render.error_charts``).
ERROR_COLOUR, OTHER_COLOUR = "#c92a2a", "#adb5bd"
_RC: dict[Any, Any] = {
    "svg.hashsalt": "bleuviz-report",
    "svg.fonttype": "none",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|xlink:href="#|href="#)')


def svg(fig: Figure, prefix: str) -> Markup:
    """The figure as an inline ``<svg>`` element, its ids prefixed with ``prefix``.

    matplotlib escapes the text it writes (labels, titles, legend entries), so the
    element is safe to inline as markup.
    """
    out = io.StringIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": "bleuviz"})
    text = out.getvalue()
    text = text[text.index("<svg") :]
    text = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', text)
    return Markup(_REF.sub(lambda m: f"{m.group(1)}{prefix}-", text))


def _figure(width: float, height: float) -> Figure:
    with matplotlib.rc_context(_RC):
        return Figure(figsize=(width, height), layout="constrained")


def ranking_chart(
    order: Sequence[str],
    scores: Mapping[str, float],
    cis: Mapping[str, float],
    name: str,
    load_order: Sequence[str],
) -> Markup:
    """Each system's score (best on top) with its 95% CI, coloured as in the app."""
    with matplotlib.rc_context(_RC):
        fig = _figure(7, 0.6 + 0.28 * len(order))
        ax = fig.add_subplot()
        rows = list(reversed(order))
        values = [scores[s] for s in rows]
        errors = [cis.get(s, 0.0) for s in rows]
        colours = [system_style(list(load_order).index(s)).color for s in rows]
        ax.barh(rows, values, xerr=errors, color=colours, ecolor="#343a40", capsize=2)
        ax.set_xlabel(f"{name} (bars: 95% bootstrap CI)")
        ax.set_title(f"Systems by {name}")
    return svg(fig, "rank")


def anatomy_chart(
    systems: Sequence[str],
    precisions: Sequence[Sequence[float]],
    bps: Sequence[float],
    ratios: Sequence[float],
) -> Markup:
    """n-gram precision by order (a line per system) beside each system's brevity penalty.

    The bars name the systems in their colours, so the lines need no legend.
    """
    with matplotlib.rc_context(_RC):
        fig = _figure(9, 0.8 + max(2.6, 0.22 * len(systems)))
        ax, bars = fig.subplots(1, 2, width_ratios=(3, 2))
        for i, (name, values) in enumerate(zip(systems, precisions, strict=True)):
            orders = range(1, len(values) + 1)
            ax.plot(orders, values, marker="o", color=system_style(i).color, label=name)
        ax.set_xticks(range(1, max((len(p) for p in precisions), default=1) + 1))
        ax.set_xlabel("n-gram order")
        ax.set_ylabel("precision (%)")
        ax.set_title("n-gram precision by order (colours as on the right)")
        rows = list(reversed(range(len(systems))))
        colours = [system_style(i).color for i in rows]
        bars.barh([systems[i] for i in rows], [bps[i] for i in rows], color=colours)
        for y, i in enumerate(rows):
            bars.text(bps[i] + 0.01, y, f"ratio {ratios[i]:.3f}", va="center", fontsize=7)
        bars.set_xlim(0, 1.3)
        bars.set_xlabel("brevity penalty (1: no penalty)")
        bars.set_title("Brevity penalty and length ratio")
    return svg(fig, "anatomy")


def bucket_chart(
    kind: str, title: str, labels: Sequence[str], scores: Mapping[str, Sequence[float]]
) -> Markup:
    """Corpus BLEU of each bucket, a bar per system (empty buckets left blank)."""
    with matplotlib.rc_context(_RC):
        fig = _figure(9, 3.2)
        ax = fig.add_subplot()
        width = 0.8 / max(len(scores), 1)
        for i, (name, values) in enumerate(scores.items()):
            xs = [j + (i - (len(scores) - 1) / 2) * width for j in range(len(labels))]
            ys = [0.0 if math.isnan(v) else v for v in values]
            ax.bar(xs, ys, width=width, color=system_style(i).color, label=name)
        ax.set_xticks(range(len(labels)), list(labels))
        ax.set_xlabel(title)
        ax.set_ylabel("corpus BLEU")
        ax.set_title(f"BLEU by bucket: {title}")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    return svg(fig, f"bucket-{kind}")


def flagged_chart(orders: Sequence[int], error: Sequence[float], other: Sequence[float]) -> Markup:
    """Share of error tokens and of other tokens BLEU flags, per order (as the Overview)."""
    with matplotlib.rc_context(_RC):
        fig = _figure(7, 3)
        ax = fig.add_subplot()
        xs = list(range(len(orders)))
        ax.bar(
            [x - 0.2 for x in xs],
            [100 * v for v in error],
            0.4,
            color=ERROR_COLOUR,
            label="error tokens",
        )
        ax.bar(
            [x + 0.2 for x in xs],
            [100 * v for v in other],
            0.4,
            color=OTHER_COLOUR,
            label="other tokens",
        )
        ax.set_xticks(xs, [f"n = {n}" for n in orders])
        ax.set_ylabel("flagged by BLEU (%)")
        ax.set_title("What BLEU sees: tokens no matched n-gram covers")
        ax.legend(fontsize=7)
    return svg(fig, "sees")
