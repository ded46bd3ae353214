"""The error marks as chromium draws them, without a server: the markup and style sheet alone.

Found by trying WMT24's ESA release (tests/data/esa): Aya23's line 261 has an
``undecided`` omission. Its marker after the line was drawn in black (the box's
border took the text colour, as no severity rule names ``undecided``) and, at the
end of a full line, broke in two: "‸" on one line, "omission" on the next.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from bleuviz.io.error_spans import UNDECIDED, ErrorSpan
from bleuviz.render.error_marks import error_line_html
from bleuviz.render.highlight import STYLE

pytestmark = pytest.mark.e2e

#: The colours chromium computes for the box of each marker, and its line boxes.
MARKERS = """() => [...document.querySelectorAll('.bv-omission')].map(e => ({
  border: getComputedStyle(e).borderTopColor,
  rects: e.getClientRects().length,
  inside: e.getBoundingClientRect().right <= e.closest('div[style]').getBoundingClientRect().right,
}))"""


def test_an_omission_marker_keeps_its_severity_colour_and_one_box(page: Page) -> None:
    text = "určitě, ale můžete pozvat lidi, aby vám pomohli sežrat ten krásný chlebový"
    errors = [
        ErrorSpan(56, 57, UNDECIDED, "", "r1"),
        ErrorSpan(73, 73, UNDECIDED, "", "r1", omission=True),
    ]
    page.set_viewport_size({"width": 1280, "height": 800})
    for width in range(360, 760, 8):  # at one of these widths the marker ends a line
        page.set_content(
            f'{STYLE}<div style="width:{width}px">{error_line_html(text, errors)}</div>'
        )
        underline = page.locator(".bv-err:not(.bv-omission)").evaluate(
            "e => getComputedStyle(e).borderBottomColor"
        )
        (marker,) = page.evaluate(MARKERS)
        assert marker["border"] == underline, width  # the severity's colour, as its underline
        assert marker["rects"] == 1, width  # one box, never cut across two lines
        assert marker["inside"], width  # ...and not pushed past the line's end
