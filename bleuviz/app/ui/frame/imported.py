"""Imported segment scores: the uploader, each metric's direction, the human judgement."""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache.loading import (
    scored_testset,
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
from bleuviz.io.decode import NamedBytes
from bleuviz.io.seg_scores import SEG_SCORE_SUFFIX
from bleuviz.io.testset import TestSet
from bleuviz.render.labels import escape_markdown as md


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
