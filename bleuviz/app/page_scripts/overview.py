"""Overview: each system's corpus BLEU, precision by order, sentence BLEU and documents."""

from __future__ import annotations

import streamlit as st

from bleuviz.analysis.segments import document_scores, system_scores
from bleuviz.app import routes
from bleuviz.app.ui.cache.data import current_corpus
from bleuviz.app.ui.cache.scores import every_system_scores, sentence_bleu
from bleuviz.app.ui.sections.all_systems import outlier_finder
from bleuviz.app.ui.sections.bleu_sees import bleu_sees
from bleuviz.app.ui.sections.error_breakdown import error_breakdown
from bleuviz.app.ui.sections.humans import imported_cards, metrics_vs_humans
from bleuviz.app.ui.sections.overview_table import (
    chart_order,
    export_frame,
    focus_picker,
    rank_choice,
    ranked,
    ranked_scores,
    score_columns,
    systems_table,
)
from bleuviz.app.ui.state.settings import chosen_metrics, human_metric
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import fmt_bleu
from bleuviz.app.ui.widgets.markup import show_signature
from bleuviz.render.charts import document_bars, precision_by_order, sentence_score_boxes
from bleuviz.render.labels import escape_markdown as md

st.title("Overview")
evaluation, config = current_corpus()
scores = system_scores(evaluation.bleu_statistics(), config)
testset = evaluation.testset
st.caption(
    f"{testset.n_segments} segments · {len(testset.references)} reference(s) · "
    f"{len(testset.systems)} system(s) · flavour {config.flavor}"
)

others = {label: every_system_scores(evaluation, label, list(scores)) for label in chosen_metrics()}
columns = score_columns(evaluation, config, scores, others)
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
human = human_metric()
if human is not None:
    metrics_vs_humans(evaluation, config, human)
error_breakdown(evaluation)  # draws nothing without error spans
bleu_sees(evaluation)  # draws nothing without error spans
with st.expander("Corpus BLEU is not the mean of sentence BLEU"):
    st.markdown(
        "Corpus BLEU sums every segment's matched and total n-grams and lengths *first*, "
        "then takes precisions, their geometric mean and one brevity penalty. "
        "The mean of sentence BLEU scores each segment alone (sacrebleu's `sentence_bleu`: "
        "effective order and smoothing on short segments) and averages the scores, so short "
        "segments weigh as much as long ones. The two answer different questions."
    )

focus = focus_picker(chart_order(columns))  # not the ranking: its change redraws no chart
left, right = st.columns(2)
with left:
    st.subheader("Modified precision by order")
    st.plotly_chart(precision_by_order({n: scores[n] for n in focus}), key="ov_precision_chart")
with right:
    st.subheader("Sentence BLEU")
    sentence = {n: sentence_bleu(evaluation, n, config).score for n in focus}
    st.plotly_chart(sentence_score_boxes(sentence), key="ov_sentence_boxes")

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
            outlier_finder(evaluation, config)

if testset.doc_ids is not None:
    st.subheader("Documents")
    docs = document_scores(evaluation.bleu_statistics(), config)
    st.plotly_chart(
        document_bars(list(docs["doc"]), {n: list(docs[n]) for n in evaluation.testset.systems}),
        key="ov_doc_chart",
    )
    # A scrolling grid, not st.table: 13 systems' columns fit 1280 px, the ids stay in view.
    st.dataframe(
        docs,
        key="ov_docs_table",
        hide_index=True,
        column_config={
            "doc": st.column_config.TextColumn("doc", pinned=True),
            "segments": st.column_config.NumberColumn("segments", width="small"),
            **{
                name: st.column_config.NumberColumn(name, format="%.2f", width="small")
                for name in evaluation.testset.systems
            },
        },
    )
    export_buttons(docs, "documents", "ov_docs_export", signature=scores[order[0]].signature)
    doc = st.selectbox("Open a document's segments", list(docs["doc"]), key="ov_doc")
    system = st.selectbox("System", list(evaluation.testset.systems), key="ov_doc_system")
    st.page_link(
        routes.SENTENCES,
        label=f"Show the segments of {md(str(doc))} for {md(system)}",
        query_params={"sys": system, "doc": str(doc)},
        icon=":material/manage_search:",
    )
