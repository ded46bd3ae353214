"""The Learn page's two comparisons after the steps: the libraries, and corpus vs sentence.

The library calls score the page's input as each reference implementation does
(``bleuviz.teach.flavors``) and say where they part (``bleuviz.teach.why``);
the corpus section sets corpus BLEU from summed counts against the mean of
sentence BLEU on an editable corpus (``bleuviz.teach.corpus_vs_sentence``).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from bleuviz.app.ui.cache import learn as cached
from bleuviz.app.ui.widgets.format import fmt_bleu, fmt_bp
from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.teach.corpus_vs_sentence import SAMPLE_CORPUS, corpus_frame, corpus_vs_sentence
from bleuviz.teach.flavors import (
    WAYS,
    defaults_frame,
    degenerate_frame,
    replicas_frame,
    ways_frame,
)
from bleuviz.teach.why import Group, Parting, groups_frame, partings_frame

NUMBER = st.column_config.NumberColumn


def library_calls(hyp: str, refs: list[str], tokenize: TokenizeConfig) -> None:
    """The input scored by every library call, with each call's defaults."""
    count = len(WAYS)
    st.header(f"BLEU of this input by {count} library calls, with their defaults")
    st.markdown(
        "Each row is a call as a student types it, scored by the bleuviz replica of that "
        "library (4-grams, uniform weights), on the tokens of the page's tokenizer and case. "
        "“vs sentence_bleu” is the difference from sacrebleu's **sentence_bleu**."
    )
    results, groups, parts = cached.library_calls(hyp, tuple(refs), tokenize)
    # st.table wraps the sentences and renders Markdown: these tables hold no user text.
    ways = ways_frame(results)
    ways["BLEU"] = ways["BLEU"].map(fmt_bleu)
    ways["BP"] = ways["BP"].map(fmt_bp)
    ways["vs sentence_bleu"] = ways["vs sentence_bleu"].map(_fmt_delta)
    st.table(ways, hide_index=True)
    st.markdown("Each call's defaults, which make the scores differ:")
    st.table(defaults_frame(), hide_index=True)
    with st.expander("Which bleuviz replica computes each call"):
        st.table(replicas_frame(), hide_index=True)
    why_section(groups, parts)
    st.subheader("Degenerate input")
    st.markdown(
        "What bleuviz reports for an **empty candidate** (with the references above) and an "
        "**empty reference** (with the candidate above), and what each library itself does."
    )
    degenerate = degenerate_frame(results)
    for column in ("empty candidate", "empty reference"):
        degenerate[column] = degenerate[column].map(fmt_bleu)
    st.table(degenerate, hide_index=True)


def why_section(groups: Sequence[Group], parts: Sequence[Parting]) -> None:
    """Group the calls that agree, and say where every two groups part, on this input."""
    st.subheader("Why the scores differ, on this sentence")
    st.markdown(
        f"The {len(WAYS)} calls give **{len(groups)}** different scores. Calls that agree are "
        "grouped; for every two groups, the first step of the walkthrough at which they part, "
        "with each side's numbers at that step (the first call of a group speaks for it)."
    )
    st.table(groups_frame(groups), hide_index=True)
    if len(groups) > 1:
        st.table(partings_frame(parts), hide_index=True)


def corpus_section(tokenize: TokenizeConfig, config: BleuConfig) -> None:
    """An editable corpus: corpus BLEU from summed counts against mean sentence BLEU."""
    st.header("Corpus BLEU against the mean of sentence BLEU")
    st.markdown(
        "Corpus BLEU adds up every segment's clipped matches, n-gram totals and lengths "
        "**first**, then computes one score from the sums (sacrebleu's corpus_bleu: no "
        "effective order). The mean of sentence BLEU scores each segment alone and averages "
        "the scores, so a two-word segment weighs as much as a long one. Edit the corpus:"
    )
    start = pd.DataFrame(SAMPLE_CORPUS, columns=["hyp", "ref"])
    edited = st.data_editor(start, num_rows="dynamic", hide_index=True, key="learn_corpus")
    rows = [
        (_cell(h), _cell(r))
        for h, r in zip(edited["hyp"], edited["ref"], strict=True)
        if _cell(h).strip() or _cell(r).strip()
    ]
    if not rows:
        st.info("Add at least one row with a candidate and a reference.")
        return
    result = corpus_vs_sentence([h for h, _ in rows], [r for _, r in rows], tokenize, config)
    a, b, c = st.columns(3)
    a.metric("Corpus BLEU (summed counts)", fmt_bleu(result.corpus.score))
    b.metric("Mean of sentence BLEU", fmt_bleu(result.mean_sentence))
    c.metric("Difference", f"{result.corpus.score - result.mean_sentence:+.2f}")
    st.dataframe(
        corpus_frame(result, config.max_order),
        hide_index=True,
        column_config={"BLEU": NUMBER(format="%.2f")},
        key="learn_corpus_table",
    )
    st.caption(
        "The segment rows are sentence BLEU (sentence_bleu semantics); the last row scores "
        "the summed counts. Summing lets long segments dominate, and one segment's 4-gram "
        "matches can make up for another's none."
    )


def _fmt_delta(value: float) -> str:
    """A score difference with its sign, two decimals; 0.00 when it rounds to nothing."""
    text = f"{value:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def _cell(value: object) -> str:
    """A data-editor cell as text: new rows hold None."""
    return value if isinstance(value, str) else ""
