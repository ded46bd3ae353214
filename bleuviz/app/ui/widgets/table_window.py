"""A window of a long segment table: the browser gets the rows of one page, not every row.

An ``st.dataframe`` is sent whole to the browser on every rerun that changes
it, and a segment table changes at each click (its open mark, ``state/selection.py``);
Streamlit loads an in-memory frame lazily only above 150,000 rows. 100,000
segments are about 20 MB of Arrow per session. The table therefore shows one page of
``PAGE_ROWS`` rows, the page that holds the open segment unless the user picks
another page; filters, sorting and the Previous/Next buttons still work on
every row, server-side.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

#: Rows per page (Streamlit's own page size for lazily loaded frames).
PAGE_ROWS = 1_000

#: ``st.dataframe``'s row height and the most rows its own height shows (px, rows).
_ROW_PX, _AUTO_ROWS = 35, 10


def table_px(n_rows: int) -> int:
    """The height ``st.dataframe`` takes by itself for ``n_rows`` rows (px): a header and up
    to ten rows, and its border."""
    return (min(n_rows, _AUTO_ROWS) + 1) * _ROW_PX + 2


#: The page's main column at 1,280 px and wider (Streamlit's centered layout, as chromium
#: draws it), and what a grid column needs to show its header whole: about 7.5 px a
#: character of the header's font and 20 of padding, and at least a number's room.
MAIN_PX, _CHAR_PX, _PAD_PX, _NUMBER_PX = 818, 7.5, 20, 64


def column_px(label: str) -> int:
    """The width (px) a grid column needs for its header ``label`` and a number below it."""
    return max(_NUMBER_PX, round(len(label) * _CHAR_PX) + _PAD_PX)


def fits_width(labels: list[str]) -> bool:
    """Whether columns headed ``labels`` fit the main column side by side, headers whole."""
    return sum(column_px(label) for label in labels) <= MAIN_PX


def _pages(n_rows: int) -> list[str]:
    """The page labels of a table of ``n_rows`` rows: "rows 1–1,000", ..."""
    return [
        f"rows {start + 1:,}–{min(start + PAGE_ROWS, n_rows):,}"
        for start in range(0, n_rows, PAGE_ROWS)
    ]


def table_window(shown: pd.DataFrame, open_segment: int | None, key: str) -> pd.DataFrame:
    """Return the page of ``shown`` to draw; with more than one page, draw a page picker.

    ``shown`` has a ``seg`` column (segment numbers from 1) in the table's order.
    When the open segment changes (a click, a step, a deep link), the page
    follows it to the page that holds its row.
    """
    if len(shown) <= PAGE_ROWS:
        return shown
    pages = _pages(len(shown))
    state = st.session_state
    followed = f"{key}::followed"
    segs = shown["seg"].to_numpy()
    if state.get(followed) != (open_segment, len(shown)) or state.get(key) not in pages:
        state[followed] = (open_segment, len(shown))
        rows = (segs == open_segment).nonzero()[0] if open_segment is not None else []
        state[key] = pages[int(rows[0]) // PAGE_ROWS if len(rows) else 0]
    page = pages.index(
        st.selectbox(
            "Table rows",
            pages,
            key=key,
            help=f"The table sends {PAGE_ROWS:,} rows at a time to the browser; "
            "it follows the open segment.",
        )
    )
    return shown.iloc[page * PAGE_ROWS : (page + 1) * PAGE_ROWS]
