"""The Learn page's inputs: the example menu, the text and the settings, with their state.

Widget values are kept across page switches (Streamlit drops the state of
widgets not drawn), and the candidate and references follow the URL both ways:
a deep link ``/learn?hyp=TEXT&ref=TEXT`` is applied once, and every edit is
written back so the URL can be shared.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bleuviz.app.ui.state.learn_links import (
    LEARN_BACK,
    LEARN_LESSON,
    LEARN_LOWERCASE,
    LEARN_PART,
    LEARN_TOKENIZE,
    back_target,
    learn_params,
)
from bleuviz.app.ui.state.links import apply_links, arriving, claim, write_links
from bleuviz.app.ui.state.settings import smoothing_defaults
from bleuviz.bleu import DEFAULT_FLAVOR, DEFAULT_ORDER, FLAVORS, MAX_ORDER, BleuConfig, get_flavor
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TOKENIZERS, TokenizeConfig
from bleuviz.limits import MAX_SMOOTH_VALUE
from bleuviz.render.labels import escape_markdown as md
from bleuviz.teach.examples import EXAMPLE_BY_KEY, Example
from bleuviz.teach.lesson import Lesson

MAX_REFS = 4
REF_KEYS = tuple(f"learn_ref_{i}" for i in range(1, MAX_REFS + 1))
CUSTOM = "custom"
#: The predict-first switch, and the input (hyp, refs) whose answers were revealed.
PREDICT, REVEALED = "learn_predict", "learn_revealed"
WEIGHTINGS = {"cumulative": "Cumulative: orders 1 to N", "individual": "Individual: order N only"}
# Widget values kept across page switches (Streamlit drops the state of widgets not drawn).
KEPT = ("learn_example", "learn_hyp", *REF_KEYS, "learn_tokenize", "learn_flavor")
SMOOTHING_DEFAULTS = smoothing_defaults("learn_smooth_", "learn_value_")
KEPT += tuple(SMOOTHING_DEFAULTS)
KEPT += ("learn_max_order", "learn_weights")
KEPT += ("learn_effective_order", LEARN_LOWERCASE, PREDICT, "learn_chrf_word_order", LEARN_PART)


def examples() -> dict[str, Example]:
    """The menu's exercises: the loaded lesson's items first, then the built-in examples."""
    lesson = st.session_state.get(LEARN_LESSON)
    items = {e.key: e for e in lesson.items} if isinstance(lesson, Lesson) else {}
    return items | EXAMPLE_BY_KEY


def hidden_answers(hyp: str, refs: list[str]) -> bool:
    """Whether predict-first mode hides this input's answers (not revealed yet)."""
    return bool(st.session_state.get(PREDICT)) and (
        st.session_state.get(REVEALED) != (hyp, tuple(refs))
    )


def load_example(key: str) -> None:
    """Put an example's candidate and references into the text widgets."""
    example = examples()[key]
    st.session_state["learn_example"] = key
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
    defaults: dict[str, object] = {"learn_tokenize": DEFAULT_TOKENIZER}
    defaults["learn_flavor"] = DEFAULT_FLAVOR
    defaults["learn_max_order"] = DEFAULT_ORDER
    defaults |= SMOOTHING_DEFAULTS
    defaults |= {"learn_weights": "cumulative", "learn_effective_order": True}
    defaults[LEARN_LOWERCASE] = False
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    claim("hyp", "ref")  # the text, which save_state writes back
    if arriving() and "back" not in st.query_params:  # opened afresh: nowhere to go back to
        st.session_state.pop(LEARN_BACK, None)
    apply_links(learn_params())
    params = st.query_params
    link = (params.get("hyp"), tuple(params.get_all("ref")))
    lesson = st.session_state.get(LEARN_LESSON)
    if (link[0] is not None or link[1]) and st.session_state.get("learn_applied_link") != link:
        st.session_state["learn_applied_link"] = link
        st.session_state["learn_example"] = _example_of(link[0] or "", link[1])
        st.session_state["learn_hyp"] = link[0] or ""
        for i, ref_key in enumerate(REF_KEYS):
            st.session_state[ref_key] = link[1][i] if i < len(link[1]) else ""
        if len(link[1]) > MAX_REFS:
            held = len(link[1])
            st.warning(f"The link holds {held:d} references; the first {MAX_REFS:d} are used.")
    elif isinstance(lesson, Lesson) and arriving() and "lesson" in params:
        load_example(lesson.items[0].key)  # a class opening the teacher's link
    elif "learn_hyp" not in st.session_state:
        load_example("worked")
    if st.session_state.get("learn_example") not in (*examples(), CUSTOM):
        st.session_state["learn_example"] = CUSTOM  # a closed lesson's item


def _example_of(hyp: str, refs: tuple[str, ...]) -> str:
    """The exercise whose text a link holds (a lesson item keeps its question), or CUSTOM."""
    for key, example in examples().items():
        if example.hypothesis == hyp and example.references == refs:
            return key
    return CUSTOM


def save_state(hyp: str, refs: list[str]) -> None:
    """Remember the widgets' values and write the text into the URL."""
    st.session_state["learn_saved"] = {
        k: st.session_state[k] for k in KEPT if k in st.session_state
    }
    st.session_state["learn_applied_link"] = (hyp, tuple(refs))
    write_links(learn_params())
    if st.query_params.get("hyp") != hyp:
        st.query_params["hyp"] = hyp
    if st.query_params.get_all("ref") != refs:
        if refs:
            st.query_params["ref"] = refs
        elif "ref" in st.query_params:
            del st.query_params["ref"]


def text_inputs() -> tuple[str, list[str]]:
    """The example menu, the candidate and up to four references."""
    menu, switch = st.columns([3, 1])
    titles = {k: e.title for k, e in examples().items()} | {CUSTOM: "Your own text"}
    menu.selectbox(
        "Example or exercise",
        list(titles),
        format_func=titles.__getitem__,
        key="learn_example",
        on_change=on_example,
    )
    switch.toggle(
        "Predict first",
        key=PREDICT,
        help="Guess the counts, precisions, BP and BLEU before the steps are shown.",
    )
    example = examples().get(st.session_state["learn_example"])
    if example is not None and example.question:
        st.info(md(example.question), icon=":material/quiz:")
    hyp = st.text_area(
        "Candidate (the system's translation)", key="learn_hyp", height=68, on_change=mark_custom
    )
    left, right = st.columns(2)
    for i, ref_key in enumerate(REF_KEYS):
        column = left if i % 2 == 0 else right
        column.text_input(f"Reference {i + 1}", key=ref_key, on_change=mark_custom)
    refs = [st.session_state[k] for k in REF_KEYS if st.session_state[k].strip()]
    if example is not None and example.lesson and not hidden_answers(hyp, refs):
        st.info(md(example.lesson), icon=":material/lightbulb:")
    return hyp, refs


def controls() -> tuple[TokenizeConfig, BleuConfig]:
    """Tokenizer, flavour, smoothing, order, weights and effective order."""
    a, b, c, d = st.columns(4)
    tokenizer = a.selectbox("Tokenizer", TOKENIZERS, key=LEARN_TOKENIZE)
    name = b.selectbox("Flavour", list(FLAVORS), key="learn_flavor")
    flavor = get_flavor(name)
    smooth = c.selectbox("Smoothing", flavor.smoothing, key=f"learn_smooth_{name}")
    value = None
    if smooth in flavor.smoothing_values:
        value = d.number_input(
            "Smoothing value",
            0.0,
            float(MAX_SMOOTH_VALUE),
            step=0.1,
            key=f"learn_value_{smooth}",
        )
    e, f, g, h = st.columns([1, 2, 2, 1])
    order = int(e.number_input("Max order N", 1, MAX_ORDER, step=1, key="learn_max_order"))
    weighting = f.radio(
        "Weights",
        list(WEIGHTINGS),
        format_func=WEIGHTINGS.__getitem__,
        key="learn_weights",
        horizontal=True,
    )
    effective = flavor.effective_order and g.checkbox(
        "Effective order (sacrebleu sentence_bleu)",
        key="learn_effective_order",
        help="Average only the orders the candidate has n-grams for. corpus_bleu leaves it off.",
    )
    lowercase = h.checkbox("Lowercase", key=LEARN_LOWERCASE)
    weights = None if weighting == "cumulative" else (0.0,) * (order - 1) + (1.0,)
    config = BleuConfig(name, order, weights, smooth, value, effective)
    return TokenizeConfig(tokenizer, lowercase), config


def back_link() -> None:
    """A link back to the segment this page was opened from (``back`` in its link), if any."""
    raw = st.session_state.get(LEARN_BACK)
    if not raw:
        return
    page, query = back_target(str(raw))
    segment = dict(query).get("seg")
    where = Path(page).stem.capitalize()
    label = f"Back to segment {segment} on {where}" if segment else f"Back to {where}"
    st.page_link(page, label=label, query_params=query, icon=":material/arrow_back:")
