"""Stepping through the rows a table shows: previous/next follow the filters and the sort."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st


def _step(seg_key: str, visible: Sequence[int], delta: int) -> None:
    """Open the shown row before or after the open segment (or the first/last shown)."""
    seg = st.session_state.get(seg_key)
    if not visible:
        return
    if seg in visible:
        position = visible.index(seg) + delta
        st.session_state[seg_key] = visible[max(0, min(position, len(visible) - 1))]
    else:
        st.session_state[seg_key] = visible[0] if delta > 0 else visible[-1]


def row_stepper(
    seg_key: str, visible: Sequence[int], clear: Callable[[], None] | None, key: str
) -> None:
    """Previous/next buttons over the shown rows, and where the open segment stands.

    ``visible`` holds the segment numbers (from 1) in the table's order. When the
    open segment is not among them, say so and offer ``clear`` (reset the filters).
    """
    seg = st.session_state.get(seg_key)
    prev, nxt, note = st.columns([2, 2, 7], vertical_alignment="center")
    prev.button(
        "Previous",
        key=f"{key}_prev",
        on_click=_step,
        args=(seg_key, list(visible), -1),
        icon=":material/arrow_back:",
        help="the row shown above the open one",
        disabled=not visible,
    )
    nxt.button(
        "Next",
        key=f"{key}_next",
        on_click=_step,
        args=(seg_key, list(visible), 1),
        icon=":material/arrow_forward:",
        help="the row shown below the open one",
        disabled=not visible,
    )
    if seg is not None and seg in visible:
        row = list(visible).index(int(seg)) + 1
        note.caption(
            f"Segment {seg} is row {row} of the {len(visible)} shown; "
            "the buttons step through the rows as filtered and sorted."
        )
        return
    note.caption(f"Segment {seg} is not among the {len(visible)} rows the filters leave.")
    if clear is not None:
        note.button("Clear the filters", key=f"{key}_clear", on_click=clear)
