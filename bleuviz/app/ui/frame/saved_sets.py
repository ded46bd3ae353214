"""The saved test set chooser: pick, rename or delete a set of the workspace."""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache.workspace import (
    SAVED_SET_KEY,
    describe,
    open_workspace,
    workspace_readonly,
)
from bleuviz.errors import BleuvizError
from bleuviz.workspace import SavedSet


def saved_set_widgets(sets: tuple[SavedSet, ...]) -> None:
    """Choose a saved test set; rename or delete it."""
    state, bar = st.session_state, st.sidebar
    by_id = {saved.id: saved for saved in sets}
    if state.get(SAVED_SET_KEY) not in by_id:
        state[SAVED_SET_KEY] = sets[0].id
    chosen = bar.selectbox(
        "Saved test set",
        list(by_id),
        format_func=lambda i: describe(by_id[i]),
        key=SAVED_SET_KEY,
        help="Uploads and command-line files are saved in the workspace; a link names the "
        "set it shows (set=ID).",
    )
    if error := state.pop("ws_error", None):
        bar.error(error, icon=":material/error:")
    if workspace_readonly():
        return
    with bar.popover("Rename or delete", icon=":material/edit:"):
        st.text_input("New name", key="ws_new_name", placeholder=by_id[chosen].name)
        st.button("Rename", key="ws_rename", on_click=rename_set, args=(chosen,))
        st.button(
            "Delete this test set and its notes",
            key="ws_delete",
            type="primary",
            on_click=delete_set,
            args=(chosen,),
        )


def rename_set(set_id: str) -> None:
    """Give the chosen set the name typed (callback: runs before the next script run)."""
    workspace = open_workspace()
    name = str(st.session_state.get("ws_new_name", "")).strip()
    if workspace is None or not name:
        return
    try:
        workspace.rename(set_id, name)
    except BleuvizError as exc:
        st.session_state["ws_error"] = str(exc)
    st.session_state["ws_new_name"] = ""


def delete_set(set_id: str) -> None:
    """Delete the chosen set (callback); the sidebar then shows the next one."""
    workspace = open_workspace()
    if workspace is None:
        return
    try:
        workspace.delete(set_id)
    except BleuvizError as exc:
        st.session_state["ws_error"] = str(exc)
        return
    st.session_state.pop(SAVED_SET_KEY, None)
