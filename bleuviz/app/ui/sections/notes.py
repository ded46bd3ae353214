"""Notes on segments in the app: the drill-down's editor, the segment table's column, the export.

Notes live in the workspace with the saved test set. Writing one on a test set
that is not saved yet (the bundled sample, files the workspace could not take)
saves that test set first and switches the sidebar to it, so no note is lost.
"""

from __future__ import annotations

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from bleuviz.app.ui.cache.loading import current_testset
from bleuviz.app.ui.cache.workspace import (
    SAVED,
    SAVED_SET_KEY,
    open_workspace,
    save_testset,
    upload_name,
    workspace_problem,
    workspace_readonly,
)
from bleuviz.errors import BleuvizError
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace import NOTE_CATEGORIES, Note, testset_id

#: The category a new note starts with.
DEFAULT_CATEGORY = "other"
#: Session-state key of the Sentences page's note filter.
NOTE_FILTER_KEY = "sent_notes"
#: What the note filter offers beside the categories.
ANY_NOTE, NO_NOTE = "(any note)", "(no note)"
NOTE_ERROR_KEY = "note_error"


def current_set_id() -> str | None:
    """The id of the saved test set on screen, or None if it is not saved.

    The sample (or files) shown from their own source count as saved when the
    workspace holds the same content, so notes written on them show again.
    """
    state = st.session_state
    if state.get("data_source") == SAVED:
        return str(state[SAVED_SET_KEY])
    workspace = open_workspace()
    if workspace is None:
        return None
    try:
        loaded = current_testset()
    except BleuvizError:
        return None
    content = _content_id(loaded.content_id, loaded.testset)
    return content if any(s.id == content for s in workspace.testsets()) else None


@st.cache_resource(max_entries=16, show_spinner=False)
def _content_id(content_id: str, _testset: TestSet) -> str:
    """The workspace id the test set would have (hashed once per data)."""
    return testset_id(_testset)


def notes_of(system: str) -> dict[int, Note]:
    """The notes on ``system``'s segments in the test set on screen, by 0-based segment."""
    set_id, workspace = current_set_id(), open_workspace()
    if set_id is None or workspace is None:
        return {}
    return {n.segment: n for n in workspace.notes(set_id) if n.system == system}


def note_text(note: Note | None) -> str:
    """A note as the segment table shows it: its category, then its text."""
    if note is None:
        return ""
    return f"{note.category}: {note.text}" if note.text else note.category


def note_column(notes: dict[int, Note], n_segments: int) -> list[str]:
    """The table's ``note`` column: each segment's ``note_text``, empty where none.

    Filled from the noted segments, not by a loop over every segment.
    """
    column = [""] * n_segments
    for i, note in notes.items():
        column[i] = note_text(note)
    return column


def note_mask(notes: dict[int, Note], chosen: list[str], n_segments: int) -> NDArray[np.bool_]:
    """Segments kept by the note filter: noted in a chosen category, any note, or none."""
    if not chosen:
        return np.ones(n_segments, dtype=bool)
    noted = np.zeros(n_segments, dtype=bool)
    noted[list(notes)] = True
    keep = ~noted if NO_NOTE in chosen else np.zeros(n_segments, dtype=bool)
    wanted = [i for i, note in notes.items() if ANY_NOTE in chosen or note.category in chosen]
    keep[wanted] = True
    return keep


def note_editor(testset: TestSet, system: str, index: int, key_prefix: str) -> None:
    """A "Note" text area, a category and "Save note", for one system's segment."""
    if workspace_readonly():
        st.caption(f"Notes cannot be saved: {md(workspace_problem() or 'no workspace')}")
        return
    set_id = current_set_id()
    workspace = open_workspace()
    saved = workspace.note(set_id, system, index) if set_id and workspace else None
    key = f"{key_prefix}_note::{set_id}::{system}::{index}"
    state = st.session_state
    state.setdefault(key + "::text", saved.text if saved else "")
    state.setdefault(key + "::category", saved.category if saved else DEFAULT_CATEGORY)
    with st.container(border=True):
        text_col, category_col = st.columns([3, 1])
        text_col.text_area(
            "Note",
            key=key + "::text",
            height=80,
            placeholder="What does this segment show?",
            persist_state="page",  # a draft outlives a look at another Compare tab
        )
        category_col.selectbox(
            "Category",
            NOTE_CATEGORIES,
            key=key + "::category",
            persist_state="page",
            help="MQM's top-level error types (Lommel et al., 2014), plus style and other.",
        )
        save_col, when_col = st.columns([1, 3], vertical_alignment="center")
        save_col.button(
            "Save note",
            key=key + "::save",
            icon=":material/save:",
            on_click=save_note,
            args=(testset, system, index, key),
        )
        if error := state.pop(NOTE_ERROR_KEY, None):
            st.error(error, icon=":material/error:")
        elif saved is not None:
            when_col.caption(f"Saved {saved.saved:%Y-%m-%d %H:%M:%S} UTC")
        elif set_id is None:
            when_col.caption("Saving a note also saves this test set in the workspace.")


def save_note(testset: TestSet, system: str, index: int, key: str) -> None:
    """Save the note typed (callback), saving the test set first if it is not saved."""
    state = st.session_state
    workspace = open_workspace()
    if workspace is None:
        return
    try:
        set_id = current_set_id()
        if set_id is None:
            set_id = save_testset(testset, _unsaved_name()).id
            state["data_source"], state[SAVED_SET_KEY] = SAVED, set_id
        workspace.save_note(
            set_id, system, index, str(state[key + "::text"]), str(state[key + "::category"])
        )
    except BleuvizError as exc:
        state[NOTE_ERROR_KEY] = str(exc)


def _unsaved_name() -> str:
    """A name for the test set on screen when a note saves it."""
    state = st.session_state
    source = state.get("data_source")
    if source == "upload" and state.get("uploads"):
        return upload_name([f.name for f in state["uploads"]["hyp"]])
    if source == "cli" and state.get("cli_paths") is not None:
        return "command line: " + upload_name(list(state["cli_paths"].hyp))
    return "Bundled sample"


def notes_download(key: str) -> None:
    """A download of every note on the test set on screen, as TSV."""
    set_id, workspace = current_set_id(), open_workspace()
    if set_id is None or workspace is None or not workspace.notes(set_id):
        return
    st.download_button(
        "Notes (TSV)",
        lambda: workspace.notes_tsv(set_id),
        file_name=f"notes-{set_id[:8]}.tsv",
        mime="text/tab-separated-values",
        key=key,
        icon=":material/download:",
    )
