"""Segment tables whose segment numbers open a segment at a click, and that mark the open one.

Each row's segment number is a button (``st.column_config.ButtonColumn``), whose
click reaches the server at once and names the row as the table was sent,
whatever the user's sort. The tables take no row selection: Streamlit sends a
table's selection only after 150 ms without another change (the debounce of its
DataFrame element), half of the 0.3 s an interaction may take (issue 35), and a
selection set from the server comes back from the browser as a click of its own.
The open segment's row carries a mark in a narrow first column instead, drawn
with the table, which sorting and scrolling keep beside its row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

#: The height of a segment table on the page (px): about eight rows, the rest scrolls.
TABLE_PX = 320

#: The column marking the open segment's row: its name, its mark and its width (px).
OPEN_COLUMN, OPEN_MARK, OPEN_PX = "open", "▶", 32


def clickable_segment_table(
    page: pd.DataFrame,
    prefix: str,
    column_config: Mapping[str, Any],
    *,
    open_key: str | None = None,
    then: Callable[[], None] | None = None,
    tip: str = "Open this segment below",
    height: int = TABLE_PX,
    column_order: Sequence[str] | None = None,
) -> None:
    """Draw ``page`` (a ``seg`` column, from 1) as a table whose segment numbers open them.

    ``column_config`` configures the other columns: ``seg`` is the segment's button,
    ``tip`` its help, and a first column marks the open segment, ``open_key``
    (``PREFIX_seg`` by default). Keys: the table is ``PREFIX_table``, its buttons'
    click ``PREFIX_open``. ``then`` runs after each click (e.g. to show the tab that
    draws the open segment).
    """
    table, click = f"{prefix}_table", f"{prefix}_open"
    open_key = open_key or f"{prefix}_seg"
    marked = page.assign(**{OPEN_COLUMN: open_marks(page["seg"], st.session_state.get(open_key))})
    order = [OPEN_COLUMN, *(column_order if column_order is not None else page.columns)]
    # A table without row selection is no widget and keeps no key: the container carries it
    # (the page's ``.st-key-PREFIX_table``).
    st.container(key=table).dataframe(
        marked,
        hide_index=True,
        height=height,
        column_order=order,
        column_config={
            **column_config,
            OPEN_COLUMN: st.column_config.TextColumn("", width=OPEN_PX, help="The open segment"),
            "seg": st.column_config.ButtonColumn(
                "segment",
                width="small",
                help=tip,
                key=click,
                on_click=partial(
                    _opening, partial(choose_pressed, click, page["seg"].tolist(), open_key), then
                ),
            ),
        },
    )


def open_marks(segments: pd.Series, open_segment: int | None) -> np.ndarray:
    """The open-mark column of a table of ``segments``: the mark in the open segment's row."""
    return np.where(segments.to_numpy() == open_segment, OPEN_MARK, "")


def _opening(opened: Callable[[], None], then: Callable[[], None] | None) -> None:
    """A table's callback: ``opened`` (which opens the clicked segment), then ``then``."""
    opened()
    if then is not None:
        then()


def choose_pressed(click_key: str, values: Sequence[object], target_key: str) -> None:
    """Set ``target_key`` to the value of the row whose button the user pressed.

    ``values``: the table's rows as it was sent (the callback is bound to the run that
    drew it); the click ``click_key`` names the row in that order, whatever the user's
    sort. A row the table lacks changes nothing.
    """
    row = st.session_state[click_key]["row"]
    if 0 <= row < len(values):  # Streamlit checks only that it is not negative
        st.session_state[target_key] = values[row]
