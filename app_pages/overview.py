"""Overview: each system's corpus BLEU, precision by order, sentence BLEU and documents."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleuviz.analysis.segments import document_scores, mean_sentence_bleu, system_scores
from bleuviz.bleu import sentence_scores
from bleuviz.render.charts import document_bars, precision_by_order, sentence_bleu_histogram
from bleuviz.render.labels import escape_markdown as md
from ui.data import current_corpus, metric_scores, metric_spec
from ui.format import fmt_bleu, fmt_bp, fmt_metric
from ui.humans import imported_cards, imported_column, metrics_vs_humans
from ui.settings import chosen_metrics, human_metric

st.title("Overview")
corpus, config = current_corpus()
scores = system_scores(corpus, config)
testset = corpus.testset
st.caption(
    f"{testset.n_segments} segments · {corpus.n_refs} reference(s) · "
    f"{len(testset.systems)} system(s) · flavour {config.flavor}"
)

st.subheader("Corpus BLEU")
columns = st.columns(min(len(scores), 4))
for i, (name, score) in enumerate(scores.items()):
    columns[i % len(columns)].metric(md(name), fmt_bleu(score.score), help=score.signature)

table = pd.DataFrame(
    {
        "system": [md(name) for name in scores],
        "BLEU": [fmt_bleu(s.score) for s in scores.values()],
        **{
            f"p{n + 1}": [f"{s.precisions[n]:.1f}" for s in scores.values()]
            for n in range(config.max_order)
        },
        "BP": [fmt_bp(s.bp) for s in scores.values()],
        "ratio": [f"{s.ratio:.3f}" for s in scores.values()],
        "hyp_len": [s.hyp_len for s in scores.values()],
        "ref_len": [s.ref_len for s in scores.values()],
        "mean sentence BLEU": [fmt_bleu(mean_sentence_bleu(corpus, n, config)) for n in scores],
    }
)
others = {label: {n: metric_scores(corpus, n, label) for n in scores} for label in chosen_metrics()}
for label, by_system in others.items():
    spec = metric_spec(corpus, label)
    if spec.imported:
        heading, column = imported_column(label, spec, by_system)
    else:
        heading = f"mean {label} F" if spec.mean_of_sentences else label
        column = [fmt_metric(spec, by_system[n].corpus) for n in scores]
    table[heading] = column
st.table(table.set_index("system"))
imported_cards(corpus, others)
st.markdown("**Signature**")
st.code(next(iter(scores.values())).signature, language=None)
for label, by_system in others.items():
    st.markdown(f"**{label} signature**")
    st.code(next(iter(by_system.values())).signature, language=None)
if others:
    st.caption(
        "chrF, chrF++ and TER are sacrebleu's corpus scores (TER: lower is better). "
        "ROUGE is rouge-score's F-measure on a 0–1 scale, averaged over segments. "
        "An imported score shows its mean over the segments that have one, with a 95% "
        "bootstrap interval (1,000 resamples, sacrebleu's procedure)."
    )
human = human_metric()
if human is not None:
    metrics_vs_humans(corpus, config, human)
with st.expander("Corpus BLEU is not the mean of sentence BLEU"):
    st.markdown(
        "Corpus BLEU sums every segment's matched and total n-grams and lengths *first*, "
        "then takes precisions, their geometric mean and one brevity penalty. "
        "The mean of sentence BLEU scores each segment alone (sacrebleu's `sentence_bleu`: "
        "effective order and smoothing on short segments) and averages the scores, so short "
        "segments weigh as much as long ones. The two answer different questions."
    )

left, right = st.columns(2)
with left:
    st.subheader("Modified precision by order")
    st.plotly_chart(precision_by_order(scores), key="ov_precision_chart")
with right:
    st.subheader("Sentence BLEU")
    sentence = {
        name: sentence_scores(stats, config).score for name, stats in corpus.systems.items()
    }
    st.plotly_chart(sentence_bleu_histogram(sentence), key="ov_sentence_hist")

if testset.doc_ids is not None:
    st.subheader("Documents")
    docs = document_scores(corpus, config)
    st.plotly_chart(
        document_bars(list(docs["doc"]), {n: list(docs[n]) for n in corpus.systems}),
        key="ov_doc_chart",
    )
    shown = docs.copy()
    for name in corpus.systems:
        shown[name] = shown[name].map(fmt_bleu)
    # st.table renders Markdown in cells and headers: escape the ids and names from the data.
    shown["doc"] = shown["doc"].map(lambda d: md(str(d)))
    st.table(shown.set_index("doc").rename(columns=md))
    doc = st.selectbox("Open a document's segments", list(docs["doc"]), key="ov_doc")
    system = st.selectbox("System", list(corpus.systems), key="ov_doc_system")
    st.page_link(
        "app_pages/sentences.py",
        label=f"Show the segments of {md(str(doc))} for {md(system)}",
        query_params={"sys": system, "doc": str(doc)},
        icon=":material/manage_search:",
    )
