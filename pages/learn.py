"""Learn: BLEU step by step, with the reference implementations side by side.

Deep link: ``/learn?hyp=TEXT&ref=TEXT&ref=TEXT`` opens that candidate with those
references (up to four); the URL follows every edit, so it can be shared.
Text typed by the user is shown only through st.text, st.code, st.dataframe and
the escaped highlight HTML, never through Markdown or LaTeX.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bleuviz.bleu import DEFAULT_SMOOTHING, FLAVORS, SMOOTHING, BleuConfig
from bleuviz.errors import BleuvizError
from bleuviz.flavor_compare import (
    SAMPLE_CORPUS,
    SMOOTHINGS,
    compare_ways,
    corpus_frame,
    corpus_vs_sentence,
    degenerate_frame,
    ways_frame,
)
from bleuviz.highlight import STYLE, hypothesis_html, legend, reference_html
from bleuviz.tokenize import TOKENIZERS, TokenizeConfig
from bleuviz.walkthrough import Walkthrough, build_walkthrough
from bleuviz.walkthrough_examples import EXAMPLE_BY_KEY
from bleuviz.walkthrough_tables import (
    fmt_log,
    lengths_frame,
    ngram_frame,
    orders_frame,
    tokens_frame,
)
from pages.common import fmt_bleu, fmt_bp, require_frame

MAX_REFS = 4
REF_KEYS = tuple(f"learn_ref_{i}" for i in range(1, MAX_REFS + 1))
CUSTOM = "custom"
EXAMPLE_TITLES = {**{k: e.title for k, e in EXAMPLE_BY_KEY.items()}, CUSTOM: "Your own text"}
WEIGHTINGS = {"cumulative": "Cumulative: orders 1 to N", "individual": "Individual: order N only"}
# Widget values kept across page switches (Streamlit drops the state of widgets not drawn).
KEPT = ("learn_example", "learn_hyp", *REF_KEYS, "learn_tokenize", "learn_flavor")
KEPT += tuple(f"learn_smooth_{f}" for f in FLAVORS)
KEPT += ("learn_value_floor", "learn_value_add-k", "learn_max_order", "learn_weights")
KEPT += ("learn_effective_order",)
NUMBER = st.column_config.NumberColumn
MEAN_NOTES = {
    ("sacrebleu", True): "Effective order leaves out the orders the candidate has no n-grams "
    "for and spreads their weight over the others.",
    ("sacrebleu", False): "Without effective order every order counts: one with p = 0 makes "
    "the sum −∞ and the score 0.",
    ("nltk", False): "nltk leaves out an order whose precision is still 0 after smoothing.",
    ("tf-nmt", False): "tf-nmt sets the mean to 0 if any precision is 0.",
}
CLIP_FORMULA = (
    r"\text{Count}_{\text{clip}}(g) = "
    r"\min\big(\text{Count}(g),\ \max_{r} \text{Count}_r(g)\big)"
)
PRECISION_FORMULA = (
    r"p_n = \frac{\sum_{g} \text{Count}_{\text{clip}}(g)}{\sum_{g} \text{Count}(g)}"
    r" = \frac{m_n}{t_n}"
)


def load_example(key: str) -> None:
    """Put an example's candidate and references into the text widgets."""
    example = EXAMPLE_BY_KEY[key]
    st.session_state["learn_hyp"] = example.hypothesis
    for i, ref_key in enumerate(REF_KEYS):
        refs = example.references
        st.session_state[ref_key] = refs[i] if i < len(refs) else ""


def mark_custom() -> None:
    """Once the text is edited, it is no longer the example: hide the example's lesson."""
    st.session_state["learn_example"] = CUSTOM


def on_example() -> None:
    """Load the example picked in the menu (keep the text for "Your own text")."""
    if st.session_state["learn_example"] != CUSTOM:
        load_example(st.session_state["learn_example"])


def restore_state() -> None:
    """Set defaults, bring back values from an earlier visit, and apply a deep link once."""
    saved = st.session_state.get("learn_saved", {})
    for key, value in saved.items():
        st.session_state.setdefault(key, value)
    defaults = {"learn_tokenize": "13a", "learn_flavor": "sacrebleu", "learn_max_order": 4}
    defaults |= {f"learn_smooth_{f}": DEFAULT_SMOOTHING[f] for f in FLAVORS}
    defaults |= {"learn_value_floor": 0.1, "learn_value_add-k": 1.0}
    defaults |= {"learn_weights": "cumulative", "learn_effective_order": True}
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    params = st.query_params
    link = (params.get("hyp"), tuple(params.get_all("ref")))
    if (link[0] is not None or link[1]) and st.session_state.get("learn_applied_link") != link:
        st.session_state["learn_applied_link"] = link
        st.session_state["learn_example"] = CUSTOM
        st.session_state["learn_hyp"] = link[0] or ""
        for i, ref_key in enumerate(REF_KEYS):
            st.session_state[ref_key] = link[1][i] if i < len(link[1]) else ""
        if len(link[1]) > MAX_REFS:
            st.warning(f"The link holds {len(link[1])} references; the first {MAX_REFS} are used.")
    elif "learn_hyp" not in st.session_state:
        st.session_state["learn_example"] = "worked"
        load_example("worked")


def save_state(hyp: str, refs: list[str]) -> None:
    """Remember the widgets' values and write the text into the URL."""
    st.session_state["learn_saved"] = {
        k: st.session_state[k] for k in KEPT if k in st.session_state
    }
    st.session_state["learn_applied_link"] = (hyp, tuple(refs))
    if st.query_params.get("hyp") != hyp:
        st.query_params["hyp"] = hyp
    if st.query_params.get_all("ref") != refs:
        if refs:
            st.query_params["ref"] = refs
        elif "ref" in st.query_params:
            del st.query_params["ref"]


def text_inputs() -> tuple[str, list[str]]:
    """The example menu, the candidate and up to four references."""
    st.selectbox(
        "Example",
        list(EXAMPLE_TITLES),
        format_func=EXAMPLE_TITLES.__getitem__,
        key="learn_example",
        on_change=on_example,
    )
    example = EXAMPLE_BY_KEY.get(st.session_state["learn_example"])
    if example is not None:
        st.info(example.lesson, icon=":material/lightbulb:")
    hyp = st.text_area(
        "Candidate (the system's translation)", key="learn_hyp", height=68, on_change=mark_custom
    )
    left, right = st.columns(2)
    for i, ref_key in enumerate(REF_KEYS):
        column = left if i % 2 == 0 else right
        column.text_input(f"Reference {i + 1}", key=ref_key, on_change=mark_custom)
    refs = [st.session_state[k] for k in REF_KEYS if st.session_state[k].strip()]
    return hyp, refs


def controls() -> tuple[TokenizeConfig, BleuConfig]:
    """Tokenizer, flavour, smoothing, order, weights and effective order."""
    a, b, c, d = st.columns(4)
    tokenizer = a.selectbox("Tokenizer", TOKENIZERS, key="learn_tokenize")
    flavor = b.selectbox("Flavour", FLAVORS, key="learn_flavor")
    smooth = c.selectbox("Smoothing", SMOOTHING[flavor], key=f"learn_smooth_{flavor}")
    value = None
    if flavor == "sacrebleu" and smooth in ("floor", "add-k"):
        value = d.number_input("Smoothing value", 0.0, step=0.1, key=f"learn_value_{smooth}")
    e, f, g = st.columns([1, 2, 2])
    order = int(e.number_input("Max order N", 1, 9, step=1, key="learn_max_order"))
    weighting = f.radio(
        "Weights",
        list(WEIGHTINGS),
        format_func=WEIGHTINGS.__getitem__,
        key="learn_weights",
        horizontal=True,
    )
    effective = flavor == "sacrebleu" and g.checkbox(
        "Effective order (sacrebleu sentence_bleu)",
        key="learn_effective_order",
        help="Average only the orders the candidate has n-grams for. corpus_bleu leaves it off.",
    )
    weights = None if weighting == "cumulative" else (0.0,) * (order - 1) + (1.0,)
    config = BleuConfig(flavor, order, weights, smooth, value, effective)
    return TokenizeConfig(tokenizer), config


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
    st.html(STYLE + legend())
    expl = walk.explanation
    for n, tab in enumerate(st.tabs([f"{s.order}-grams" for s in walk.orders]), start=1):
        step = walk.orders[n - 1]
        tab.caption("Candidate")
        tab.html(hypothesis_html(expl, n))
        for r in range(len(expl.ref_tokens)):
            tab.caption(f"Reference {r + 1}: tokens the candidate matched")
            tab.html(reference_html(expl, n, r))
        tab.dataframe(ngram_frame(step), hide_index=True, key=f"learn_ngrams_{n}")
        tab.markdown(
            f"Sum of clipped counts m{_sub(n)} = **{step.matches}** of t{_sub(n)} = "
            f"**{step.totals}** candidate {n}-grams."
        )


def step_precision(walk: Walkthrough) -> None:
    """Step 3: modified precision as a fraction and a decimal."""
    st.subheader("3 · Modified precision")
    st.latex(PRECISION_FORMULA)
    if walk.config.flavor == "nltk":
        st.markdown("nltk divides by max(1, t_n): an order the candidate is too short for is 0/1.")
    frame = orders_frame(walk)[["n", "m_n", "t_n", "p_n (fraction)", "p_n"]]
    st.dataframe(frame, hide_index=True, key="learn_precision")


def step_smoothing(walk: Walkthrough) -> None:
    """Step 4: which smoothing, why it exists, and what it changed."""
    st.subheader("4 · Smoothing")
    smoothing = SMOOTHINGS[(walk.config.flavor, walk.config.smoothing)]
    st.markdown(f"**{walk.config.flavor}, {walk.config.smoothing}.** {smoothing.why}")
    st.latex(smoothing.latex)
    frame = orders_frame(walk)[["n", "p_n (fraction)", "p_n", "smoothed p_n", "what smoothing did"]]
    st.dataframe(frame, hide_index=True, key="learn_smoothing")


def step_mean(walk: Walkthrough) -> None:
    """Step 5: the weighted geometric mean, term by term in log space."""
    st.subheader("5 · Weighted geometric mean, in log space")
    st.latex(r"\bar{p} = \exp\Big(\sum_{n=1}^{N} w_n \log p_n\Big)")
    frame = orders_frame(walk)[["n", "w_n", "smoothed p_n", "log p_n", "w_n · log p_n"]]
    st.dataframe(frame, hide_index=True, key="learn_mean")
    st.caption(MEAN_NOTES[(walk.config.flavor, walk.config.effective_order)])
    st.markdown(
        f"Σ wₙ·log pₙ = **{fmt_log(walk.log_sum)}**, so p̄ = exp(Σ) = **{walk.geometric_mean:.4f}**."
    )


def step_lengths(walk: Walkthrough) -> None:
    """Step 6: c, every reference length, and which one the flavour takes as r."""
    st.subheader("6 · Candidate length c and reference length r")
    if walk.config.flavor == "tf-nmt":
        st.latex(r"r = \min_i\, r_i")
    else:
        st.latex(r"r = \operatorname{arg\,min}_{r_i} \big(|r_i - c|,\ r_i\big)")
    st.dataframe(lengths_frame(walk.lengths), hide_index=True, key="learn_lengths")
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
        st.info(walk.zero_rule, icon=":material/info:")
    elif walk.caveat:
        st.warning(walk.caveat, icon=":material/warning:")
    else:
        st.markdown(
            f"100 × {fmt_bp(walk.bp)} × {walk.geometric_mean:.4f} = **{fmt_bleu(walk.score)}**"
        )
    core = walk.core
    a, b, c = st.columns(3)
    a.metric("BLEU", fmt_bleu(core.score), help="the core's corpus_score of this one segment")
    b.metric("Brevity penalty", fmt_bp(core.bp))
    c.metric("c / r", f"{core.hyp_len} / {core.ref_len}")
    st.code(core.format(), language=None)
    st.caption("Signature")
    st.code(core.signature, language=None)


def five_ways(hyp: str, refs: list[str], tokenize: TokenizeConfig) -> None:
    """The same input scored the way each library scores it, and why the scores differ."""
    st.header("Five ways to score the same input")
    st.markdown(
        "The candidate and references above, tokenized with the page's tokenizer, scored as "
        "each library scores them by default (4-grams, uniform weights). "
        "The default is sacrebleu's **sentence_bleu**; each row says in one sentence "
        "why it can differ."
    )
    results = compare_ways(hyp, refs, tokenize)
    # st.table wraps the sentences and renders Markdown: these tables hold no user text.
    ways = ways_frame(results)
    ways["BLEU"] = ways["BLEU"].map(fmt_bleu)
    ways["BP"] = ways["BP"].map(fmt_bp)
    ways["vs default"] = ways["vs default"].map(_fmt_delta)
    st.table(ways, hide_index=True)
    st.subheader("Degenerate input")
    st.markdown(
        "What bleuviz reports for an **empty candidate** (with the references above) and an "
        "**empty reference** (with the candidate above), and what each library itself does."
    )
    degenerate = degenerate_frame(results)
    for column in ("empty candidate", "empty reference"):
        degenerate[column] = degenerate[column].map(fmt_bleu)
    st.table(degenerate, hide_index=True)


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


def _sub(n: int) -> str:
    """n as a subscript."""
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


require_frame()
st.title("Learn BLEU step by step")
st.caption(
    "Type a candidate and up to four references, or pick an example. This page has its "
    "own settings below; the sidebar's settings apply to the test-set pages."
)
restore_state()
with st.container(border=True):
    hyp, refs = text_inputs()
with st.container(border=True):
    tokenize, config = controls()
save_state(hyp, refs)
if not refs:
    st.info("No reference given: the steps score the candidate against an empty reference.")
scored_refs = refs or [""]
try:
    walk = build_walkthrough(hyp, scored_refs, tokenize, config)
except BleuvizError as exc:
    st.error(str(exc), icon=":material/error:")
    st.stop()
step_tokens(walk)
step_ngrams(walk)
step_precision(walk)
step_smoothing(walk)
step_mean(walk)
step_lengths(walk)
step_brevity(walk)
step_score(walk)
five_ways(hyp, scored_refs, tokenize)
corpus_section(tokenize, config)
