"""The frame's state and sidebar: defaults, the data source, BLEU settings, other metrics.

Every page reads the settings from ``st.session_state`` under the keys set here.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bleuviz.app.ui.cache.counting import start_corpus_stats
from bleuviz.app.ui.cache.loading import (
    LOWER_KEY,
    PathSet,
    load_uploads,
    read_testset,
    scored_testset,
)
from bleuviz.app.ui.cache.workspace import (
    SAVED,
    SAVED_SET_KEY,
    describe,
    open_workspace,
    save_testset,
    saved_sets,
    upload_name,
    workspace_problem,
    workspace_readonly,
)
from bleuviz.app.ui.state.app_args import AppArgs, app_args
from bleuviz.app.ui.state.links import LinkParam, arriving, claim, report_problem, text
from bleuviz.app.ui.state.settings import (
    FLAVOR_SENTENCES,
    NO_HUMAN,
    SENTENCE_SEMANTICS,
    smoothing_defaults,
    stats_settings,
)
from bleuviz.bleu import DEFAULT_FLAVOR, DEFAULT_ORDER, FLAVORS, MAX_ORDER, get_flavor
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TOKENIZERS, TokenizeConfig
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.decode import NamedBytes, read_path
from bleuviz.io.seg_scores import SEG_SCORE_SUFFIX, attach_seg_scores, set_directions
from bleuviz.io.testset import TestSet
from bleuviz.metrics import EXTRA_METRICS
from bleuviz.render.labels import escape_markdown as md
from bleuviz.workspace import DefiningStreams, SavedSet


def cli_paths(args: AppArgs) -> PathSet | None:
    """The test set given after ``--`` on the streamlit command line, if any."""
    if not args.ref or not args.hyp:
        return None
    return PathSet(args.hyp, args.ref, args.src, args.docids)


def init_state() -> None:
    """Shared defaults, set once per session."""
    args = app_args()
    paths = cli_paths(args)
    st.session_state.setdefault("cli_paths", paths)
    seg_scores, lower = args.seg_scores, args.lower_is_better
    st.session_state.setdefault("cli_seg_scores", seg_scores)
    st.session_state.setdefault("cli_lower_is_better", lower)
    st.session_state.setdefault("seg_score_uploads", ())
    st.session_state.setdefault("imported_names", [])
    st.session_state.setdefault("human_metric", NO_HUMAN)
    st.session_state.setdefault("tokenize", DEFAULT_TOKENIZER)
    st.session_state.setdefault("lowercase", False)
    st.session_state.setdefault("flavor", DEFAULT_FLAVOR)
    for key, value in smoothing_defaults("smooth_", "smooth_value_").items():
        st.session_state.setdefault(key, value)
    st.session_state.setdefault("max_order", DEFAULT_ORDER)
    st.session_state.setdefault("weights_text", "")
    st.session_state.setdefault("effective_order", False)
    st.session_state.setdefault("sentence_semantics", FLAVOR_SENTENCES)
    st.session_state.setdefault("auto_reweigh", False)
    st.session_state.setdefault("metrics", [])
    st.session_state.setdefault("rouge_stemmer", False)


#: Session-state keys of the sidebar's settings (plus each flavour's smoothing keys).
SETTING_KEYS = (
    "tokenize", "lowercase", "flavor", "max_order", "weights_text", "effective_order",
    "auto_reweigh", "sentence_semantics", "metrics", "rouge_stemmer",
)  # fmt: skip


def keep_settings() -> None:
    """Keep the settings while their widgets are not drawn (the Learn page).

    Streamlit forgets a widget's value after a run that does not draw it;
    writing the values back makes them plain session state, which it keeps,
    so the test-set pages find the user's settings again.
    """
    state = st.session_state
    smoothing = smoothing_defaults("smooth_", "smooth_value_")
    for key in (*SETTING_KEYS, *smoothing):
        if key in state:
            state[key] = state[key]


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
            return registered_files(paths.key(), paths, seg_scores, lower, settings)
    except BleuvizError:
        return None


@st.cache_resource(show_spinner=False)
def registered_files(
    key: tuple[object, ...],
    _paths: PathSet,
    seg_scores: tuple[str, ...],
    lower: tuple[str, ...],
    _count_with: tuple[TokenizeConfig, int] | None,
) -> str | None:
    """Read and save the command line's test set once per server (cached on the files).

    A set new to the workspace is loaded back as this very object (``load_saved``),
    so its n-grams are counted (``_count_with``: tokenization and order) while it is
    saved; a set saved before may have more systems, and is counted once loaded.
    """
    if open_workspace() is None or workspace_readonly():
        return None
    loaded = read_testset(("paths", *key), _paths)
    if seg_scores:
        files = tuple(read_path(path) for path in seg_scores)
        loaded = LoadedTestSet.of(set_directions(attach_seg_scores(loaded.testset, files), lower))
    defining = DefiningStreams.of(loaded.testset)  # joined and encoded once, for id and save
    if _count_with is not None and defining.id not in {s.id for s in saved_sets()}:
        start_corpus_stats(loaded, *_count_with)
    names = [Path(p).name for p in _paths.hyp]
    return save_testset(loaded, f"command line: {upload_name(names)}", defining).id


def data_sidebar() -> None:
    """Where the test set comes from: a saved one, the sample, command-line files or uploads."""
    state = st.session_state
    pending = state.pop("pending_set", None)
    if pending is not None:  # a save of the last run switches to what it saved
        state["data_source"], state[SAVED_SET_KEY] = SAVED, pending
    apply_set_link()
    sets = saved_sets()
    sources = {SAVED: "Saved test set"} if sets else {}
    if state["cli_paths"] is not None and state.get("data_source") == "cli":
        sources["cli"] = "Command-line files"
    sources |= {"sample": "Bundled sample", "upload": "Upload files"}
    if state.get("data_source") not in sources:
        state["data_source"] = "sample"
    st.sidebar.radio("Test set", list(sources), format_func=sources.__getitem__, key="data_source")
    if state["data_source"] == SAVED:
        saved_set_widgets(sets)
    if state["data_source"] == "upload":
        upload_widgets()
        save_upload()
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


def save_upload() -> None:
    """Save a readable upload in the workspace and switch to it (a rerun shows it)."""
    uploads = st.session_state.get("uploads")
    if uploads is None or open_workspace() is None or workspace_readonly():
        return
    try:
        loaded = load_uploads(
            ("upload", *uploads["key"]),
            uploads["hyp"],
            uploads["ref"],
            uploads["src"],
            uploads["docids"],
        )
        saved = save_testset(loaded, upload_name([f.name for f in uploads["hyp"]]))
    except BleuvizError:  # the page shows why the upload cannot be read
        return
    st.session_state["pending_set"] = saved.id
    st.rerun()


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
    if not hyp:
        st.session_state["uploads"] = None
        return
    files = [*hyp, *(ref or []), *(f for f in (src, docids) if f is not None)]
    st.session_state["uploads"] = {
        "key": tuple(f.file_id for f in files),
        "hyp": tuple(NamedBytes(f.name, f.getvalue()) for f in hyp),
        "ref": tuple(NamedBytes(f.name, f.getvalue()) for f in ref or []),
        "src": NamedBytes(src.name, src.getvalue()) if src else None,
        "docids": NamedBytes(docids.name, docids.getvalue()) if docids else None,
    }


def settings_sidebar() -> None:
    """Tokenizer, flavour, smoothing, order and weights: one place for every page."""
    bar = st.sidebar
    bar.subheader("BLEU settings")
    bar.selectbox("Tokenizer", TOKENIZERS, key="tokenize", help="sacrebleu's tokenizers")
    bar.checkbox("Lowercase", key="lowercase")
    name = bar.selectbox(
        "Flavour", list(FLAVORS), key="flavor", help="which implementation to replicate"
    )
    flavor = get_flavor(name)
    smooth = bar.selectbox("Smoothing", flavor.smoothing, key=f"smooth_{name}")
    if smooth in flavor.smoothing_values:
        bar.number_input("Smoothing value", min_value=0.0, step=0.1, key=f"smooth_value_{smooth}")
    bar.number_input("Max n-gram order", min_value=1, max_value=MAX_ORDER, step=1, key="max_order")
    bar.text_input("Weights (blank: uniform)", key="weights_text", placeholder="e.g. 0.5 0.5")
    if flavor.effective_order:
        bar.checkbox("Effective order", key="effective_order", help="corpus BLEU")
    if flavor.sentence_effective_order:
        bar.radio(
            "Sentence BLEU",
            list(SENTENCE_SEMANTICS),
            format_func=SENTENCE_SEMANTICS.__getitem__,
            key="sentence_semantics",
            help="sacrebleu's sentence_bleu turns effective order on (the default here); "
            "BLEU(...).sentence_score scores each segment with exactly the settings above.",
        )
    if flavor.auto_reweigh:
        bar.checkbox("auto_reweigh", key="auto_reweigh")


def metrics_sidebar() -> None:
    """Metrics shown beside BLEU in the tables and the drill-down."""
    bar = st.sidebar
    bar.subheader("Other metrics")
    chosen = bar.multiselect(
        "Add columns",
        list(EXTRA_METRICS),
        key="metrics",
        placeholder="chrF, TER, ROUGE…",
        help="chrF, chrF++ and TER are computed by sacrebleu; ROUGE (F-measure, 0–1) "
        "replicates rouge-score. Each is computed once per test set, when first chosen.",
    )
    if any(EXTRA_METRICS[label].reads_stemmer for label in chosen):
        bar.checkbox("ROUGE: Porter stemmer", key="rouge_stemmer")


def save_scores(scored: TestSet) -> None:
    """Keep uploaded scores with the saved test set they score, then empty the uploader."""
    state = st.session_state
    if state.get("data_source") != SAVED or workspace_readonly():
        return
    name = next((s.name for s in saved_sets() if s.id == state.get(SAVED_SET_KEY)), "upload")
    try:
        saved = save_testset(scored, name)
    except BleuvizError as exc:
        state["ws_error"] = str(exc)
        return
    state["pending_set"] = saved.id
    state["seg_upload_round"] = int(state.get("seg_upload_round", 0)) + 1
    st.rerun()


def imported_sidebar() -> None:
    """Segment scores from outside: an uploader, each metric's direction, the human score."""
    bar = st.sidebar
    bar.subheader("Imported scores")
    uploads = bar.file_uploader(
        f"Segment scores: NAME{SEG_SCORE_SUFFIX} (mt-metrics-eval) or COMET --to_json",
        accept_multiple_files=True,
        key=f"up_seg_scores::{st.session_state.get('seg_upload_round', 0)}",
        help="COMET, MetricX, BLEURT or human judgements, one number per system and segment. "
        "An mt-metrics-eval file holds lines SYSTEM<TAB>SCORE; a system's k-th line is "
        "segment k; None marks a missing score.",
    )
    st.session_state["seg_score_uploads"] = tuple(
        (NamedBytes(f.name, f.getvalue()), f.file_id) for f in uploads or []
    )
    try:
        scored = scored_testset().testset
    except BleuvizError:  # the page shows the error
        scored = None
    if scored is not None and uploads:
        save_scores(scored)
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
