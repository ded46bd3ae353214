"""Notes on segments in the app: the drill-down's editor, the segment table's column, the export.

Notes live in the workspace with the saved test set, every revision kept (who
and when); saving, and a save over a note changed meanwhile, are in
``note_editing``. A note written on an output since replaced says so. A note
may mark the erroneous words and a severity, as an MQM rater does; the notes
download as their own TSV or as Google's MQM TSV (``bleuviz.io.mqm_export``).
"""

from __future__ import annotations

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from bleuviz.app.ui.cache.workspace import (
    load_saved,
    open_workspace,
    workspace_problem,
    workspace_readonly,
)
from bleuviz.app.ui.sections.note_editing import (
    CONFLICT,
    NOTE_ERROR_KEY,
    conflict_box,
    current_set_id,
    drafted_span,
    follow_saved,
    marked_text,
    note_history,
    save_note,
)
from bleuviz.errors import BleuvizError
from bleuviz.io.decode import plural
from bleuviz.io.mqm_export import mqm_tsv
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace import NOTE_CATEGORIES, Note
from bleuviz.workspace.marking import markable_words
from bleuviz.workspace.notes import NO_SEVERITY, NOTE_SEVERITIES, mqm_rows

#: Session-state key of the Sentences page's note filter.
NOTE_FILTER_KEY = "sent_notes"
#: What the note filter offers beside the categories.
ANY_NOTE, NO_NOTE = "(any note)", "(no note)"


def notes_of(system: str) -> dict[int, Note]:
    """The notes on ``system``'s segments in the test set on screen, by 0-based segment."""
    return notes_by_system().get(system, {})


def notes_by_system() -> dict[str, dict[int, Note]]:
    """Every note on the test set on screen, by system, then by 0-based segment.

    One read of the workspace for every system (the downloads of every system's
    segments ask for each system's notes on every run of the Sentences page).
    """
    set_id, workspace = current_set_id(), open_workspace()
    if set_id is None or workspace is None:
        return {}
    by_system: dict[str, dict[int, Note]] = {}
    for note in workspace.notes(set_id):
        by_system.setdefault(note.system, {})[note.segment] = note
    return by_system


#: What the segment table adds to a note written on an output since replaced.
EARLIER_OUTPUT = "on an earlier output"


def note_text(note: Note | None) -> str:
    """A note as the segment table shows it: its category (and severity), then its text.

    A note written before the system's output was replaced says so first.
    """
    if note is None:
        return ""
    label = f"{note.category} ({note.severity})" if note.severity else note.category
    shown = f"{label}: {note.text}" if note.text else label
    return f"({EARLIER_OUTPUT}) {shown}" if note.on_earlier_output else shown


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
    """A "Note" text area, a category, a severity, the marked words and "Save note".

    The editor remembers the revision it loaded: a save over a note someone
    changed meanwhile shows both texts and asks (``conflict_box``). A draft the
    user has not touched follows the saved note when it changes. The words are
    the hypothesis's (``bleuviz.workspace.marking``); the marked text is shown.
    """
    if workspace_readonly():
        st.caption(f"Notes cannot be saved: {md(workspace_problem() or 'no workspace')}")
        return
    set_id = current_set_id()
    workspace = open_workspace()
    saved = workspace.note(set_id, system, index) if set_id and workspace else None
    key = f"{key_prefix}_note::{set_id}::{system}::{index}"
    line = testset.systems[system][index]
    follow_saved(key, saved, line)
    state = st.session_state
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
        marking(key, line)
        if key + CONFLICT in state:
            conflict_box(testset, system, index, key)
        save_col, when_col = st.columns([1.3, 2.7], vertical_alignment="center")
        save_col.button(
            "Save note",
            key=key + "::save",
            icon=":material/save:",
            on_click=save_note,
            args=(testset, system, index, key),
        )
        if error := state.pop(NOTE_ERROR_KEY, None):
            st.error(md(error), icon=":material/error:")
        elif saved is not None:
            when_col.caption(
                f"Saved {saved.saved:%Y-%m-%d %H:%M:%S} UTC by {md(saved.author)} "
                f"(revision {saved.revision})"
            )
        elif set_id is None:
            when_col.caption("Saving a note also saves this test set in the workspace.")
        if set_id is not None and workspace is not None:
            note_history(workspace, set_id, system, index, saved, key)


#: What the severity box shows for a note that only comments.
COMMENT_LABEL = "comment"


def marking(key: str, line: str) -> None:
    """The note's severity and marked words, and the text they mark."""
    words = markable_words(line)
    severity_col, words_col = st.columns([1.3, 2.7])
    severity_col.selectbox(
        "Severity",
        (NO_SEVERITY, *NOTE_SEVERITIES),
        format_func=lambda s: s or COMMENT_LABEL,
        key=key + "::severity",
        persist_state="page",
        help="As MQM's raters: major, minor or neutral makes the note an error; comment "
        "keeps it a comment, not an error (a No-error row in the MQM export).",
    )
    words_col.multiselect(
        "Marked words",
        range(len(words)),
        format_func=lambda k: f"{line[words[k][0] : words[k][1]]} ·{k + 1}",
        key=key + "::words",
        persist_state="page",
        placeholder="Choose the erroneous words (optional)",
        help="The error's words in the hypothesis; the mark runs from the first chosen word "
        "to the last. The number after a word is its place in the line (punctuation counts), "
        "telling repeated words apart. Marked words need a severity.",
    )
    span = drafted_span(key, line)
    if span is not None:
        severity = str(st.session_state.get(key + "::severity") or "")
        st.caption(f"Marks: {marked_text(line, severity, span)}")


def notes_download(key: str) -> None:
    """Downloads of every note on the test set on screen: TSV (optionally every revision), MQM."""
    set_id, workspace = current_set_id(), open_workspace()
    if set_id is None or workspace is None:
        return
    notes = workspace.notes(set_id)
    if not notes:
        return
    revisions = st.checkbox(
        "With every revision",
        key=key + "_revisions",
        help="One row per revision of each note (who, when, what), deletions included.",
    )
    st.download_button(
        "Notes (TSV)",
        lambda: workspace.notes_tsv(set_id, revisions=revisions),
        file_name=f"notes-{set_id[:8]}{'-revisions' if revisions else ''}.tsv",
        mime="text/tab-separated-values",
        key=key,
        icon=":material/download:",
    )
    mqm_download(set_id, notes, key + "_mqm")


def mqm_download(set_id: str, notes: tuple[Note, ...], key: str) -> None:
    """The notes as Google's MQM TSV (rated by their authors), or why they cannot be written so."""
    rows, left_out = mqm_rows(notes)
    try:
        table = mqm_tsv(rows, load_saved(set_id).testset)
    except BleuvizError as exc:
        st.caption(f"No MQM TSV: {md(str(exc))}")
        return
    st.download_button(
        "Notes (MQM TSV)",
        table,
        file_name=f"notes-{set_id[:8]}.mqm.tsv",
        mime="text/tab-separated-values",
        key=key,
        icon=":material/download:",
        help="Google's MQM layout, each note rated by its author: a note with a severity is "
        "an error, its marked words between `<v>` and `</v>`; one without is a comment (a "
        "No-error row). "
        "bleuviz reads it back with --mqm.",
    )
    if left_out:
        st.caption(
            f"{plural(len(left_out), 'note')} on an output since replaced "
            "left out of the MQM TSV (their words no longer match the line)."
        )
