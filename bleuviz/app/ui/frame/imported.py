"""Imported segment scores: the uploader, each metric's direction, the human judgement."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from bleuviz.app.ui.cache.loading import (
    scored_testset,
)
from bleuviz.app.ui.cache.score_uploads import (
    ScoreConflict,
    UploadCheck,
    check_uploads,
    skipped_in_files,
)
from bleuviz.app.ui.cache.workspace import (
    SAVED,
    SAVED_SET_KEY,
    save_testset,
    saved_sets,
    workspace_readonly,
)
from bleuviz.app.ui.state.settings import (
    LOWER_KEY,
    NO_HUMAN,
)
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.decode import NamedBytes
from bleuviz.io.esa_records import pair_note
from bleuviz.io.seg_scores import SEG_SCORE_SUFFIX, file_base_name
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown as md

#: Session-state keys: upload file id -> the name the user chose to replace with it; the
#: names of the current uploads' choices (read by ``scored_testset``); file ids kept out;
#: notes on skipped systems of the last saved upload, with the set they were saved to.
REPLACE_IDS, REPLACE_NAMES, KEPT_IDS, SAVED_NOTES = (
    "seg_score_replace_ids",
    "seg_score_replace",
    "seg_score_kept",
    "seg_score_notes",
)


@dataclass(frozen=True, slots=True)
class Said:
    """What the sidebar says of the score uploads, as plain text (escaped when shown).

    Attributes:
        infos: uploads that add nothing ("already loaded, nothing changed").
        errors: uploads refused, each with its reason (the page stays).
    """

    infos: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()


def save_scores(scored: TestSet, notes: list[str], said: Said) -> None:
    """Keep uploaded scores with the saved test set they score, then empty the uploader.

    What is said of the uploads (``notes``, ``said``) is kept for the next run,
    which no longer has them.
    """
    state = st.session_state
    if state.get("data_source") != SAVED or workspace_readonly():
        return
    name = next((s.name for s in saved_sets() if s.id == state.get(SAVED_SET_KEY)), "upload")
    try:
        saved = save_testset(scored, name, replace_scores=tuple(state.get(REPLACE_NAMES) or ()))
    except BleuvizError as exc:
        state["ws_error"] = str(exc)
        return
    state["pending_set"] = saved.id
    state[SAVED_NOTES] = (saved.id, tuple(notes), said)  # the saved scores no longer know them
    clear_uploads()
    st.rerun()


def clear_uploads() -> None:
    """Empty the uploader and forget the choices made about its files."""
    state = st.session_state
    state["seg_upload_round"] = int(state.get("seg_upload_round", 0)) + 1
    for key in (REPLACE_IDS, REPLACE_NAMES, KEPT_IDS):
        state.pop(key, None)


def upload_files() -> tuple[tuple[NamedBytes, str], ...]:
    """The score uploader; return each file with its upload id."""
    uploads = st.sidebar.file_uploader(
        f"Segment scores (NAME{SEG_SCORE_SUFFIX}, COMET --to_json) or error spans",
        accept_multiple_files=True,
        key=f"up_seg_scores::{st.session_state.get('seg_upload_round', 0)}",
        help="COMET, MetricX, BLEURT or human judgements, one number per system and segment. "
        "An mt-metrics-eval file holds lines SYSTEM<TAB>SCORE; a system's k-th line is "
        "segment k; None marks a missing score. Systems the test set does not hold "
        "(WMT's human references) are skipped. Error spans: Google's MQM TSV, "
        "mt-metrics-eval NAME.seg.rating, WMT24 ESA JSON lines, Appraise's ESA CSV export or "
        "COMET JSON with xCOMET "
        "spans; each gives its segment score too (MQM, ESA, xCOMET).",
    )
    return tuple((NamedBytes(f.name, f.getvalue()), f.file_id) for f in uploads or [])


def held_back(
    files: tuple[tuple[NamedBytes, str], ...],
) -> tuple[list[tuple[ScoreConflict, str]], UploadCheck]:
    """Set the uploads to apply; return those waiting for a choice (with their file ids).

    An upload whose scores equal the loaded ones adds nothing; one with other values
    under a loaded name waits until the user replaces the loaded scores or keeps them;
    one that cannot be read against the test set stays out (the sidebar says why, the
    page stays). Returns the check of the uploads too (``said_about`` reads it).
    """
    state = st.session_state
    state["seg_score_uploads"] = ()
    kept = set(state.get(KEPT_IDS, ()))
    chosen: dict[str, str] = state.get(REPLACE_IDS, {})
    try:
        check = check_uploads(scored_testset(), files) if files else UploadCheck()
    except BleuvizError:  # the command line's files are refused: the page says so
        check = UploadCheck()
    conflicts = check.conflicts
    waiting = [(c, files[c.index][1]) for c in conflicts if files[c.index][1] not in chosen]
    refused = {files[index][1] for index, _ in check.refused}
    out = {file_id for _, file_id in waiting} | kept | refused
    state["seg_score_uploads"] = tuple(f for f in files if f[1] not in out)
    state[REPLACE_NAMES] = tuple(chosen[i] for _, i in files if i in chosen and i not in kept)
    return [(c, file_id) for c, file_id in waiting if file_id not in kept], check


def said_about(files: tuple[tuple[NamedBytes, str], ...], check: UploadCheck) -> Said:
    """What the sidebar says of the uploads: those that add nothing, and those refused."""
    return Said(
        tuple(f"{files[i][0].name}: already loaded, nothing changed." for i in check.unchanged),
        tuple(f"Not loaded: {reason}" for _, reason in check.refused),
    )


def ask_to_replace(
    files: tuple[tuple[NamedBytes, str], ...], waiting: list[tuple[ScoreConflict, str]]
) -> None:
    """For each held-back upload: say what it would replace, and offer both choices."""
    bar = st.sidebar
    for conflict, file_id in waiting:
        upload = files[conflict.index][0].name
        bar.warning(
            f"**{md(upload)}** scores **{md(conflict.name)}** differently from the "
            f"{md(conflict.name)} loaded from {md(file_base_name(conflict.loaded_from))}."
        )
        left, right = bar.columns(2)
        left.button(
            f"Replace {md(conflict.name)}",
            key=f"seg_replace::{file_id}",
            on_click=_choose_replace,
            args=(file_id, conflict.name),
        )
        right.button(
            "Keep the loaded", key=f"seg_keep::{file_id}", on_click=_choose_keep, args=(file_id,)
        )


def _choose_replace(file_id: str, name: str) -> None:
    """Let the upload replace the loaded scores of ``name``."""
    state = st.session_state
    state[REPLACE_IDS] = {**state.get(REPLACE_IDS, {}), file_id: name}


def _choose_keep(file_id: str) -> None:
    """Keep the loaded scores: the upload stays out."""
    state = st.session_state
    state[KEPT_IDS] = (*state.get(KEPT_IDS, ()), file_id)


def skipped_notes(loaded: LoadedTestSet) -> list[str]:
    """One line per imported metric whose file scores systems the test set does not hold,
    and per span file holding several language pairs (the pair read)."""
    state, scored = st.session_state, loaded.testset
    found = [(s.name, s.origin, s.skipped) for s in scored.seg_scores if s.skipped]
    cli_paths = tuple(state.get("cli_seg_scores") or ())
    from_cli = {s.origin for s in scored.seg_scores if not s.skipped} & set(cli_paths)
    if from_cli:  # saved in the workspace, which keeps the systems there only
        found += [
            f for f in skipped_in_files(loaded.content_id, cli_paths, scored) if f[1] in from_cli
        ]
    pairs = [pair_note(a) for a in scored.error_spans if a.language_pairs]
    return [
        f"{name} ({file_base_name(origin)}): skipped {len(skipped)} system"
        f"{'s' if len(skipped) != 1 else ''} not loaded: {', '.join(skipped[:10])}"
        + (f", … ({len(skipped) - 10} more)" if len(skipped) > 10 else "")
        for name, origin, skipped in found
    ] + pairs


def imported_sidebar() -> None:
    """Segment scores from outside: an uploader, each metric's direction, the human score."""
    bar = st.sidebar
    bar.subheader("Imported scores")
    files = upload_files()
    waiting, check = held_back(files)
    ask_to_replace(files, waiting)
    said = said_about(files, check)
    uploads = st.session_state["seg_score_uploads"]
    try:
        loaded: LoadedTestSet | None = scored_testset()
    except BleuvizError:  # the page shows the error
        loaded = None
    scored = loaded.testset if loaded is not None else None
    notes = skipped_notes(loaded) if loaded is not None else []
    if scored is not None and uploads and not waiting:
        save_scores(scored, notes, said)
    show_notes(notes, said, bool(files))
    show_kept(files)
    names = [s.name for s in scored.seg_scores] if scored is not None else []
    st.session_state["imported_names"] = names
    if not names:
        bar.caption(
            "None imported. Tables in TSV/CSV/JSONL may also hold score:METRIC:SYSTEM columns."
        )
        return
    for scores in scored.seg_scores if scored is not None else ():
        st.session_state.setdefault(LOWER_KEY + scores.name, scores.lower_is_better)
        # The name comes from the data, and a widget label renders Markdown.
        bar.checkbox(f"{md(scores.name)}: lower is better", key=LOWER_KEY + scores.name)
    if st.session_state.get("human_metric") not in [NO_HUMAN, *names]:
        st.session_state["human_metric"] = NO_HUMAN
    bar.selectbox(
        "Human judgement",
        [NO_HUMAN, *names],
        key="human_metric",
        help="Mark a score as human (MQM, DA, ESA): the Overview then shows how every metric "
        "correlates with it.",
    )


def show_notes(notes: list[str], said: Said, uploading: bool) -> None:
    """Name the systems skipped and the uploads refused or already loaded.

    Those of the files now in the uploader (``uploading``), or else of the upload
    just saved, beside the notes of the files the set already holds (a command-line
    file's skipped systems used to take the place of "already loaded").
    """
    state = st.session_state
    saved_to, saved_notes, saved_said = state.get(SAVED_NOTES, (None, (), Said()))
    showing_saved = state.get("data_source") == SAVED and state.get(SAVED_SET_KEY) == saved_to
    if not uploading and showing_saved:
        notes = [*notes, *(n for n in saved_notes if n not in notes)]
        said = saved_said
    for error in said.errors:
        st.sidebar.error(md(error), icon=":material/error:")
    for note in [*notes, *said.infos]:
        st.sidebar.info(md(note), icon=":material/info:")


def show_kept(files: tuple[tuple[NamedBytes, str], ...]) -> None:
    """Say which uploads are left out because the user kept the loaded scores."""
    kept = set(st.session_state.get(KEPT_IDS, ()))
    for f, file_id in files:
        if file_id in kept:
            st.sidebar.caption(f"{md(f.name)}: not used (the loaded scores were kept).")
