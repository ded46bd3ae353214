"""Table selections that always show the open segment, never a stale tick.

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

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

#: The height of a segment table on the page (px): about eight rows, the rest scrolls.
TABLE_PX = 320


def clickable_segment_table(
    page: pd.DataFrame, prefix: str, column_config: Mapping[str, Any]
) -> None:
    """Draw ``page`` (a ``seg`` column, from 1) as a table whose click on a row opens it.

    Keys: the table is ``PREFIX_table``, its rows' segments ``PREFIX_visible``, and the
    open segment ``PREFIX_seg``, which the tick follows (``sync_selection``).
    """
    table, visible, open_key = f"{prefix}_table", f"{prefix}_visible", f"{prefix}_seg"
    st.session_state[visible] = page["seg"].tolist()
    sync_selection(table, st.session_state[visible], st.session_state.get(open_key))
    st.dataframe(
        page,
        key=table,
        hide_index=True,
        height=TABLE_PX,
        on_select=partial(clicked_segment, table, visible, open_key),
        selection_mode="single-row",
        column_config=dict(column_config),
    )


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


def _synced(key: str) -> str:
    """Session-state key of the segment the table ``key`` was last ticked at by the server."""
    return f"{key}::synced"
