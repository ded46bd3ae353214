"""Parts of a page drawn after its answer: charts arrive once the answer is on screen.

Streamlit's frontend loads its Plotly chunk (4.7 MB) the moment a chart element
arrives, and evaluating it holds the browser's main thread: on a page opened cold,
the Overview's cards and table, sent before the charts in the same run, showed only
once the charts were drawn (``benchmarks/bench_app.py``, and a probe of the 3,004 x 9
WMT17 Overview: every element appeared at the same instant, seconds after the last
delta had arrived). So a deferred part is not sent with the first run of a page opened
in a session (``arriving``: by a link, a reload or the navigation) unless the session
has asked for it before; a later run draws it directly (the answer is on screen by then,
and the chunk loads while it stays there). In its place the run draws a button of the
same name and, below it, an empty block as tall as the part will be (nothing below it
jumps when the part arrives). A small script in the page presses that button once the
run has ended and every element is drawn; the button's rerun draws the part, and from
then on, for the rest of the session, the part is drawn with the page as before. The
rerun is the whole page's, not a fragment's: the parts hold widgets whose callbacks
change what the rest of the page shows (a click on Compare's scatter opens another tab),
which a fragment's rerun would not redraw; the rest of the page is cached, and its
elements, sent again unchanged, stay as they are on screen.

Without the script (or before it fires) the button works as any button: the part is
one click away, never lost.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import streamlit as st

from bleuviz.app.ui.state.links import arriving
from bleuviz.app.ui.widgets.markup import empty_room

#: Waits at most this long for the page to finish before pressing the button itself.
_WAIT_MS = 60_000

_SCRIPT = """<script>
(() => {{
  const selector = {selector}, stop = Date.now() + {wait};
  // The run has ended, every element is drawn, no list or dialog the user opened would be
  // closed by the rerun, and the user is not typing into a box (a note, a search).
  const idle = () => document.querySelector(
      '[data-testid="stApp"][data-test-script-state="notRunning"]')
    && !document.querySelector('[data-testid="stSkeleton"], [role="listbox"], [role="dialog"]')
    && !document.activeElement?.matches('textarea, input:not([role="combobox"])');
  let shown = false;
  const press = () => {{
    const button = document.querySelector(selector);
    if (!button && shown) return;  // drawn by another part's rerun: nothing left to do
    shown = shown || Boolean(button);
    if (button && idle()) {{
      button.click();
    }} else if (Date.now() < stop) {{
      setTimeout(press, 50);
    }}
  }};
  // After the next frame: what the run sent before this element is painted first.
  requestAnimationFrame(() => setTimeout(press, 0));
}})();
</script>"""


#: The height of a Plotly figure of default height (px): what one deferred chart reserves.
CHART_PX = 450

#: What the button takes of the reserved height (px): its own 40 and the 16 of the gap
#: Streamlit leaves between elements.
_BUTTON_PX = 56

#: Session-state key of a session that wants every part with its page's first run: an
#: AppTest (no browser, so no script presses the buttons) sets it; the app never does.
EVERY_PART = "deferred::every_part"


def wanted_key(key: str) -> str:
    """The session-state key that says the part ``key`` has been asked for."""
    return f"{key}::wanted"


def deferred(
    key: str, label: str, reserve_px: int, draw: Callable[[], object], *, defer: bool = True
) -> None:
    """Draw ``draw()`` here; on a page's first run, only once the rest of it is shown.

    Args:
        key: The part's key, with the page's prefix (its button is ``KEY_go``).
        label: The button's label, e.g. "Draw the charts".
        reserve_px: The height the button and the empty block below it take together,
            reserved while the part is not drawn (about the part's own height).
        draw: Draws the part (its widgets keep their own keys).
        defer: False draws the part now, on any run: on this visit it is the answer
            (the Sentences table when no segment is linked).
    """
    state = st.session_state
    if not defer or not arriving() or state.get(wanted_key(key)) or state.get(EVERY_PART):
        draw()
        return
    press_soon(
        key, label, "Drawn as soon as the page above is shown.", spacer_px=reserve_px - _BUTTON_PX
    )


def press_soon(
    key: str,
    label: str,
    help: str,
    where: Any = st,
    icon: str = ":material/bar_chart:",
    spacer_px: int = 0,
) -> None:
    """Draw a button the page presses once this run is shown (its key ``KEY_go``).

    Pressing it notes the part ``key`` as wanted (:func:`wanted_key`) and reruns the
    page. Below the button, an empty block ``spacer_px`` tall holds the pressing script:
    :func:`deferred` reserves the part's room with it; a caller that draws the part
    elsewhere (the frame's first look at a linked segment, in the sidebar) leaves it 0.
    """
    where.button(label, key=f"{key}_go", on_click=_want, args=(key,), icon=icon, help=help)
    where.html(
        empty_room(spacer_px)
        + _SCRIPT.format(selector=json.dumps(f".st-key-{key}_go button"), wait=_WAIT_MS),
        unsafe_allow_javascript=True,
    )


def _want(key: str) -> None:
    """The button's callback: from now on, draw the part."""
    st.session_state[wanted_key(key)] = True
