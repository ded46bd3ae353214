"""The frame's state and settings sidebar: defaults, BLEU settings, other metrics.

Every page reads the settings from ``st.session_state`` under the keys set here.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache.loading import scored_testset
from bleuviz.app.ui.frame.data_source import cli_paths
from bleuviz.app.ui.state.app_args import app_args
from bleuviz.app.ui.state.links import LinkParam
from bleuviz.app.ui.state.setting_links import imported_links
from bleuviz.app.ui.state.settings import (
    FLAVOR_SENTENCES,
    HUMAN_KEY,
    LOWER_KEY,
    NO_HUMAN,
    SENTENCE_SEMANTICS,
    smoothing_defaults,
)
from bleuviz.bleu import DEFAULT_FLAVOR, DEFAULT_ORDER, FLAVORS, MAX_ORDER, get_flavor
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TOKENIZERS
from bleuviz.errors import BleuvizError
from bleuviz.limits import MAX_SMOOTH_VALUE
from bleuviz.metrics import EXTRA_METRICS


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
    st.session_state.setdefault(HUMAN_KEY, NO_HUMAN)
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
    directions = [key for key in state if str(key).startswith(LOWER_KEY)]
    for key in (*SETTING_KEYS, *smoothing, HUMAN_KEY, *directions):
        if key in state:
            state[key] = state[key]


def imported_params() -> list[LinkParam]:
    """The link parameters of the imported scores' directions and of the human judgement.

    The scores are those the sidebar shows (a test set that cannot be read has none;
    the page says why).
    """
    try:
        scores = scored_testset().testset.seg_scores
    except BleuvizError:
        scores = ()
    return imported_links([(s.name, s.lower_is_better) for s in scores])


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
        bar.number_input(
            "Smoothing value",
            min_value=0.0,
            max_value=float(MAX_SMOOTH_VALUE),
            step=0.1,
            key=f"smooth_value_{smooth}",
        )
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


def unsaved_score_uploads() -> bool:
    """Whether the score uploader holds files kept nowhere else (no saved set to keep them).

    Scores uploaded on a saved set are saved with it and the uploader emptied; on
    the sample or a set that cannot be saved, the files live only in the uploader,
    and Streamlit forgets them after a run that does not draw it.
    """
    return bool(st.session_state.get("seg_score_uploads"))
