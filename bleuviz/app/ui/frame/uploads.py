"""Uploaded files: the uploaders, and one saved test set that follows them in any order.

Files can come in any order; until hypotheses and references are there, the page
says what is missing (a hint, not an error). Once they can be read, the upload is
saved in the workspace and the sidebar switches to the saved set, with the
uploaders still under it: a file given afterwards (a source, document ids,
another system) saves the upload again. A source or document ids change the
set's id (``bleuviz.workspace.identity``), so the set this upload saved before
goes to the trash when the upload made it and no note was written on it: any
order of uploads ends in one saved set with everything uploaded.

A system uploaded under the name of a saved one with other lines is not replaced
silently: a dialog asks to replace it (the old lines stay as an earlier version),
keep the saved one, or cancel.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from bleuviz.app.ui.cache.loading import upload_pending, uploaded_testset
from bleuviz.app.ui.cache.workspace import (
    forget_listings,
    open_workspace,
    save_testset,
    upload_name,
    workspace_readonly,
)
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.decode import NamedBytes
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace import OutputChanged

#: Session-state keys: the upload whose systems clash with saved ones, and the answer to it.
CONFLICT_KEY, ANSWER_KEY = "upload_conflict", "upload_answer"
#: Session-state key of the upload saved last: its files' key, the set's id, and whether
#: the upload made the set (rather than adding to one saved before).
UPLOADED_KEY = "upload_saved"
#: The dialog's answers.
REPLACE, KEEP, CANCEL = "replace", "keep", "cancel"


def upload_section() -> None:
    """The uploaders, the save of what they hold, and a line saying what is saved."""
    upload_widgets()
    save_upload()
    upload_status()


def saved_by_this_upload(set_id: object) -> bool:
    """Whether ``set_id`` is the set this session's upload saved (its uploaders stay)."""
    saved = st.session_state.get(UPLOADED_KEY)
    return saved is not None and saved["id"] == set_id


def upload_widgets() -> None:
    """Uploaders for hypotheses, references, source and document ids."""
    bar = st.sidebar
    hyp = bar.file_uploader(
        "Hypotheses: one file per system, or one TSV/CSV/JSONL/XML holding everything",
        accept_multiple_files=True,
        key="up_hyp",
    )
    ref = bar.file_uploader(
        "References: one file per reference", accept_multiple_files=True, key="up_ref"
    )
    src = bar.file_uploader("Source (optional)", key="up_src")
    docids = bar.file_uploader("Document ids, one per line (optional)", key="up_docids")
    files = [*(hyp or []), *(ref or []), *(f for f in (src, docids) if f is not None)]
    if not files:
        st.session_state["uploads"] = None
        return
    st.session_state["uploads"] = {
        "key": tuple(f.file_id for f in files),
        "hyp": tuple(NamedBytes(f.name, f.getvalue()) for f in hyp or []),
        "ref": tuple(NamedBytes(f.name, f.getvalue()) for f in ref or []),
        "src": NamedBytes(src.name, src.getvalue()) if src else None,
        "docids": NamedBytes(docids.name, docids.getvalue()) if docids else None,
    }


def save_upload() -> None:
    """Save a readable upload in the workspace (again when a file is added); ask on a clash."""
    state = st.session_state
    uploads = state.get("uploads")
    saved = state.get(UPLOADED_KEY)
    if uploads is None or upload_pending(uploads) is not None:
        return  # nothing to save yet: the page says what is missing
    if open_workspace() is None or workspace_readonly():
        return  # nowhere to save it: the sidebar says why
    if saved is not None and saved["key"] == uploads["key"]:
        return  # this very upload is saved already
    conflict = state.get(CONFLICT_KEY)
    if conflict is not None and conflict["key"] == uploads["key"]:
        _answer(conflict)
        return
    state.pop(CONFLICT_KEY, None)
    try:
        loaded = uploaded_testset(uploads)
    except BleuvizError:  # the page says why the upload cannot be read (or what is missing)
        return
    _save(loaded, uploads, replace_systems=False)


def _save(loaded: LoadedTestSet | TestSet, uploads: dict[str, Any], replace_systems: bool) -> None:
    """Save the upload, trash the set this upload saved before, and remember what was saved."""
    state = st.session_state
    name = upload_name([f.name for f in uploads["hyp"]])
    earlier = state.get(UPLOADED_KEY)
    workspace = open_workspace()
    before = {s.id for s in workspace.testsets()} if workspace is not None else set()
    try:
        saved = save_testset(loaded, name, replace=replace_systems)
    except OutputChanged as exc:
        state[CONFLICT_KEY] = {
            "key": uploads["key"],
            "systems": exc.systems,
            "set_id": exc.set_id,
            "set_name": exc.set_name,
        }
        ask_to_replace(exc.systems, exc.set_name)
        return
    except BleuvizError as exc:
        state["ws_error"] = str(exc)
        return
    new = saved.id not in before
    if earlier is not None and earlier["id"] != saved.id and earlier["new"]:
        _trash_if_unused(str(earlier["id"]))
    made_here = earlier is not None and earlier["id"] == saved.id and earlier["new"]
    state[UPLOADED_KEY] = {"key": uploads["key"], "id": saved.id, "new": new or made_here}
    state["pending_set"] = saved.id  # the next run shows it
    st.rerun()


def _trash_if_unused(set_id: str) -> None:
    """Move a set this upload saved earlier to the trash, unless a note was written on it."""
    workspace = open_workspace()
    if workspace is None:
        return
    try:
        if workspace.count_notes(set_id) == 0:
            workspace.delete(set_id)
            forget_listings()
    except BleuvizError:  # gone already, or the workspace refuses: it stays as it is
        return


def _answer(conflict: dict[str, Any]) -> None:
    """Act on the dialog's answer to a clash, or ask again while it has none."""
    state = st.session_state
    answer = state.pop(ANSWER_KEY, None)
    systems = tuple(conflict["systems"])
    if answer is None:
        if not conflict.get("cancelled"):
            ask_to_replace(systems, str(conflict["set_name"]))
        return
    if answer == CANCEL:
        conflict["cancelled"] = True
        return
    uploads = state["uploads"]
    loaded = uploaded_testset(uploads)
    state.pop(CONFLICT_KEY, None)
    if answer == REPLACE:
        _save(loaded, uploads, replace_systems=True)
    else:
        _save(without_systems(loaded.testset, systems), uploads, replace_systems=False)


def without_systems(testset: TestSet, names: tuple[str, ...]) -> TestSet:
    """``testset`` without the systems ``names`` (and their imported scores and spans)."""
    kept = {name: lines for name, lines in testset.systems.items() if name not in names}
    scores = tuple(
        replace(s, values={k: v for k, v in s.values.items() if k in kept})
        for s in testset.seg_scores
    )
    spans = tuple(
        replace(a, segments={k: v for k, v in a.segments.items() if k in kept})
        for a in testset.error_spans
    )
    return replace(testset, systems=kept, seg_scores=scores, error_spans=spans)


@st.dialog("A saved system has other lines")
def ask_to_replace(systems: tuple[str, ...], set_name: str) -> None:
    """Ask whether to replace saved systems with the uploaded lines, keep them, or cancel."""
    names = ", ".join(f"**{md(name)}**" for name in systems)
    st.markdown(
        f"The saved test set **{md(set_name)}** holds {names} with other lines than the "
        "files uploaded. Replacing keeps the saved lines as an earlier version, with the "
        "notes written on them."
    )
    left, middle, right = st.columns(3)
    left.button(
        "Replace", key="upload_replace", type="primary", on_click=_set_answer, args=(REPLACE,)
    )
    middle.button("Keep the saved one", key="upload_keep", on_click=_set_answer, args=(KEEP,))
    right.button("Cancel", key="upload_cancel", on_click=_set_answer, args=(CANCEL,))


def _set_answer(answer: str) -> None:
    """Note the dialog's answer (callback); the next run acts on it."""
    st.session_state[ANSWER_KEY] = answer


def upload_status() -> None:
    """Say in the sidebar whether the upload is saved, and what a clash left unsaved."""
    state = st.session_state
    saved, conflict = state.get(UPLOADED_KEY), state.get(CONFLICT_KEY)
    uploads = state.get("uploads")
    if uploads is None:
        return
    if conflict is not None and conflict["key"] == uploads["key"] and conflict.get("cancelled"):
        st.sidebar.caption(
            "Not saved: the upload's systems clash with saved ones (cancelled). "
            "Remove or rename them, or upload again to be asked."
        )
    elif saved is not None and saved["key"] == uploads["key"]:
        st.sidebar.caption(
            "These files are saved as the test set above; a source, document ids or "
            "another system added here join it."
        )
