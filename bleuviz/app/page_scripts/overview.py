"""Overview: each system's corpus BLEU, precision by order, sentence BLEU and documents.

The answer (cards, ranked table, signatures) comes first; the charts and the document
table are drawn once it is on screen (``ui/sections/deferred.py``).
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from bleuviz.analysis.segments import system_scores
from bleuviz.app.ui.cache.data import current_data
from bleuviz.app.ui.cache.scores import every_system_scores
from bleuviz.app.ui.sections.all_systems import outlier_finder
from bleuviz.app.ui.sections.bleu_sees import bleu_sees
from bleuviz.app.ui.sections.deferred import deferred
from bleuviz.app.ui.sections.error_breakdown import error_breakdown
from bleuviz.app.ui.sections.error_spans import span_sources
from bleuviz.app.ui.sections.humans import HUMANS_PX, imported_cards, metrics_vs_humans
from bleuviz.app.ui.sections.overview_charts import (
    ERRORS_PX,
    SEES_PX,
    documents_px,
    documents_section,
    score_charts,
    score_charts_px,
)
from bleuviz.app.ui.sections.overview_table import (
    FOCUS_DEFAULT,
    export_frame,
    rank_choice,
    ranked,
    ranked_scores,
    score_columns,
    systems_table,
)
from bleuviz.app.ui.sections.report_download import report_download
from bleuviz.app.ui.state.settings import chosen_metrics, human_metric
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import fmt_bleu
from bleuviz.app.ui.widgets.markup import show_signature
from bleuviz.render.labels import escape_markdown as md

st.title("Overview")
evaluation = current_data()
scores = system_scores(evaluation)
testset = evaluation.testset
st.caption(
    f"{testset.n_segments} segments · {len(testset.references)} reference(s) · "
    f"{len(testset.systems)} system(s) · flavour {evaluation.settings.bleu.flavor}"
)

others = {label: every_system_scores(evaluation, label, list(scores)) for label in chosen_metrics()}
columns = score_columns(evaluation, scores, others)
st.subheader("Corpus BLEU, systems ranked")
rank_by = rank_choice(columns)
order = ranked(columns, rank_by)
cards = st.columns(min(len(order), 4))
for i, name in enumerate(order):
    cards[i % len(cards)].metric(
        md(name), fmt_bleu(scores[name].score), help=scores[name].signature
    )
st.table(systems_table(columns, order))
st.caption(
    f"Ranked by {md(rank_by)} (best first); the best value of each score column is marked "
    "where one system alone has it. "
    "The cards show corpus BLEU."
)
export_buttons(
    export_frame(columns, order), "systems", "ov_export", signature=scores[order[0]].signature
)
imported_cards(evaluation, ranked_scores(columns, others))  # each best first, as BLEU's
st.markdown("**Signature**")
show_signature(next(iter(scores.values())).signature)
for label, by_system in others.items():
    st.markdown(f"**{label} signature**")
    show_signature(next(iter(by_system.values())).signature)
if others:
    st.caption(
        "chrF, chrF++ and TER are sacrebleu's corpus scores (TER: lower is better). "
        "ROUGE is rouge-score's F-measure on a 0–1 scale, averaged over segments. "
        "An imported score shows its mean over the segments that have one, with a 95% "
        "bootstrap interval (1,000 resamples, sacrebleu's procedure)."
    )
st.markdown("**Report**")
report_download(evaluation)  # bleuviz report's file of what is loaded and chosen, on request
with st.expander("Corpus BLEU is not the mean of sentence BLEU"):
    st.markdown(
        "Corpus BLEU sums every segment's matched and total n-grams and lengths *first*, "
        "then takes precisions, their geometric mean and one brevity penalty. "
        "The mean of sentence BLEU scores each segment alone (sacrebleu's `sentence_bleu`: "
        "effective order and smoothing on short segments) and averages the scores, so short "
        "segments weigh as much as long ones. The two answer different questions."
    )
if len(evaluation.testset.systems) > 1:
    # Lazy: the finder's table, thresholds and downloads are built and sent only while the
    # expander is open, so that every other change on this page draws less.
    suspicious = st.expander(
        "Suspicious segments: where one system stands apart",
        key="ov_outliers_open",
        on_change="rerun",
    )
    if suspicious.open:
        with suspicious:
            outlier_finder(evaluation)

# Below the answer, drawn once the answer is on screen (Plotly's chunk is loaded then).
human = human_metric()
if human is not None:
    deferred(
        "ov_humans",
        "Draw the charts against humans",
        HUMANS_PX,
        partial(metrics_vs_humans, evaluation, human),
    )
if span_sources(testset):  # without spans (loaded, or marked in notes) these draw nothing
    deferred("ov_err", "Draw the error categories", ERRORS_PX, partial(error_breakdown, evaluation))
    deferred("ov_sees", "Draw what BLEU sees", SEES_PX, partial(bleu_sees, evaluation))
deferred(
    "ov_charts",
    "Draw the charts",
    score_charts_px(len(order), FOCUS_DEFAULT),
    partial(score_charts, evaluation, scores, columns),
)
if testset.doc_ids is not None:
    signature = scores[order[0]].signature
    deferred(
        "ov_docs",
        "Draw the documents",
        documents_px(),
        partial(documents_section, evaluation, signature),
    )
