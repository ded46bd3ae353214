"""The ideas around the numbers: recall against precision, and the tokenizers side by side.

Numbers come from ``bleuviz.teach.ideas``; the typed tokens reach the page only
through st.dataframe (the recall table, numbers only, is st.table).
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache import learn as cached
from bleuviz.app.ui.widgets.format import fmt_bleu, fmt_bp
from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.teach.ideas import (
    DEMO_TOKENIZERS,
    recall_frame,
    recall_rows,
    tokenizers_frame,
)
from bleuviz.teach.walkthrough import Walkthrough

NUMBER = st.column_config.NumberColumn


def recall_section(walk: Walkthrough) -> None:
    """Why BLEU is a precision with a brevity penalty: what a recall would give here."""
    st.header("Why precision and a brevity penalty, not recall")
    unigrams = [r for r in recall_rows(walk) if r.order == 1]
    each = "; ".join(
        f"against reference {r.reference} alone, {r.matches}/{r.ref_ngrams}"
        for r in unigrams
        if r.recall is not None
    )
    first = walk.orders[0]
    st.markdown(
        "Recall asks how much of the reference the candidate covers. With several "
        "references that has no single answer: a good translation follows one of them, "
        f"not all. Here the unigram recall is {each or 'undefined (empty reference)'}. "
        f"BLEU's precision counts a candidate n-gram found in **any** reference "
        f"(p₁ = {first.fraction}), which a short candidate could game; the brevity penalty "
        f"stands in for recall by punishing a candidate shorter than r (here c = "
        f"{walk.lengths.hyp_len}, r = {walk.lengths.ref_len}, BP = {fmt_bp(walk.bp)})."
    )
    st.table(recall_frame(walk), hide_index=True)  # numbers only: no user text


def tokenizers_section(
    hyp: str, refs: list[str], tokenize: TokenizeConfig, config: BleuConfig
) -> None:
    """The input through each of sacrebleu's tokenizers: tokens and score."""
    st.header("The same sentence through each tokenizer")
    st.markdown(
        f"BLEU counts tokens, so the tokenizer is part of the score. The input through "
        f"sacrebleu's {', '.join(DEMO_TOKENIZERS)} tokenizers, scored with the settings above "
        "(13a splits punctuation off words; intl also splits by Unicode class; zh splits "
        "Chinese characters; char every character; none only on spaces)."
    )
    rows = cached.tokenizers(hyp, tuple(refs), tokenize, config)
    st.dataframe(
        tokenizers_frame(rows),
        hide_index=True,
        column_config={"BLEU": NUMBER(format="%.2f")},
        key="learn_tokenizers",
    )
    spread = max(r.score for r in rows) - min(r.score for r in rows)
    st.caption(f"On this input the tokenizers' scores span {fmt_bleu(spread)} BLEU points.")
