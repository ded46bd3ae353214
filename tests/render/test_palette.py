"""Systems stay distinguishable in the charts: 20 systems, 20 colours far apart (issue 33).

Oracle: CIE 1976 colour difference (ΔE*ab) computed from the sRGB definition
(IEC 61966-2-1) and CIE L*a*b* with a D65 white, written out below; a ΔE
around 2.3 is a just-noticeable difference, so 20 means plainly different.
"""

from __future__ import annotations

import itertools
import math

from bleuviz.render.charts import document_bars, sentence_score_boxes
from bleuviz.render.palette import system_style

#: Plainly different colours: ten just-noticeable differences or so.
FAR_APART = 20.0


def lab(color: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB hex colour."""
    rgb = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_twenty_systems_get_twenty_colours_far_apart() -> None:
    colors = [system_style(i).color for i in range(20)]
    closest = min(math.dist(lab(a), lab(b)) for a, b in itertools.combinations(colors, 2))
    assert closest > FAR_APART


def test_beyond_the_colours_a_pattern_tells_systems_apart() -> None:
    styles = [system_style(i) for i in range(60)]
    assert len({(s.color, s.pattern) for s in styles}) == 60


def test_document_bars_draw_thirteen_systems_in_thirteen_colours() -> None:
    names = [f"system {i}" for i in range(13)]
    fig = document_bars(["d1", "d2"], {n: [1.0, 2.0] for n in names})
    colors = [trace.marker.color for trace in fig.data]
    assert None not in colors and len(set(colors)) == 13


def test_sentence_boxes_and_their_outliers_share_a_colour_per_system() -> None:
    fig = sentence_score_boxes({f"s{i}": [0.0, 50.0, 51.0, 52.0, 100.0] for i in range(13)})
    boxes = [t for t in fig.data if t.type == "box"]
    assert len({t.marker.color for t in boxes}) == 13
    for box, dots in zip(boxes, [t for t in fig.data if t.type == "scatter"], strict=True):
        assert box.marker.color == dots.marker.color
