"""One colour per system that stays distinguishable to 24 systems, then colour and pattern.

Plotly's default sequence has 10 colours, so a WMT set of 13 systems drew three
pairs of systems alike. The colours here are Plotly's ``Dark24``: of Plotly's
qualitative palettes of 20 colours or more (Dark24, Light24, Alphabet) its
closest two colours are the farthest apart (CIE76 ΔE 26; Kelly's 1965 "colours
of maximum contrast" have a pair at 15), and every one is dark enough (L* ≤ 60)
to read on the app's white background. Past 24 systems a bar is also hatched,
so that system 25 is not system 1 again.
"""

from __future__ import annotations

from dataclasses import dataclass

from plotly.colors import qualitative

SYSTEM_COLORS: tuple[str, ...] = tuple(qualitative.Dark24)
#: Plotly's bar hatchings, the first one none: one per round of the colours.
PATTERNS = ("", "/", "\\", "x", ".", "+", "-", "|")


@dataclass(frozen=True, slots=True)
class SystemStyle:
    """How the ``index``-th system is drawn: a colour and, past 24 systems, a bar pattern."""

    color: str
    pattern: str


def system_style(index: int) -> SystemStyle:
    """The style of the system at ``index`` (0-based) in a chart's order of systems."""
    rounds, position = divmod(index, len(SYSTEM_COLORS))
    return SystemStyle(SYSTEM_COLORS[position], PATTERNS[rounds % len(PATTERNS)])
