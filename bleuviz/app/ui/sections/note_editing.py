"""Editing one note: the revision it loaded, saving, and a save refused because it changed.

A note's editor remembers the revision it loaded; the workspace refuses a save
over a note saved or deleted meanwhile (``NoteChanged``), and ``conflict_box``
shows both texts and asks: keep both, replace, or cancel. Every revision stays
in the workspace (``note_history`` shows them). A note may mark the erroneous
words (chosen from the line's words, ``bleuviz.workspace.marking``) and a
severity; both are saved, compared and kept like its text. Writing a note on a test set
that is not saved yet (the bundled sample, files the workspace could not take)
saves that test set first and switches the sidebar to it, so no note is lost.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import streamlit as st

from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.app.ui.cache.loading import current_testset
from bleuviz.app.ui.cache.workspace import (
    AUTHOR_KEY,
    SAVED,
    SAVED_SET_KEY,
    open_workspace,
    save_testset,
    upload_name,
)
from bleuviz.errors import BleuvizError
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace import Note, NoteChanged, Workspace, testset_id
from bleuviz.workspace.marking import Span, markable_words, span_of_words, words_in_span
from bleuviz.workspace.notes import NO_SEVERITY, keep_both

#: The category a new note starts with.
DEFAULT_CATEGORY = "other"
#: Session-state key of a refused save's error message.
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


@cached_resource(max_entries=16, show_spinner=False)
def _content_id(content_id: str, _testset: TestSet) -> str:
    """The workspace id the test set would have (hashed once per data)."""
    return testset_id(_testset)


#: Suffixes of an editor's session-state keys: the revision it loaded (0: no note), the
#: fields as loaded (to tell an untouched draft), and a refused save's draft (a conflict).
LOADED, BASE, CONFLICT = "::loaded", "::base", "::conflict"
#: The editor's fields (session-state key suffixes), in ``Draft``'s order but the span.
FIELDS = ("::text", "::category", "::severity", "::words")


def follow_saved(key: str, saved: Note | None, line: str) -> None:
    """Load the saved note into a new editor, or into one whose draft is untouched.

    An editor Streamlit has forgotten (its widgets were not drawn for a while,
    on another page) is new again. ``line``: the hypothesis, whose words it marks.
    """
    state = st.session_state
    fresh = key + LOADED not in state or any(key + f not in state for f in FIELDS)
    if not fresh:
        revision = saved.revision if saved else 0
        if state[key + LOADED] == revision or _fields(key) != state.get(key + BASE, (None,))[:4]:
            return
    _load_into_editor(key, saved, line)


def _fields(key: str) -> tuple[object, ...]:
    """The editor's fields as they are now (words as a list of word indices)."""
    state = st.session_state
    return tuple(state.get(key + f) for f in FIELDS)


def _load_into_editor(key: str, saved: Note | None, line: str) -> None:
    """Put ``saved`` (None: an empty note) in the editor as the revision it loaded.

    A span on an output since replaced is not shown on the current line's words
    (it marked other characters); the severity is.
    """
    state = st.session_state
    span = saved.span if saved is not None and not saved.on_earlier_output else None
    words = words_in_span(markable_words(line), span)
    if saved is None:
        fields: tuple[object, ...] = ("", DEFAULT_CATEGORY, NO_SEVERITY, words)
    else:
        fields = (saved.text, saved.category, saved.severity, words)
    for suffix, value in zip(FIELDS, fields, strict=True):
        state[key + suffix] = value
    state[key + BASE] = (*fields, span)
    state[key + LOADED] = saved.revision if saved else 0


def drafted_span(key: str, line: str) -> Span | None:
    """The span the editor's chosen words mark (the saved one, exactly, if untouched)."""
    state = st.session_state
    words = list(state.get(key + "::words") or [])
    base = state.get(key + BASE)
    if base is not None and words == list(base[3]):
        return base[4]  # type: ignore[no-any-return]
    return span_of_words(markable_words(line), words)


def save_note(testset: TestSet, system: str, index: int, key: str) -> None:
    """Save the note typed (callback), saving the test set first if it is not saved.

    Refused because the note changed since the editor loaded it, the draft is
    kept and ``conflict_box`` asks what to do.
    """
    state = st.session_state
    line = testset.systems[system][index]
    draft = Draft(
        str(state[key + "::text"]),
        str(state[key + "::category"]),
        str(state.get(key + "::severity") or NO_SEVERITY),
        drafted_span(key, line),
    )
    _save(testset, system, index, key, draft, state.get(key + LOADED, 0))


@dataclass(frozen=True, slots=True)
class Draft:
    """What the editor holds: a note's text, category, severity and marked span."""

    text: str
    category: str
    severity: str
    span: Span | None


def _save(testset: TestSet, system: str, index: int, key: str, draft: Draft, expected: int) -> None:
    """Save one note at revision ``expected``; on a conflict keep the draft to ask about."""
    state = st.session_state
    workspace = open_workspace()
    if workspace is None:
        return
    try:
        set_id = current_set_id()
        if set_id is None:
            set_id = save_testset(testset, _unsaved_name()).id
            state["data_source"], state[SAVED_SET_KEY] = SAVED, set_id
        note = workspace.save_note(
            set_id,
            system,
            index,
            draft.text,
            draft.category,
            author=str(state.get(AUTHOR_KEY, "")),
            expected_revision=expected,
            severity=draft.severity,
            span=draft.span,
        )
    except NoteChanged as exc:
        state[key + CONFLICT] = (draft, exc.current)
        return
    except BleuvizError as exc:
        state[NOTE_ERROR_KEY] = str(exc)
        return
    state.pop(key + CONFLICT, None)
    _load_into_editor(key, note, testset.systems[system][index])


def marked_text(line: str, severity: str, span: Span | None) -> str:
    """A note's severity and marked words, Markdown-safe ("" for a comment without words)."""
    parts = [severity] if severity else []
    if span is not None:
        parts.append(f"marks “{md(line[span[0] : span[1]])}”")
    return ", ".join(parts)


def conflict_box(testset: TestSet, system: str, index: int, key: str) -> None:
    """Both texts of a refused save, and keep both / replace / cancel."""
    draft, theirs = st.session_state[key + CONFLICT]
    line = testset.systems[system][index]
    st.warning(
        "This note changed since you opened it. Nothing is lost: choose what to keep.",
        icon=":material/sync_problem:",
    )
    saved_col, yours_col = st.columns(2)
    with saved_col:
        if theirs is None:
            st.markdown("**Saved now:** deleted")
        else:
            span = None if theirs.on_earlier_output else theirs.span
            marks = marked_text(line, theirs.severity, span)
            st.markdown(
                f"**Saved now** by {md(theirs.author)}, {theirs.saved:%Y-%m-%d %H:%M:%S} UTC "
                f"({md(theirs.category)}{', ' + marks if marks else ''}):"
            )
            st.text(theirs.text or "(no text)")
    with yours_col:
        marks = marked_text(line, draft.severity, draft.span)
        st.markdown(f"**Yours** ({md(draft.category)}{', ' + marks if marks else ''}):")
        st.text(draft.text or "(no text)")
    current = theirs.revision if theirs else 0
    author = str(st.session_state.get(AUTHOR_KEY, ""))
    # A note marks one error: keeping both keeps your severity and words.
    both = draft
    if theirs is not None:
        both = dataclasses.replace(draft, text=keep_both(theirs, draft.text, author))
    keep, replace, cancel = st.columns(3)
    keep.button(
        "Keep both",
        key=key + "::keep_both",
        on_click=_save,
        args=(testset, system, index, key, both, current),
        help="One note holding the saved text, then yours (with your severity and words).",
    )
    replace.button(
        "Replace with mine",
        key=key + "::replace",
        on_click=_save,
        args=(testset, system, index, key, draft, current),
        help="The saved text stays in the note's history.",
    )
    cancel.button(
        "Cancel",
        key=key + "::cancel",
        on_click=_cancel,
        args=(key, theirs, line),
        help="Keep the saved note; your draft is dropped.",
    )


def _cancel(key: str, theirs: Note | None, line: str) -> None:
    """Drop the draft: the editor shows the note as saved now (callback)."""
    st.session_state.pop(key + CONFLICT, None)
    _load_into_editor(key, theirs, line)


def note_history(
    workspace: Workspace, set_id: str, system: str, index: int, saved: Note | None, key: str
) -> None:
    """The note's revisions (who, when, what) and the output it was written on, if replaced."""
    if saved is not None and saved.on_earlier_output:
        line = workspace.note_written_on(saved)
        st.caption(
            "On an earlier output: this note was written before the system's lines changed"
            + (f"; it was written on: {md(line)}" if line is not None else ".")
        )
    history = workspace.note_history(set_id, system, index)
    if len(history) < 2 and not any(h.deleted for h in history):
        return
    with st.expander(f"History ({len(history)} revisions)", icon=":material/history:"):
        for note in reversed(history):
            what = "deleted" if note.deleted else md(note.category)
            if note.severity and not note.deleted:
                what += f", {note.severity}"
            if note.span is not None and not note.deleted:
                what += f", marks characters {note.span[0] + 1}–{note.span[1]}"
            earlier = " · on an earlier output" if note.on_earlier_output else ""
            st.markdown(
                f"**{note.revision}** · {md(note.author)} · "
                f"{note.saved:%Y-%m-%d %H:%M:%S} UTC · {what}{earlier}"
            )
            st.text(note.text or "(no text)")


def _unsaved_name() -> str:
    """A name for the test set on screen when a note saves it."""
    state = st.session_state
    source = state.get("data_source")
    if source == "upload" and state.get("uploads"):
        return upload_name([f.name for f in state["uploads"]["hyp"]])
    if source == "cli" and state.get("cli_paths") is not None:
        return "command line: " + upload_name(list(state["cli_paths"].hyp))
    return "Bundled sample"
