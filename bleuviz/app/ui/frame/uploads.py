"""Uploaded files: the uploaders, and one saved test set that follows them in any order.

Files can come in any order; until hypotheses and references are there, the page
says what is missing (a hint, not an error). Once they can be read, the upload is
saved in the workspace and the sidebar switches to the saved set, with the
uploaders still under it: a file given afterwards (a source, document ids,
another system) saves the upload again. A source or document ids change the
set's id (``bleuviz.workspace.identity``): the set this upload made is saved
again under the new id and deleted for good (``upload_sets``), so any order of
uploads ends in one saved set with everything uploaded and nothing in the trash.

A system uploaded under the name of a saved one with other lines is not replaced
silently: a dialog asks to replace it (the old lines stay as an earlier version),
keep the saved one, or cancel; closing the dialog cancels. A hypothesis file
given again under the same file name (a corrected ``hyp.Nemo.txt``) is the same
system with other lines: it asks too, instead of becoming a system "Nemo (2)".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NoReturn

import streamlit as st

from bleuviz.app.ui.cache.loading import upload_pending, uploaded_testset
from bleuviz.app.ui.cache.workspace import (
    open_workspace,
    save_testset,
    upload_name,
    workspace_readonly,
)
from bleuviz.app.ui.frame.upload_sets import regrow, retire
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.decode import NamedBytes
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace import DefiningStreams, OutputChanged

#: Session-state keys: the upload whose systems clash with saved ones, and the answer to it.
CONFLICT_KEY, ANSWER_KEY = "upload_conflict", "upload_answer"
#: Session-state key of the upload saved last: its files' key, the set's id, and whether
#: the upload made the set (rather than adding to one saved before).
UPLOADED_KEY = "upload_saved"
#: Session-state key of the ids of the sets this session's uploads made (not added to).
MADE_KEY = "upload_made"
#: Session-state key of the test-set source the next run shows (set after the radio is drawn).
PENDING_SOURCE = "pending_source"
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
    hyps = [NamedBytes(f.name, f.getvalue()) for f in hyp or []]
    st.session_state["uploads"] = {
        "key": tuple(f.file_id for f in files),
        "hyp": by_name(hyps, last=True),
        "hyp_first": by_name(hyps, last=False) if len(hyps) > len({f.name for f in hyps}) else None,
        "ref": tuple(NamedBytes(f.name, f.getvalue()) for f in ref or []),
        "src": NamedBytes(src.name, src.getvalue()) if src else None,
        "docids": NamedBytes(docids.name, docids.getvalue()) if docids else None,
    }


def by_name(files: list[NamedBytes], *, last: bool) -> tuple[NamedBytes, ...]:
    """One file per file name, where the name first came: the ``last`` given, else the first.

    A file given again under its name is a corrected output of the same system
    (``hyp.Nemo.txt`` twice): the later one is the upload, the first what was saved.
    """
    chosen: dict[str, NamedBytes] = {}
    for f in files:
        if last or f.name not in chosen:
            chosen[f.name] = f
    return tuple(chosen.values())


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
    state.pop(ANSWER_KEY, None)  # an answer to other files is no answer to these
    try:
        loaded = uploaded_testset(uploads)
    except BleuvizError:  # the page says why the upload cannot be read (or what is missing)
        return
    _save(loaded, uploads)


def _save(
    loaded: LoadedTestSet | TestSet,
    uploads: dict[str, Any],
    *,
    replace_systems: bool = False,
    answered: bool = False,
) -> None:
    """Save the upload, moving the set this upload saved before, and remember what was saved.

    ``replace_systems``: replace saved systems with other lines (the dialog's
    "Replace"); ``answered``: the dialog was answered (a file given twice is not
    asked about again).
    """
    state = st.session_state
    name = upload_name([f.name for f in uploads["hyp"]])
    earlier = state.get(UPLOADED_KEY)
    testset = loaded.testset if isinstance(loaded, LoadedTestSet) else loaded
    defining = DefiningStreams.of(testset)
    try:
        before = _known_ids()
        grown = _grown_from(earlier, defining.id, before)
        if grown is not None and regrow(grown, testset, defining):
            _moved(defining.id)
        if uploads.get("hyp_first") is not None and not answered:
            _save_first_files(uploads, name, before)
        saved = save_testset(loaded, name, defining, replace=replace_systems)
    except OutputChanged as exc:
        _ask(uploads, exc)
        return
    except BleuvizError as exc:
        state["ws_error"] = str(exc)
        return
    if saved.id not in before:
        _made_here(saved.id)
    made = saved.id in state.get(MADE_KEY, ())
    if earlier is not None and earlier["id"] != saved.id and earlier["new"]:
        retire(str(earlier["id"]))
    state[UPLOADED_KEY] = {"key": uploads["key"], "id": saved.id, "new": made}
    state["pending_set"] = saved.id  # the next run shows it
    st.rerun()


def _grown_from(earlier: dict[str, Any] | None, new_id: str, known: set[str]) -> str | None:
    """The set this upload made before, if the upload grows it into a set new to the workspace."""
    if earlier is None or not earlier["new"] or earlier["id"] == new_id or new_id in known:
        return None
    return str(earlier["id"])


def _moved(set_id: str) -> NoReturn:
    """Show the set this upload's earlier set moved to, then save the upload on it.

    The sidebar then shows the set (with the uploaders under it) while the
    upload's systems are merged into it, and a clash asks about it.
    """
    state = st.session_state
    _made_here(set_id)
    state[UPLOADED_KEY] = {**state[UPLOADED_KEY], "id": set_id}  # its files not yet saved
    state["pending_set"] = set_id
    st.rerun()


def _known_ids() -> set[str]:
    """The ids of the workspace's sets, in the trash too (a save brings one back)."""
    workspace = open_workspace()
    return {s.id for s in workspace.testsets() + workspace.trash()} if workspace else set()


def _made_here(set_id: str) -> None:
    """Remember that this session's uploads made the set ``set_id`` (it may move and go)."""
    state = st.session_state
    if set_id not in state.get(MADE_KEY, ()):
        state[MADE_KEY] = (*state.get(MADE_KEY, ()), set_id)


def _save_first_files(uploads: dict[str, Any], name: str, before: set[str]) -> None:
    """Save the upload with the first of each file given twice under one name.

    The later file then clashes with it, and the dialog asks (issue 44 item 5);
    where the first is saved already, this changes nothing.
    """
    first = {**uploads, "key": (*uploads["key"], "first"), "hyp": uploads["hyp_first"]}
    saved = save_testset(uploaded_testset(first), name)
    if saved.id not in before:
        _made_here(saved.id)


def _ask(uploads: dict[str, Any], exc: OutputChanged) -> None:
    """Keep the clash for the dialog's answer, and open the dialog."""
    st.session_state[CONFLICT_KEY] = {
        "key": uploads["key"],
        "systems": exc.systems,
        "set_id": exc.set_id,
        "set_name": exc.set_name,
    }
    ask_to_replace(exc.systems, exc.set_name)


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
        _withdraw(str(conflict["set_id"]))
        return
    uploads = state["uploads"]
    loaded = uploaded_testset(uploads)
    state.pop(CONFLICT_KEY, None)
    if answer == REPLACE:
        _save(loaded, uploads, replace_systems=True, answered=True)
    else:
        _save(without_systems(loaded.testset, systems), uploads, answered=True)


def _withdraw(clashing_id: str) -> None:
    """On a cancel, take back the set this upload saved before its files clashed.

    Hypotheses and references are saved as soon as they read; a source given then
    makes them a set saved before, whose system has other lines. Cancelling leaves
    the workspace as it was: the upload's earlier set goes (``retire``), and the
    sidebar returns to the uploads, whose files stay given ("Not saved").
    """
    state = st.session_state
    earlier = state.get(UPLOADED_KEY)
    if earlier is None or not earlier["new"] or earlier["id"] == clashing_id:
        return
    retire(str(earlier["id"]))
    state.pop(UPLOADED_KEY)
    state[PENDING_SOURCE] = "upload"  # the radio is drawn already: the next run switches
    st.rerun()


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


def _dismissed() -> None:
    """Closing the dialog (its X, Escape, a click outside) cancels (callback)."""
    st.session_state[ANSWER_KEY] = CANCEL


@st.dialog("A saved system has other lines", on_dismiss=_dismissed)
def ask_to_replace(systems: tuple[str, ...], set_name: str) -> None:
    """Ask whether to replace saved systems with the uploaded lines, keep them, or cancel."""
    names = ", ".join(f"**{md(name)}**" for name in systems)
    st.markdown(
        f"The saved test set **{md(set_name)}** holds {names} with other lines than the "
        "files uploaded. Replacing keeps the saved lines as an earlier version, with the "
        "notes written on them."
    )
    left, middle, right = st.columns(3)
    if left.button("Replace", key="upload_replace", type="primary"):
        _answered(REPLACE)
    if middle.button("Keep the saved one", key="upload_keep"):
        _answered(KEEP)
    if right.button("Cancel", key="upload_cancel"):
        _answered(CANCEL)


def _answered(answer: str) -> NoReturn:
    """Note the dialog's answer and act on it now, in a run of the whole app.

    A click in a dialog reruns only the dialog (it is a fragment), while the save
    acts in a run of the whole app: without this rerun the answer waited for the
    next unrelated run, with the dialog still open (issue 44 item 4). The app's
    run does not draw the dialog again, which closes it.
    """
    st.session_state[ANSWER_KEY] = answer
    st.rerun(scope="app")


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
    if uploads["hyp_first"] is not None:
        names = [f.name for f in uploads["hyp_first"] if f not in uploads["hyp"]]
        if names:
            st.sidebar.caption(
                f"Given again under its name: {md(', '.join(names))}. The later file is the "
                "system's output; one saved with the earlier lines is replaced only if you say so."
            )
