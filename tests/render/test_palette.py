"""Systems stay distinguishable in the charts: 20 systems, 20 colours far apart (issue 33).

Oracle: the CIEDE2000 colour difference, written out below from Sharma, Wu and
Dalal (2005), "The CIEDE2000 color-difference formula: implementation notes",
and checked on the first pair of their test data (ΔE00 = 2.0425). sRGB to
L*a*b* follows IEC 61966-2-1 with a D65 white.
"""

from __future__ import annotations

import itertools
import math

import pytest

from bleuviz.render.charts import document_bars, sentence_score_boxes
from bleuviz.render.palette import system_style

Lab = tuple[float, float, float]
#: Plainly different: a just-noticeable difference is about 1 ΔE00.
FAR_APART = 15.0


def lab(color: str) -> Lab:
    """CIE L*a*b* (D65) of an sRGB hex colour."""
    rgb = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(one: Lab, two: Lab) -> float:
    """ΔE00 of two L*a*b* colours (Sharma et al., 2005, equations 1-22)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = (math.degrees(math.atan2(b, a)) % 360 for a, b in ((a1, b1), (a2, b2)))
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_bar, c_bar = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_bar = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_bar = (h1 + h2) / 2
    else:
        h_bar = (h1 + h2 + (360 if h1 + h2 < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    rotation = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_bar**7 / (c_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_bar, 1 + 0.015 * c_bar * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    dl, dc, dhh = (l2 - l1) / s_l, (c2 - c1) / s_c, d_h / s_h
    return math.sqrt(dl**2 + dc**2 + dhh**2 + r_t * dc * dhh)


def test_ciede2000_matches_sharmas_test_data() -> None:
    assert ciede2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)) == pytest.approx(
        2.0425, abs=1e-4
    )


def test_twenty_systems_get_twenty_colours_far_apart() -> None:
    colors = [lab(system_style(i).color) for i in range(20)]
    closest = min(ciede2000(a, b) for a, b in itertools.combinations(colors, 2))
    assert closest > FAR_APART
    assert max(c[0] for c in colors) <= 75  # every one readable on white


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
