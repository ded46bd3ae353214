"""The frame's state and sidebar: defaults, the data source, BLEU settings, other metrics.

Every page reads the settings from ``st.session_state`` under the keys set here.
"""

from __future__ import annotations

import argparse
import sys

import streamlit as st

from bleuviz.bleu import DEFAULT_FLAVOR, DEFAULT_ORDER, FLAVORS, MAX_ORDER, get_flavor
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TOKENIZERS
from bleuviz.errors import BleuvizError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.seg_scores import SEG_SCORE_SUFFIX
from bleuviz.metrics import EXTRA_METRICS
from bleuviz.render.labels import escape_markdown as md
from ui.data import LOWER_KEY, PathSet, scored_testset
from ui.settings import FLAVOR_SENTENCES, NO_HUMAN, SENTENCE_SEMANTICS, smoothing_defaults


def cli_paths(argv: list[str]) -> PathSet | None:
    """Parse the files given after ``--`` on the streamlit command line."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--ref", nargs="+")
    parser.add_argument("--hyp", nargs="+")
    parser.add_argument("--src")
    parser.add_argument("--docids")
    args, _ = parser.parse_known_args(argv)
    if not args.ref or not args.hyp:
        return None
    return PathSet(tuple(args.hyp), tuple(args.ref), args.src, args.docids)


def cli_seg_scores(argv: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Parse ``--seg-scores FILE ...`` and ``--lower-is-better NAME ...`` after ``--``."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--seg-scores", nargs="+", default=[])
    parser.add_argument("--lower-is-better", nargs="+", default=[])
    args, _ = parser.parse_known_args(argv)
    return tuple(args.seg_scores), tuple(args.lower_is_better)


def init_state() -> None:
    """Shared defaults, set once per session."""
    paths = cli_paths(sys.argv[1:])
    st.session_state.setdefault("cli_paths", paths)
    seg_scores, lower = cli_seg_scores(sys.argv[1:])
    st.session_state.setdefault("cli_seg_scores", seg_scores)
    st.session_state.setdefault("cli_lower_is_better", lower)
    st.session_state.setdefault("seg_score_uploads", ())
    st.session_state.setdefault("imported_names", [])
    st.session_state.setdefault("human_metric", NO_HUMAN)
    st.session_state.setdefault("data_source", "cli" if paths else "sample")
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


def data_sidebar() -> None:
    """Where the test set comes from: the sample, command-line files or uploads."""
    sources = {"sample": "Bundled sample", "upload": "Upload files"}
    if st.session_state["cli_paths"] is not None:
        sources = {"cli": "Command-line files", **sources}
    st.sidebar.radio("Test set", list(sources), format_func=sources.__getitem__, key="data_source")
    if st.session_state["data_source"] == "upload":
        upload_widgets()


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


def imported_sidebar() -> None:
    """Segment scores from outside: an uploader, each metric's direction, the human score."""
    bar = st.sidebar
    bar.subheader("Imported scores")
    uploads = bar.file_uploader(
        f"Segment scores: NAME{SEG_SCORE_SUFFIX} (mt-metrics-eval) or COMET --to_json",
        accept_multiple_files=True,
        key="up_seg_scores",
        help="COMET, MetricX, BLEURT or human judgements, one number per system and segment. "
        "An mt-metrics-eval file holds lines SYSTEM<TAB>SCORE; a system's k-th line is "
        "segment k; None marks a missing score.",
    )
    st.session_state["seg_score_uploads"] = tuple(
        (NamedBytes(f.name, f.getvalue()), f.file_id) for f in uploads or []
    )
    try:
        scored, _ = scored_testset()
    except BleuvizError:  # the page shows the error
        scored = None
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
