"""chrF and TER step by step on the Learn page's input.

Every number comes from ``bleuviz.teach.chrf_steps`` and ``bleuviz.teach.ter_steps``
(the metrics' own replicas); the typed words reach the page only through
st.dataframe and the escaped HTML of ``bleuviz.teach.metric_tables``.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache import learn as cached
from bleuviz.app.ui.widgets.format import fmt_bleu
from bleuviz.app.ui.widgets.markup import show_html
from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.metrics.chrf_signature import chrf_signature
from bleuviz.metrics.ter_config import TerConfig
from bleuviz.render.labels import code_span
from bleuviz.teach.metric_tables import (
    chrf_frame,
    edit_script_html,
    shift_html,
    ter_counts_frame,
)

CHRF_VARIANTS = {0: "chrF (characters, orders 1–6)", 2: "chrF++ (and words, orders 1–2)"}
F_FORMULA = (
    r"\text{chrF}_\beta = 100 \cdot \frac{(1+\beta^2)\,\bar{P}\,\bar{R}}"
    r"{\beta^2\,\bar{P} + \bar{R}}"
)
TER_FORMULA = r"\text{TER} = 100 \cdot \frac{\text{shifts} + \text{edits}}{\bar{r}}"


def chrf_section(hyp: str, refs: list[str], lowercase: bool) -> None:
    """chrF's n-gram counts per order, the averages and the F-score."""
    st.header("chrF step by step")
    st.markdown(
        "chrF counts **character** n-grams (spaces removed) of orders 1 to 6, and chrF++ "
        "also **word** 1- and 2-grams. For each order, precision = matches / candidate "
        "n-grams and recall = matches / reference n-grams; orders where a side has no "
        "n-gram are left out. The averages P̄ and R̄ give F with β = 2: recall weighs "
        "twice as much as precision. With several references the best F counts. "
        "(sacrebleu counts the candidate's n-grams of an order only when the reference has "
        "some, so such an order shows 0 in both.)"
    )
    words = int(
        st.radio(
            "Variant",
            list(CHRF_VARIANTS),
            format_func=CHRF_VARIANTS.__getitem__,
            horizontal=True,
            key="learn_chrf_word_order",
        )
    )
    config = ChrfConfig(word_order=words, lowercase=lowercase)
    walk = cached.chrf(hyp, tuple(refs), config)
    st.latex(F_FORMULA)
    for i, ref in enumerate(walk.references):
        chosen = " (the best: this one counts)" if i == walk.best else ""
        st.caption(f"Reference {i + 1}: F = {fmt_bleu(ref.score)}{chosen}")
        st.dataframe(chrf_frame(ref), hide_index=True, key=f"learn_chrf_table_{i + 1}")
    best = walk.references[walk.best]
    p, r = best.avg_precision, best.avg_recall
    st.markdown(
        f"P̄ = **{p:.4f}**, R̄ = **{r:.4f}**, so {config.name} = 100 × 5 × P̄ × R̄ / "
        f"(4 × P̄ + R̄) = **{fmt_bleu(walk.score)}**."
        if config.beta == 2
        else f"{config.name} = **{fmt_bleu(walk.score)}**."
    )
    st.metric(config.name, fmt_bleu(walk.score), help="sacrebleu's CHRF sentence score")
    # A caption, not show_signature: the page's one code signature is BLEU's.
    st.caption("Signature: " + code_span(chrf_signature(config, len(refs))))


def ter_section(hyp: str, refs: list[str]) -> None:
    """TER's words, shifts, edit script and rate against the best reference."""
    st.header("TER step by step")
    st.markdown(
        "TER counts the edits that turn the candidate into a reference: first **shifts** "
        "(moving a run of words, one edit each, while a shift lowers the edit distance), "
        "then **substitutions**, **deletions** and **insertions** of single words. "
        "The fewest edits over the references, divided by the average reference length. "
        "sacrebleu's defaults: case-insensitive, tercom tokenization, punctuation kept."
    )
    st.latex(TER_FORMULA)
    walk = cached.ter(hyp, tuple(refs), TerConfig())
    st.dataframe(ter_counts_frame(walk.references, walk.best), hide_index=True, key="learn_ter")
    best = walk.references[walk.best]
    st.caption(f"Reference {walk.best + 1}, the fewest edits: the shifts, then the word edits")
    for number, shift in enumerate(best.shifts, start=1):
        show_html(shift_html(shift, number))
    show_html(edit_script_html(best))
    st.caption(
        "Signs as well as colour: −word deleted, +word inserted, old → new substituted, ↷ shifted."
    )
    st.markdown(
        f"TER = 100 × {walk.edits} / {walk.avg_ref_len:g} = **{fmt_bleu(walk.score)}** "
        "(lower is better)."
    )
    st.metric("TER", fmt_bleu(walk.score), help="sacrebleu's TER sentence score")
