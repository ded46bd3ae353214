"""The saved test set chooser: pick, rename or delete a set of the workspace; the trash.

Deleting asks first, naming what goes (systems, notes and earlier
outputs), and moves the set to the workspace's trash, where it stays
restorable for ``TRASH_DAYS`` days ("Trash" in the sidebar, or
``bleuviz restore ID``) before it is deleted for good.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from bleuviz.app.ui.cache.workspace import (
    SAVED,
    SAVED_SET_KEY,
    describe,
    earlier_outputs_text,
    error_spans_text,
    forget_listings,
    open_workspace,
    what_goes,
    workspace_readonly,
)
from bleuviz.errors import BleuvizError
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace import TRASH_DAYS, SavedSet, Workspace


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
    saved = by_id[chosen]
    earlier = earlier_outputs_text(saved)
    spans = error_spans_text(saved)
    bar.caption(
        f"{md(saved.name)} · saved {saved.added:%Y-%m-%d %H:%M} UTC · "
        f"{len(saved.systems)} × {saved.n_segments:,} segments · id {saved.id}"
        + (f"  \nError spans kept: {md(spans)}" if spans else "")
        + (f"  \nEarlier outputs kept (replaced): {md(earlier)}" if earlier else "")
    )
    if error := state.pop("ws_error", None):
        bar.error(md(error), icon=":material/error:")
    if workspace_readonly():
        return
    with bar.popover("Rename or delete", icon=":material/edit:"):
        st.text_input("New name", key="ws_new_name", placeholder=saved.name)
        st.button("Rename", key="ws_rename", on_click=rename_set, args=(chosen,))
        st.checkbox(
            f"Move {md(saved.name)} to the trash: {md(what_goes(saved))}",
            key=f"ws_delete_confirm::{chosen}",
            help=f"Restorable from the sidebar's Trash for {TRASH_DAYS} days.",
        )
        st.button(
            "Delete this test set",
            key="ws_delete",
            type="primary",
            on_click=delete_set,
            args=(chosen,),
            disabled=not state.get(f"ws_delete_confirm::{chosen}", False),
        )


def trash_widgets() -> None:
    """The sets in the trash, each with "Restore" (nothing if the trash is empty)."""
    workspace = open_workspace()
    if workspace is None or workspace.read_only:
        return
    trashed = workspace.trash()
    if not trashed:
        return
    with st.sidebar.popover(f"Trash ({len(trashed)})", icon=":material/delete:"):
        st.caption(f"Deleted test sets stay here for {TRASH_DAYS} days, then go for good.")
        for saved in trashed:
            deleted = f"{saved.deleted:%Y-%m-%d %H:%M} UTC" if saved.deleted else ""
            systems = f"{len(saved.systems)} × {saved.n_segments:,} segments"
            st.markdown(f"**{md(saved.name)}**  \n{systems} · id {saved.id} · deleted {deleted}")
            st.button(
                "Restore",
                key=f"ws_restore::{saved.id}",
                icon=":material/restore_from_trash:",
                on_click=restore_set,
                args=(saved.id,),
            )


def _workspace_change(change: Callable[[Workspace], object]) -> bool:
    """Make ``change`` to the workspace (in a callback); return whether it was made.

    A refusal is kept for the sidebar to show on the next run (``ws_error``).
    """
    workspace = open_workspace()
    if workspace is None:
        return False
    try:
        change(workspace)
    except BleuvizError as exc:
        st.session_state["ws_error"] = str(exc)
        return False
    finally:
        forget_listings()
    return True


def rename_set(set_id: str) -> None:
    """Give the chosen set the name typed (callback: runs before the next script run)."""
    name = str(st.session_state.get("ws_new_name", "")).strip()
    if not name or open_workspace() is None:
        return
    _workspace_change(lambda workspace: workspace.rename(set_id, name))
    st.session_state["ws_new_name"] = ""


def delete_set(set_id: str) -> None:
    """Move the chosen set to the trash (callback); the sidebar then shows the next one."""
    if _workspace_change(lambda workspace: workspace.delete(set_id)):
        st.session_state.pop(SAVED_SET_KEY, None)
        st.session_state.pop(f"ws_delete_confirm::{set_id}", None)


def restore_set(set_id: str) -> None:
    """Bring a set back from the trash and show it (callback)."""
    if _workspace_change(lambda workspace: workspace.restore(set_id)):
        st.session_state["data_source"], st.session_state[SAVED_SET_KEY] = SAVED, set_id
