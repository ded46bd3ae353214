"""Human error spans drawn over a line, together with BLEU's token highlight.

Two layers are readable at once: BLEU's n-gram status stays each token's
background (``bleuviz.render.highlight``), and an error span is a coloured
underline below the characters it marks (colour by severity; category, rater
and severity in its tooltip).

Markup contract (tests, styling and the browser rely on it):

- every piece of a marked error is ``<span class="bv-err" data-severity="..."
  data-category="..." data-rater="..." data-span="K" data-lane="L" title="...">``;
  ``data-span`` numbers the errors of the line, so that the pieces of one error
  (cut by token edges or by another error) belong together;
- overlapping errors nest, each keeping one ``data-lane`` (0 outermost) along its
  whole length, drawn one below the other so both stay visible;
- an omission (no span) is ``<span class="bv-err bv-omission" data-omission="true"
  ...>``, after the line's text; so is an error whose offsets fall outside the line
  (``data-outside="true"``), which a reader should have refused;
- tokens keep ``<span class="bv-tok" data-status="...">`` around their pieces;
  an error's piece at a token's edge says so (``data-edge="start"``, ``"end"`` or
  ``"start end"``) and its underline runs on under the token's padding, so that an
  error over several words is one unbroken line, not dashes at each token's edge.

Every value from the data (text, severity, category, rater) enters the HTML
through ``inert_text`` (see ``bleuviz.render.inert``), so markup in an annotation
shows literally and runs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from bleuviz.bleu.spans import Span
from bleuviz.io.error_spans import MAJOR, MINOR, NEUTRAL, ErrorSpan
from bleuviz.render.inert import inert_text

#: Underline colours by severity; any other severity (``critical``...) draws in OTHER_COLOUR.
SEVERITY_COLOURS = {MAJOR: "#c92a2a", MINOR: "#e8590c", NEUTRAL: "#868e96"}
OTHER_COLOUR = "#862e9c"
#: Nesting lanes drawn apart; deeper errors share the last lane's offset.
LANES = 4
#: A token's padding left and right (``highlight.STYLE``): a piece of an error at a token's
#: edge reaches over it, or a multi-word error's underline would break at every token's
#: edge into dashes, which read as the neutral severity's dashed line.
TOKEN_PADDING_X = "0.2rem"

#: CSS rules of the underlines (no ``<style>`` tag: ``highlight.STYLE`` holds them).
ERROR_CSS = (
    ".bv-err { border-bottom: 3px solid "
    + OTHER_COLOUR
    + "; }"
    + "".join(
        f'.bv-err[data-severity="{severity}"] {{ border-bottom-color: {colour}; }}'
        for severity, colour in SEVERITY_COLOURS.items()
    )
    + '.bv-err[data-severity="neutral"] { border-bottom-style: dashed; }'
    + "".join(
        f'.bv-err[data-lane="{lane}"] {{ padding-bottom: {1 + 4 * lane}px; }}'
        for lane in range(LANES)
    )
    + f'.bv-tok .bv-err[data-edge~="start"] {{ margin-left: -{TOKEN_PADDING_X};'
    f" padding-left: {TOKEN_PADDING_X}; }}"
    + f'.bv-tok .bv-err[data-edge~="end"] {{ margin-right: -{TOKEN_PADDING_X};'
    f" padding-right: {TOKEN_PADDING_X}; }}"
    # The box takes the colour of any other severity (``undecided``...) as its underline does,
    # not the text's, and stays whole at a line's end ("‸" and "omission" one box).
    + ".bv-omission { border: 2px solid "
    + OTHER_COLOUR
    + "; border-radius: 0.25rem; padding: 0 0.25rem;"
    " margin-left: 0.4rem; font-size: 0.85rem; white-space: nowrap; }"
    + "".join(
        f'.bv-omission[data-severity="{severity}"] {{ border-color: {colour}; }}'
        for severity, colour in SEVERITY_COLOURS.items()
    )
)


@dataclass(frozen=True, slots=True)
class _Placed:
    """An error to draw: its clipped characters, its number on the line and its lane."""

    error: ErrorSpan
    start: int
    end: int
    number: int
    lane: int


def error_title(error: ErrorSpan) -> str:
    """Tooltip of one error: severity, category, rater (and a metric's confidence)."""
    parts = [error.severity.capitalize() or "No severity", error.category or "no category"]
    parts.append(f"rater {error.rater}" if error.rater else "no rater")
    if error.confidence is not None:
        parts.append(f"confidence {error.confidence:.2f}")
    if error.omission:
        parts.insert(0, "Omission")
    return " · ".join(parts)


def _attributes(error: ErrorSpan, number: int, under: str = "") -> str:
    """The data attributes and tooltip every piece of an error carries (all escaped).

    ``under``: the hover text of the token the piece lies in, added below the
    error's own (the innermost element's tooltip is the one a browser shows).
    """
    title = error_title(error) + (f"\n{under}" if under else "")
    return (
        f'data-severity="{inert_text(error.severity)}" '
        f'data-category="{inert_text(error.category)}" '
        f'data-rater="{inert_text(error.rater)}" data-span="{number}" '
        f'title="{inert_text(title)}"'
    )


def place_errors(text: str, errors: Sequence[ErrorSpan]) -> tuple[list[_Placed], list[_Placed]]:
    """Split ``errors`` into spans drawn in the line and markers drawn after it.

    Spans get lanes greedily, longest first among those starting together, so
    that an error keeps one lane along its whole length and overlapping errors
    never share one. Omissions, empty spans and spans outside the line are
    markers.
    """
    drawn, markers = [], []
    lane_ends: list[int] = []  # per lane, where its last error ends
    ordered = sorted(enumerate(errors), key=lambda pair: (pair[1].start, -pair[1].end, pair[0]))
    for number, error in ordered:
        if error.omission or not 0 <= error.start < error.end <= len(text):
            markers.append(_Placed(error, error.start, error.end, number, 0))
            continue
        lane = next((i for i, end in enumerate(lane_ends) if end <= error.start), len(lane_ends))
        lane_ends[lane : lane + 1] = [error.end]
        drawn.append(_Placed(error, error.start, error.end, number, lane))
    markers.sort(key=lambda placed: placed.number)
    return drawn, markers


def marked_text(
    text: str,
    start: int,
    end: int,
    drawn: Sequence[_Placed],
    under: str = "",
    token: bool = False,
) -> str:
    """Return ``text[start:end]`` escaped, each piece wrapped in the errors covering it.

    ``under``: the hover text of the token the characters belong to, if any;
    ``token``: the characters are a token's, whose edges its pieces mark (``data-edge``).
    """
    cuts = {start, end}
    cuts.update(p.start for p in drawn if start < p.start < end)
    cuts.update(p.end for p in drawn if start < p.end < end)
    edges = sorted(cuts)
    parts = []
    for a, b in pairwise(edges):
        covering = sorted((p for p in drawn if p.start <= a and b <= p.end), key=lambda p: p.lane)
        at_edge = " ".join(name for name, hit in (("start", a == start), ("end", b == end)) if hit)
        edge = f' data-edge="{at_edge}"' if token and at_edge else ""
        opening = "".join(
            f'<span class="bv-err" {_attributes(p.error, p.number, under)} '
            f'data-lane="{min(p.lane, LANES - 1)}"{edge}>'
            for p in covering
        )
        parts.append(opening + inert_text(text[a:b]) + "</span>" * len(covering))
    return "".join(parts)


def markers_html(markers: Sequence[_Placed]) -> str:
    """Omissions and errors outside the line, as labelled markers after it."""
    out = []
    for p in markers:
        kind = 'data-omission="true"' if p.error.omission else 'data-outside="true"'
        label = "omission" if p.error.omission else f"offsets {p.start}–{p.end} outside the line"
        out.append(
            f'<span class="bv-err bv-omission" {kind} {_attributes(p.error, p.number)}>'
            f"‸ {inert_text(label)}</span>"
        )
    return "".join(out)


def error_line_html(text: str, errors: Sequence[ErrorSpan]) -> str:
    """Return a line of raw text with ``errors`` underlined (a source, or an unaligned line)."""
    drawn, markers = place_errors(text, errors)
    body = marked_text(text, 0, len(text), drawn)
    return f'<div class="bv-line">{body}{markers_html(markers)}</div>'


def tokens_with_errors(
    text: str,
    spans: Sequence[Span],
    statuses: Sequence[str],
    titles: Sequence[str],
    errors: Sequence[ErrorSpan],
) -> str:
    """Return a line whose tokens keep their status and whose errors are underlined.

    ``spans`` are the tokens' characters in ``text`` (``align_tokens``); the
    text between tokens is drawn too, so an error covering a space stays one
    unbroken underline.
    """
    drawn, markers = place_errors(text, errors)
    parts: list[str] = []
    cursor = 0
    for (start, end), status, tip in zip(spans, statuses, titles, strict=True):
        parts.append(marked_text(text, cursor, start, drawn))
        parts.append(
            f'<span class="bv-tok" data-status="{status}" title="{inert_text(tip)}">'
            f"{marked_text(text, start, end, drawn, tip, token=True)}</span>"
        )
        cursor = end
    parts.append(marked_text(text, cursor, len(text), drawn))
    return f'<div class="bv-line">{"".join(parts)}{markers_html(markers)}</div>'


def error_legend(severities: Iterable[str] = ()) -> str:
    """The legend of the underlines: one sample per severity, and an omission.

    ``severities``: those on screen; any beyond major, minor and neutral (xCOMET's
    ``critical``) gets a sample too, in the colour every other severity takes.
    """
    usual = (MAJOR, MINOR, NEUTRAL)
    shown = [*usual, *sorted(set(severities) - set(usual))]
    samples = "".join(
        f'<span class="bv-err" data-severity="{inert_text(severity)}" data-lane="0" '
        f'title="{inert_text(severity)} error" style="margin-right:0.8rem">'
        f"{inert_text(severity)}</span>"
        for severity in shown
    )
    omission = '<span class="bv-err bv-omission" data-severity="major">‸ omission</span>'
    return (
        '<div class="bv-legend"><span class="bv-legend-side">Error spans</span> '
        f"{samples}{omission}</div>"
    )
