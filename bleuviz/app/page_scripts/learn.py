"""Learn: BLEU step by step, with the reference implementations side by side.

Deep link: ``/learn?hyp=TEXT&ref=TEXT&ref=TEXT`` opens that candidate with those
references (up to four); ``tok`` and ``lc`` set the tokenizer and case, ``back``
(a segment page's address) draws a link back to the segment the text came from,
``lesson`` carries a teacher's lesson (its items head the example menu), and
``part`` names the tab on show (``bleuviz.app.ui.state.learn_links.LEARN_PARTS``).
The page holds no workspace and no evaluation: everything is computed from the
typed text, so a class of students opening one lesson link stays light.
The URL follows every edit, so it can be shared.
Text typed by the user is shown only through st.text, st.dataframe and
the escaped highlight HTML, never through Markdown or LaTeX.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache import learn as cached
from bleuviz.app.ui.sections.learn.comparisons import corpus_section, library_calls
from bleuviz.app.ui.sections.learn.exercises import lesson_loader, predict_section
from bleuviz.app.ui.sections.learn.ideas import recall_section, tokenizers_section
from bleuviz.app.ui.sections.learn.inputs import (
    back_link,
    controls,
    restore_state,
    save_state,
    text_inputs,
)
from bleuviz.app.ui.sections.learn.other_metrics import chrf_section, ter_section
from bleuviz.app.ui.sections.learn.parts import learn_part
from bleuviz.app.ui.sections.learn.steps import (
    step_brevity,
    step_lengths,
    step_mean,
    step_ngrams,
    step_precision,
    step_score,
    step_smoothing,
    step_tokens,
)
from bleuviz.errors import BleuvizError
from bleuviz.render.labels import escape_markdown as md

st.title("Learn BLEU step by step")
st.caption(
    "Type a candidate and up to four references, or pick an example: BLEU, then chrF and "
    "TER, step by step. This page has one "
    "set of settings, its own, below; the sidebar's BLEU settings belong to the test-set "
    "pages and are hidden here (they keep their values)."
)
restore_state()
back_link()
lesson_loader()
with st.container(border=True):
    hyp, refs = text_inputs()
with st.container(border=True):
    tokenize, config = controls()
save_state(hyp, refs)
if not refs:
    st.info("No reference given: the steps score the candidate against an empty reference.")
scored_refs = refs or [""]
try:
    walk = cached.walkthrough(hyp, tuple(scored_refs), tokenize, config)
except BleuvizError as exc:
    st.error(md(str(exc)), icon=":material/error:")
    st.stop()
if predict_section(walk, hyp, refs):  # predict first: the parts wait for Reveal
    part, tab = learn_part()  # only the part on show is computed
    with tab:
        match part:
            case "steps":
                step_tokens(walk)
                step_ngrams(walk)
                step_precision(walk)
                step_smoothing(walk)
                step_mean(walk)
                step_lengths(walk)
                step_brevity(walk)
                step_score(walk)
                recall_section(walk)
            case "libraries":
                library_calls(hyp, scored_refs, tokenize)
            case "tokenizers":
                tokenizers_section(hyp, scored_refs, tokenize, config)
            case "chrf":
                chrf_section(hyp, scored_refs, tokenize.lowercase)
            case "ter":
                ter_section(hyp, scored_refs)
            case "corpus":
                corpus_section(tokenize, config)
