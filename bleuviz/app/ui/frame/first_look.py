"""A first look at a linked segment: a new session shows the segment before anything else.

A link to one segment opened in a new browser session is the answer to one question,
and chromium compiles the code of every kind of widget a page holds before it has
drawn much of it: measured on WMT17 en-de (3,004 x 9) with 16 sessions opening the
same link at once, the page with its sidebar and widgets took 1.6-2.1 times what a
page holding only the segment's heading and line took in the same run
(``benchmarks/bench_load.py --floor``), and the same page without its sidebar, with
every widget of the drill-down, still 1.6-1.7 times. So the session's first run draws the
segment's heading, scores and highlighted lines alone (no widget, no chart: the browser
code it needs is the floor page's), below an empty container that is the page's place;
the frame puts one button in the sidebar, "Show the settings", which the page presses
once the segment is drawn. That run draws the whole page as any first visit does, in
its place above the first look, which stays on screen until the run ends and then goes;
the page keeps the segment's heading in view while its parts arrive. With the first look,
the same load takes 1.1-1.3 times the one-line page (four runs, cold and warm).

Only a session's first run takes this path: later runs hold widgets whose values
Streamlit would forget if a run left them out. Without the page's script the button
works as any button: the page is one click away.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache.data import current_data
from bleuviz.app.ui.sections.deferred import EVERY_PART, press_soon
from bleuviz.app.ui.sections.segment_view import segment_glance
from bleuviz.app.ui.state.links import apply_links
from bleuviz.app.ui.state.page_links import document_choices, longest_hypothesis, sentence_links

#: The part the sidebar's button asks for: the frame and the page, after the first look.
WHOLE_PAGE = "frame_whole_page"


def first_look_wanted(session_starting: bool) -> bool:
    """Whether this run draws a first look: a new session's first, on a link to one segment.

    An AppTest (``EVERY_PART``) gets the whole page at once, as it gets every part.
    """
    return session_starting and "seg" in st.query_params and not st.session_state.get(EVERY_PART)


def ask_for_the_page() -> None:
    """The sidebar's button that draws the frame and the page; pressed once this run is shown."""
    press_soon(
        WHOLE_PAGE,
        "Show the settings",
        "The settings and the rest of the page: drawn as soon as the segment is shown.",
        where=st.sidebar,
        icon=":material/tune:",
    )


def sentences_first_look() -> None:
    """The Sentences page's first look: the linked system's segment, as the link names it.

    The link's values are applied as the page applies them (the page applies them again
    on its own first run, which this is not); a segment the link names wrongly draws
    nothing here, and the page says what is wrong.
    """
    evaluation = current_data()
    testset = evaluation.testset
    systems = list(testset.systems)
    longest, documents = longest_hypothesis(evaluation), document_choices(testset)
    apply_links(sentence_links(systems, testset.n_segments, longest, documents))
    state = st.session_state
    if "sent_seg" not in state:
        return
    system = str(state.get("sent_system", systems[0]))
    segment_glance(evaluation, system, int(state["sent_seg"]) - 1, "sent")
