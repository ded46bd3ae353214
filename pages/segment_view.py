"""One segment's drill-down, shared by the sentences and compare pages."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleuviz.bleu import BleuConfig, sentence_scores
from bleuviz.corpus import CorpusStats
from bleuviz.explain import SegmentExplanation, explain_segment
from bleuviz.highlight import STYLE, hypothesis_html, legend, reference_html
from bleuviz.tokenize import TokenizeConfig
from pages.common import fmt_bleu, fmt_bp


@st.cache_data(max_entries=256, show_spinner=False)
def explanation(
    hyp: str, refs: tuple[str, ...], tokenize: TokenizeConfig, order: int
) -> SegmentExplanation:
    """Explain one segment (cached: only the segments on screen are ever explained)."""
    return explain_segment(hyp, refs, tokenize, order)


def ngram_frame(expl: SegmentExplanation, order: int) -> pd.DataFrame:
    """The n-gram table of one order."""
    rows = expl.rows[order - 1]
    return pd.DataFrame(
        {
            "n-gram": [r.text for r in rows],
            "hyp count": [r.hyp_count for r in rows],
            "max ref count": [r.max_ref_count for r in rows],
            "in reference": [r.best_ref + 1 if r.best_ref is not None else None for r in rows],
            "matched": [r.matched for r in rows],
            "clipped": [r.clipped for r in rows],
        }
    )


def show_segment(
    corpus: CorpusStats, config: BleuConfig, system: str, index: int, key_prefix: str
) -> None:
    """Draw source, hypothesis and references highlighted, the n-gram tables and the BP."""
    testset = corpus.testset
    stats = corpus.systems[system]
    row = stats.select([index])
    score = sentence_scores(row, config)
    label = testset.segment_label(index)
    doc = f" · document {testset.doc_ids[index]}" if testset.doc_ids is not None else ""
    st.subheader(f"Segment {label}{doc} · {system}")
    hyp = testset.systems[system][index]
    refs = tuple(stream[index] for stream in testset.references)
    expl = explanation(hyp, refs, corpus.tokenize, config.max_order)
    a, b, c = st.columns(3)
    a.metric("Sentence BLEU", fmt_bleu(float(score.score[0])))
    b.metric("Brevity penalty", fmt_bp(float(score.bp[0])))
    c.metric("Lengths (hyp / ref)", f"{int(row.hyp_len[0])} / {int(row.closest_ref_len[0])}")
    if testset.source is not None:
        st.markdown("**Source**")
        st.text(testset.source[index])
    order = st.radio(
        "Highlight n-grams of order",
        list(range(1, config.max_order + 1)),
        horizontal=True,
        key=f"{key_prefix}_order",
    )
    st.html(STYLE + legend())
    st.markdown("**Hypothesis**")
    if expl.hyp_spans is None:
        st.caption(
            "The tokenizer changed this text, so its tokens are shown instead of the original."
        )
    st.html(hypothesis_html(expl, order))
    for r in range(len(refs)):
        st.markdown(f"**Reference {r + 1}**: tokens the hypothesis matched at order {order}")
        st.html(reference_html(expl, order, r))
    _precision_lines(expl, config)
    st.dataframe(ngram_frame(expl, order), hide_index=True, key=f"{key_prefix}_ngrams_{order}")


def _precision_lines(expl: SegmentExplanation, config: BleuConfig) -> None:
    """Clipped counts and modified precision per order, as fractions and decimals."""
    parts = []
    for n in range(1, config.max_order + 1):
        m, t = expl.matches(n), expl.totals(n)
        value = f"{m / t:.4f}" if t else "undefined"
        parts.append(f"p{n} = {m}/{t} = {value}")
    st.markdown("Modified precision: " + " · ".join(parts))
