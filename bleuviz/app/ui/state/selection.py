"""Segment tables that open a segment at a click and always tick the open one.

Each row's segment number is a button (``st.column_config.ButtonColumn``): its
click reaches the server at once. A click on a row's tick box opens the row
too, but Streamlit sends a table's selection only after 150 ms without another
change (the debounce of its DataFrame element), which alone is half of the
0.3 s an interaction may take (issue 35).

Streamlit keeps a table's selection by row position, so after sorting,
filtering or switching systems the tick would stay on a row that is no longer
the open segment. Before a selectable segment table is drawn, its selection is
set (through Session State, which Streamlit supports for dataframes) to the
open segment's row, or to nothing when the table does not show it; one click
on another row then opens that row.

A selection set from the server comes back from the browser with the next rerun
in the browser's own spelling (with ``"cells": []``), which Streamlit takes for a
change and answers with the table's ``on_select`` callback. That echo names the
row the server ticked, so ``clicked_segment`` ignores a selection of the segment
last synced: otherwise a segment typed into the Segment box right after a sync
was replaced by the ticked row's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

#: The height of a segment table on the page (px): about eight rows, the rest scrolls.
TABLE_PX = 320


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
    ``tip`` its help. Keys: the table is ``PREFIX_table``, its buttons' click
    ``PREFIX_open``, its rows' segments ``PREFIX_visible``, and the open segment
    ``open_key`` (``PREFIX_seg`` by default), which the tick follows (``sync_selection``).
    ``then`` runs after each click on a number or a tick (e.g. to show the tab that
    draws the open segment).
    """
    table, visible, click = f"{prefix}_table", f"{prefix}_visible", f"{prefix}_open"
    open_key = open_key or f"{prefix}_seg"
    st.session_state[visible] = page["seg"].tolist()
    sync_selection(table, st.session_state[visible], st.session_state.get(open_key))
    st.dataframe(
        page,
        key=table,
        hide_index=True,
        height=height,
        on_select=partial(_opening, partial(clicked_segment, table, visible, open_key), then),
        selection_mode="single-row",
        column_order=column_order,
        column_config={
            **column_config,
            "seg": st.column_config.ButtonColumn(
                "segment",
                width="small",
                help=tip,
                key=click,
                on_click=partial(
                    _opening, partial(pressed_segment, click, visible, open_key), then
                ),
            ),
        },
    )


def _opening(opened: Callable[[], None], then: Callable[[], None] | None) -> None:
    """A table's callback: ``opened`` (which opens the clicked segment), then ``then``."""
    opened()
    if then is not None:
        then()


def sync_selection(key: str, visible: Sequence[int], open_segment: int | None) -> None:
    """Set the table ``key``'s selection to the open segment's row (segment numbers from 1)."""
    shown = list(visible)
    ticked = open_segment if open_segment is not None and open_segment in shown else None
    rows = [shown.index(ticked)] if ticked is not None else []
    st.session_state[_synced(key)] = ticked
    current = st.session_state.get(key)
    if current is None or list(current["selection"]["rows"]) != rows:
        st.session_state[key] = {"selection": {"rows": rows, "columns": []}}


def clicked_segment(key: str, visible_key: str, seg_key: str) -> None:
    """Open the segment of the row the user clicked in the table ``key``."""
    state = st.session_state
    rows = state[key].selection.rows
    if not rows:
        return
    segment = state[visible_key][rows[0]]
    if segment != state.get(_synced(key)):  # the server's own tick coming back is no click
        state[seg_key] = segment


def pressed_segment(click_key: str, visible_key: str, seg_key: str) -> None:
    """Open the segment whose button the user pressed (the click ``click_key`` names its row)."""
    state = st.session_state
    row = state[click_key]["row"]  # the row in the table as sent, whatever the user's sort
    visible = state[visible_key]
    if 0 <= row < len(visible):  # Streamlit checks only that it is not negative
        state[seg_key] = visible[row]


def _synced(key: str) -> str:
    """Session-state key of the segment the table ``key`` was last ticked at by the server."""
    return f"{key}::synced"
