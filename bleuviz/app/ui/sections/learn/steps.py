"""The Learn page's eight steps of BLEU for one candidate, drawn from a ``Walkthrough``.

Each step is a heading, its formula, the table of its numbers and a line of
prose; every number comes from ``bleuviz.teach.walkthrough`` and its tables. As on
the whole page, text typed by the user never goes through Markdown or LaTeX: the
tokens and n-grams are in st.dataframe, and the tables of numbers and bleuviz's
own words are st.table (plain HTML, lighter for a class's browsers than a grid,
and wrapping instead of cutting at 1280 px; it renders Markdown, so it holds no
user text).
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.widgets.format import fmt_bleu, fmt_bp
from bleuviz.app.ui.widgets.markup import show_html, show_signature
from bleuviz.render.highlight import hypothesis_html, legend, reference_html
from bleuviz.render.labels import escape_markdown as md
from bleuviz.teach.ideas import signature_frame
from bleuviz.teach.rules import mean_note
from bleuviz.teach.smoothing import SMOOTHINGS
from bleuviz.teach.tables import (
    fmt_log,
    lengths_frame,
    ngram_frame,
    orders_frame,
    tokens_frame,
)
from bleuviz.teach.walkthrough import Walkthrough

CLIP_FORMULA = (
    r"\text{Count}_{\text{clip}}(g) = "
    r"\min\big(\text{Count}(g),\ \max_{r} \text{Count}_r(g)\big)"
)
PRECISION_FORMULA = (
    r"p_n = \frac{\sum_{g} \text{Count}_{\text{clip}}(g)}{\sum_{g} \text{Count}(g)}"
    r" = \frac{m_n}{t_n}"
)


def step_tokens(walk: Walkthrough) -> None:
    """Step 1: the tokens BLEU counts, after sacrebleu's tokenizer."""
    st.subheader("1 · Tokens")
    st.markdown(
        "BLEU counts tokens. sacrebleu's tokenizer splits punctuation off words "
        "(13a); the candidate's length **c** and each reference length **r** are token counts."
    )
    st.dataframe(tokens_frame(walk.explanation), hide_index=True, key="learn_tokens")


def step_ngrams(walk: Walkthrough) -> None:
    """Step 2: per order, the highlighted text and the table of clipped n-gram counts."""
    st.subheader("2 · Clipped n-gram counts")
    st.markdown(
        "Each candidate n-gram is credited at most as often as it occurs in **one** "
        "reference, the one that holds it most often. Extra copies are *clipped*."
    )
    st.latex(CLIP_FORMULA)
    show_html(legend())
    expl = walk.explanation
    # One order at a time: only the chosen tab is drawn (a class's browsers draw less).
    tabs = st.tabs(
        [f"{s.order}-grams" for s in walk.orders], key="learn_ngram_order", on_change="rerun"
    )
    for n, tab in enumerate(tabs, start=1):
        if not tab.open:
            continue
        step = walk.orders[n - 1]
        tab.caption("Candidate")
        show_html(hypothesis_html(expl, n), tab)
        for r in range(len(expl.ref_tokens)):
            tab.caption(f"Reference {r + 1}: tokens the candidate matched")
            show_html(reference_html(expl, n, r), tab)
        tab.dataframe(ngram_frame(step), hide_index=True, key=f"learn_ngrams_{n}")
        tab.markdown(
            f"Sum of clipped counts m{_sub(n)} = **{step.matches}** of t{_sub(n)} = "
            f"**{step.totals}** candidate {n}-grams."
        )


def step_precision(walk: Walkthrough) -> None:
    """Step 3: modified precision as a fraction and a decimal."""
    st.subheader("3 · Modified precision")
    st.latex(PRECISION_FORMULA)
    if walk.config.flavor_spec.floor_totals:
        st.markdown("nltk divides by max(1, t_n): an order the candidate is too short for is 0/1.")
    st.table(orders_frame(walk)[["n", "m_n", "t_n", "p_n (fraction)", "p_n"]], hide_index=True)


def step_smoothing(walk: Walkthrough) -> None:
    """Step 4: which smoothing, why it exists, and what it changed."""
    st.subheader("4 · Smoothing")
    smoothing = SMOOTHINGS[(walk.config.flavor, walk.config.smoothing)]
    st.markdown(f"**{walk.config.flavor}, {walk.config.smoothing}.** {smoothing.why}")
    st.latex(smoothing.latex)
    frame = orders_frame(walk)[
        ["n", "p_n (fraction)", "p_n", "smoothed p_n", "what smoothing did"]
    ].copy()
    # A table, not st.dataframe: a grid cell shows one line and cut the notes at 1280 px;
    # a table wraps them. It renders Markdown, so its text (bleuviz's own) is escaped.
    frame["what smoothing did"] = frame["what smoothing did"].map(md)
    st.table(frame, hide_index=True)


def step_mean(walk: Walkthrough) -> None:
    """Step 5: the weighted geometric mean, term by term in log space."""
    st.subheader("5 · Weighted geometric mean, in log space")
    st.latex(r"\bar{p} = \exp\Big(\sum_{n=1}^{N} w_n \log p_n\Big)")
    frame = orders_frame(walk)[["n", "w_n", "smoothed p_n", "log p_n", "w_n · log p_n"]]
    st.table(frame, hide_index=True)
    st.caption(mean_note(walk.config))
    st.markdown(
        f"Σ wₙ·log pₙ = **{fmt_log(walk.log_sum)}**, so p̄ = exp(Σ) = **{walk.geometric_mean:.4f}**."
    )


def step_lengths(walk: Walkthrough) -> None:
    """Step 6: c, every reference length, and which one the flavour takes as r."""
    st.subheader("6 · Candidate length c and reference length r")
    if walk.config.flavor_spec.brevity_reference == "shortest":
        st.latex(r"r = \min_i\, r_i")
    else:
        st.latex(r"r = \operatorname{arg\,min}_{r_i} \big(|r_i - c|,\ r_i\big)")
    st.table(lengths_frame(walk.lengths), hide_index=True)
    st.markdown(walk.lengths.rule)


def step_brevity(walk: Walkthrough) -> None:
    """Step 7: the brevity penalty from c and r."""
    st.subheader("7 · Brevity penalty")
    st.latex(r"\text{BP} = \begin{cases} 1 & c > r \\ e^{\,1 - r/c} & c \le r \end{cases}")
    st.markdown(f"{walk.bp_rule} BP = **{fmt_bp(walk.bp)}**.")


def step_score(walk: Walkthrough) -> None:
    """Step 8: the product, next to the core's score, BP and signature."""
    st.subheader("8 · BLEU")
    st.latex(r"\text{BLEU} = 100 \cdot \text{BP} \cdot \exp\Big(\sum_{n=1}^{N} w_n \log p_n\Big)")
    if walk.zero_rule:
        st.info(md(walk.zero_rule), icon=":material/info:")
    elif walk.caveat:
        st.warning(md(walk.caveat), icon=":material/warning:")
    else:
        st.markdown(
            f"100 × {fmt_bp(walk.bp)} × {walk.geometric_mean:.4f} = **{fmt_bleu(walk.score)}**"
        )
    core = walk.core
    a, b, c = st.columns(3)
    a.metric("BLEU", fmt_bleu(core.score), help="the core's corpus_score of this one segment")
    b.metric("Brevity penalty", fmt_bp(core.bp))
    c.metric("c / r", f"{core.hyp_len} / {core.ref_len}")
    # As code through Markdown, not st.code: its syntax highlighter (1.5 MB) would load for
    # two lines of plain text (``widgets/markup.py``).
    show_signature(core.format())
    left, right = st.columns([2, 3])
    left.caption("Signature")
    show_signature(core.signature, left)
    right.caption("What each field of the signature means")
    right.table(signature_frame(core.signature), hide_index=True)


def _sub(n: int) -> str:
    """n as a subscript."""
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
