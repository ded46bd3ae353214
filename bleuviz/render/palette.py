"""One colour per system that stays distinguishable to 20 systems, then colour and pattern.

Plotly's default sequence has 10 colours, so a WMT set of 13 systems drew three
pairs of systems alike. The 20 colours here were picked greedily, each the
farthest (CIEDE2000, Sharma et al., 2005) from those before it, out of the
colours of Plotly's qualitative palettes, Kelly's (1965) "colours of maximum
contrast" and Trubetskoy's (2017) "20 distinct colours", keeping those dark
enough to read on white (L* ≤ 75). Any two of the 20 differ by ΔE00 ≥ 20 (the
first 13 by ≥ 24; Plotly's 10 have a pair at 12.6, its Dark24 one at 8.7),
and the most different come first. Past 20 systems a bar is also hatched, so
that system 21 is not system 1 again.
"""

from __future__ import annotations

from dataclasses import dataclass

SYSTEM_COLORS = (
    "#7570B3",
    "#8DB600",
    "#FF7F0E",
    "#661100",
    "#2B3D26",
    "#17BECF",
    "#000075",
    "#FF6692",
    "#85660D",
    "#B00068",
    "#008856",
    "#BAB0AC",
    "#E41A1C",
    "#DEA0FD",
    "#666666",
    "#DA16FF",
    "#2E91E5",
    "#511CFB",
    "#00CC96",
    "#E6AB02",
)
#: Plotly's bar hatchings, the first one none: one per round of the colours.
PATTERNS = ("", "/", "\\", "x", ".", "+", "-", "|")


@dataclass(frozen=True, slots=True)
class SystemStyle:
    """How the ``index``-th system is drawn: a colour and, past 20 systems, a bar pattern."""

    color: str
    pattern: str


def system_style(index: int) -> SystemStyle:
    """The style of the system at ``index`` (0-based) in a chart's order of systems."""
    rounds, position = divmod(index, len(SYSTEM_COLORS))
    return SystemStyle(SYSTEM_COLORS[position], PATTERNS[rounds % len(PATTERNS)])
