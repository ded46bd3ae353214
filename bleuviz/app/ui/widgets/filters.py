"""Active filters as removable chips, with "Clear all": one row above a filtered table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from bleuviz.arrays import IntArray


@dataclass(frozen=True, slots=True)
class ActiveFilter:
    """A filter in force: the segments it keeps (0-based) and the state keys that hold it."""

    segments: Sequence[int] | IntArray
    keys: tuple[str, ...]


def forget(keys: Sequence[str]) -> None:
    """Reset widgets to their defaults by forgetting their state."""
    for key in keys:
        st.session_state.pop(key, None)


def filter_chips(filters: Mapping[str, Sequence[str]], key: str) -> None:
    """One chip per active filter (label -> the state keys that hold it); a click removes it."""
    if not filters:
        return
    columns = st.columns(len(filters) + 2)
    columns[0].caption("Active filters:")
    for i, (column, (label, keys)) in enumerate(zip(columns[1:], filters.items(), strict=False)):
        column.button(
            label, key=f"{key}_{i}", icon=":material/close:", on_click=forget, args=(list(keys),)
        )
    if len(filters) > 1:
        every = [k for keys in filters.values() for k in keys]
        columns[-1].button("Clear all", key=f"{key}_all", on_click=forget, args=(every,))
