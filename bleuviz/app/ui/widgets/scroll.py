"""Bring one element of the page into view when the page opens (a link to a segment).

A segment table is brought to the linked segment's row too (``scroll_table_to_row``).

Streamlit draws a page top to bottom and leaves the window at its top, so a link to
one segment would open on the table above its drill-down. ``st.html`` runs our
script in the page (``unsafe_allow_javascript``); the script holds no text from
the data, only the anchor, which is ours.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

#: How long the script looks for the element (it is drawn after the script arrives) and keeps
#: it in view while the page above it grows (a linked segment's first look, then the page,
#: then its deferred parts: three runs, which a busy server or browser may spread out).
_WAIT_MS = 15_000

_SCRIPT = """<script>
(() => {{
  const id = {anchor}, stop = Date.now() + {wait};
  let moved = false;
  for (const kind of ["wheel", "touchstart", "keydown", "mousedown", "pointerdown"]) {{
    window.addEventListener(kind, () => {{ moved = true; }}, {{ once: true, capture: true }});
  }}
  // The script may arrive after the user started: a focused field or an open list wins.
  const busy = () => moved
    || (document.activeElement && document.activeElement !== document.body)
    || document.querySelector('[role="listbox"], [role="dialog"]');
  const show = () => {{
    const target = document.getElementById(id);
    if (busy()) return;
    if (target) {{
      target.style.scrollMarginTop = "4.5rem";  // clear of Streamlit's header bar
      target.scrollIntoView({{ block: "start" }});
      // Again whenever what is drawn above it changes size (a table or chart arriving
      // after the answer), until the user acts or the wait is over. A change seen while
      // the element is being drawn anew, or while a list is open, is let pass, not the
      // following: a later one puts the element back in place.
      const page = document.querySelector('[data-testid="stMainBlockContainer"]');
      if (!page) return;
      const follow = new ResizeObserver(() => {{
        if (moved || Date.now() > stop) {{ follow.disconnect(); return; }}
        const again = document.getElementById(id);
        if (again && !busy()) again.scrollIntoView({{ block: "start" }});
      }});
      follow.observe(page);
    }} else if (Date.now() < stop) {{
      setTimeout(show, 50);
    }}
  }};
  show();
}})();
</script>"""


def scroll_into_view(anchor: str, where: Any = st) -> None:
    """Scroll the page to the element whose id is ``anchor``, once it is drawn.

    The user wins: after their own scrolling (wheel, touch, a key, a click: a table
    cancels the mouse events of a press, hence the pointer's too), or
    with a field focused or a list open (the script is fetched with the page's
    components, and may arrive after the user started), it does not move the page.
    ``where``: an ``st.empty()`` the page draws on every run, so that the elements
    below keep their places on the reruns that do not scroll (an element that
    comes and goes shifts them, and the browser draws them anew: an open list
    closes).
    """
    where.html(
        _SCRIPT.format(anchor=json.dumps(anchor), wait=_WAIT_MS),
        unsafe_allow_javascript=True,
        width="content",
    )


#: The grid's own scrolling element in an ``st.dataframe`` (glide-data-grid's), and the height
#: of its rows (px): the row at index ``i`` starts ``i`` rows below the top of its content.
_GRID_SCROLLER, _GRID_ROW_PX = ".dvn-scroller", 35

_TABLE_SCRIPT = """<script>
(() => {{
  const selector = {selector}, top = {top}, height = {height}, stop = Date.now() + {wait};
  const go = () => {{
    const grid = document.querySelector(selector);
    // Once the rows are in (the grid is as tall as they are), unless the user scrolled it.
    if (grid && grid.scrollHeight >= height) {{
      if (grid.scrollTop === 0) grid.scrollTop = top;
    }} else if (Date.now() < stop) {{
      setTimeout(go, 50);
    }}
  }};
  go();
}})();
</script>"""


def scroll_table_to_row(container_key: str, row: int, n_rows: int, where: Any = st) -> None:
    """Scroll the table in the container ``container_key`` to its row ``row`` (from 0).

    The row is drawn second from the top, the one before it above it (at the table's end,
    as far as the table goes). Streamlit's table opens on its first rows and has no way
    to scroll it from the server: a linked segment's drill-down was in view, its row not.
    ``n_rows``: the rows the table holds (the script waits until they are drawn).
    """
    where.html(
        _TABLE_SCRIPT.format(
            selector=json.dumps(f".st-key-{container_key} {_GRID_SCROLLER}"),
            top=max(row - 1, 0) * _GRID_ROW_PX,
            height=(n_rows + 1) * _GRID_ROW_PX,
            wait=_WAIT_MS,
        ),
        unsafe_allow_javascript=True,
        width="content",
    )
