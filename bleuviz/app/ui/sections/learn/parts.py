"""The Learn page's parts as tabs, of which only the one on show is computed and drawn.

A student opening a lesson link sees the BLEU steps; the libraries, tokenizers,
chrF, TER and corpus parts run when their tab is chosen. That keeps the first
view light for a class opening one link at once (``benchmarks/bench_learn.py``).
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bleuviz.app.ui.state.learn_links import LEARN_PART, LEARN_PARTS


def learn_part() -> tuple[str, DeltaGenerator]:
    """Draw the tabs; return the part on show (its ``part`` name) and its tab to draw in."""
    st.caption(
        "The same input in six parts: BLEU step by step, every library's score and why they "
        "differ, the tokenizers, chrF, TER, and corpus against sentence BLEU. Each part is "
        "computed when its tab is opened; the address names the open part, to share it."
    )
    tabs = st.tabs(list(LEARN_PARTS.values()), key=LEARN_PART, on_change="rerun")
    for part, tab in zip(LEARN_PARTS, tabs, strict=True):
        if tab.open:
            return part, tab
    return next(iter(LEARN_PARTS)), tabs[0]  # Streamlit tracks the tab: not reached
