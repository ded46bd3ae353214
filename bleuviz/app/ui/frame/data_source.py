"""Where the test set comes from: a saved one, the sample, command-line files or uploads."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bleuviz.app.ui.cache.counting import start_corpus_stats
from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.app.ui.cache.loading import PathSet, read_testset
from bleuviz.app.ui.cache.workspace import (
    SAVED,
    SAVED_SET_KEY,
    open_workspace,
    save_testset,
    saved_sets,
    upload_name,
    workspace_problem,
    workspace_readonly,
)
from bleuviz.app.ui.frame.report_upload import report_upload
from bleuviz.app.ui.frame.saved_sets import saved_set_widgets, trash_widgets
from bleuviz.app.ui.frame.uploads import PENDING_SOURCE, saved_by_this_upload, upload_section
from bleuviz.app.ui.state.app_args import AppArgs, app_args
from bleuviz.app.ui.state.link_values import text
from bleuviz.app.ui.state.links import LinkParam, arriving, claim, report_problem
from bleuviz.app.ui.state.settings import (
    stats_settings,
)
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.decode import read_path
from bleuviz.io.error_span_files import attach_score_files
from bleuviz.io.load import holds_references
from bleuviz.io.mqm_score import parse_weights
from bleuviz.io.seg_scores import set_directions
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace import DefiningStreams, SavedSet


def cli_paths(args: AppArgs) -> PathSet | None:
    """The test set given after ``--`` on the streamlit command line, if any.

    ``--hyp`` alone names one when it is a table, XML or SGML file (its references inside).
    """
    if not args.hyp or not (args.ref or holds_references(args.hyp)):
        return None
    return PathSet(args.hyp, args.ref, args.src, args.docids)


def choose_data_source() -> None:
    """Once per session: the command line's files (saved in the workspace), or the sample.

    Called once the link's settings are applied: the command line's statistics are
    started with the settings this session counts with.
    """
    state = st.session_state
    if "data_source" in state:
        return
    paths = state["cli_paths"]
    registered = register_command_line(paths, state["cli_seg_scores"], state["cli_lower_is_better"])
    state[SAVED_SET_KEY] = registered
    state["data_source"] = SAVED if registered else "cli" if paths else "sample"


def register_command_line(
    paths: PathSet | None, seg_scores: tuple[str, ...], lower: tuple[str, ...]
) -> str | None:
    """Save the command line's files in the workspace; return the set's id (None: not saved).

    Files that cannot be read are not saved: the page then shows their error, as
    it would without a workspace.
    """
    if paths is None:
        return None
    try:
        settings: tuple[TokenizeConfig, int] | None = stats_settings()
    except BleuvizError:  # the page shows it; nothing to count ahead with
        settings = None
    try:
        # The spinner is the caller's: start_up makes the same call with no page to draw on.
        with st.spinner("Saving the command line's files in the workspace…"):
            weights = app_args().mqm_weights
            return registered_files(paths.key(), paths, seg_scores, lower, settings, weights)
    except BleuvizError:
        return None


@cached_resource(show_spinner=False)
def registered_files(
    key: tuple[object, ...],
    _paths: PathSet,
    seg_scores: tuple[str, ...],
    lower: tuple[str, ...],
    _count_with: tuple[TokenizeConfig, int] | None,
    weights: str,
) -> str | None:
    """Read and save the command line's test set once per server (cached on the files).

    ``weights`` (``--mqm-weights``, checked) weigh the MQM spans among ``seg_scores``.

    A set new to the workspace is loaded back as this very object (``load_saved``),
    so its n-grams are counted (``_count_with``: tokenization and order) while it is
    saved; a set saved before may have more systems, and is counted once loaded.
    """
    if open_workspace() is None or workspace_readonly():
        return None
    loaded = read_testset(("paths", *key), _paths)
    if seg_scores:
        files = tuple(read_path(path) for path in seg_scores)
        scored = attach_score_files(loaded.testset, files, weights=parse_weights(weights))
        loaded = LoadedTestSet.of(set_directions(scored, lower))
    defining = DefiningStreams.of(loaded.testset)  # joined and encoded once, for id and save
    if _count_with is not None and defining.id not in {s.id for s in saved_sets()}:
        start_corpus_stats(loaded, *_count_with)
    names = [Path(p).name for p in _paths.hyp]
    return save_testset(loaded, f"command line: {upload_name(names)}", defining).id


def data_sources(sets: tuple[SavedSet, ...]) -> dict[str, str]:
    """Settle this run's test set (a save's, the link's, else the one chosen); name each source.

    ``sets``: the workspace's saved sets. Returns the sources the sidebar offers, by key,
    with their labels; the chosen one is ``st.session_state["data_source"]`` (the sample
    when the one chosen is gone).
    """
    state = st.session_state
    pending = state.pop("pending_set", None)
    if pending is not None:  # a save of the last run switches to what it saved
        state["data_source"], state[SAVED_SET_KEY] = SAVED, pending
    if (source := state.pop(PENDING_SOURCE, None)) is not None:  # a cancelled upload's
        state["data_source"] = source
    apply_set_link()
    sources = {SAVED: "Saved test set"} if sets else {}
    if state["cli_paths"] is not None and state.get("data_source") == "cli":
        sources["cli"] = "Command-line files"
    sources |= {"sample": "Bundled sample", "upload": "Upload files"}
    if state.get("data_source") not in sources:
        state["data_source"] = "sample"
    return sources


def data_sidebar() -> None:
    """Where the test set comes from: a saved one, the sample, command-line files or uploads."""
    state = st.session_state
    sets = saved_sets()
    sources = data_sources(sets)
    st.sidebar.radio("Test set", list(sources), format_func=sources.__getitem__, key="data_source")
    if state["data_source"] == SAVED:
        saved_set_widgets(sets)
        if saved_by_this_upload(state.get(SAVED_SET_KEY)):  # files given later join it
            upload_section()
    trash_widgets()  # restorable deleted sets, even when no other set is saved
    if state["data_source"] == "upload":
        upload_section()
        report_upload()  # or a bleuviz report's test set, saved and shown
    problem = workspace_problem()
    if problem:
        st.sidebar.caption(f"Saving is off: {md(problem)}")
    write_set_link()


def apply_set_link() -> None:
    """Open the saved test set a link names (``set=ID``), once per link."""
    claim(SET_PARAM.name)
    state, raw = st.session_state, st.query_params.get("set")
    if raw is None or not arriving():
        return
    if any(saved.id == raw for saved in saved_sets()):
        state["data_source"], state[SAVED_SET_KEY] = SAVED, raw
        return
    folder = workspace.folder if (workspace := open_workspace()) is not None else None
    where = f"workspace {folder}" if folder else "the workspace (it cannot be opened)"
    report_problem(SET_PARAM, raw, f"no such test set in {where}")


#: How a bad ``set=`` is reported: the page falls back to what the sidebar shows.
SET_PARAM = LinkParam("set", SAVED_SET_KEY, text, default_text="the test set chosen in the sidebar")


def write_set_link() -> None:
    """Put the saved test set's id in the URL (and take it out for other sources)."""
    state = st.session_state
    if state.get("data_source") == SAVED and state.get(SAVED_SET_KEY):
        if st.query_params.get("set") != state[SAVED_SET_KEY]:
            st.query_params["set"] = str(state[SAVED_SET_KEY])
    elif "set" in st.query_params:
        del st.query_params["set"]
