"""AppTest of the first look at a linked segment (``bleuviz/app/ui/frame/first_look.py``).

A new session opened by a link to one segment first draws that segment alone: its
heading, scores and highlighted lines, and one button in the sidebar (the browser's
script presses it; ``tests/e2e/test_light_pages_browser.py`` checks that). The button
draws the whole page, whose drill-down shows the same numbers and the same lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.frame.first_look import WHOLE_PAGE
from bleuviz.app.ui.sections.deferred import EVERY_PART

SENTENCES = "bleuviz/app/page_scripts/sentences.py"
OVERVIEW = "bleuviz/app/page_scripts/overview.py"
PRESS = f"{WHOLE_PAGE}_go"
#: The widget kinds the page draws; a first look draws none of them.
WIDGET_KINDS = (
    "selectbox", "radio", "number_input", "text_input", "text_area", "checkbox",
    "multiselect", "slider", "file_uploader", "download_button",
)  # fmt: skip


@pytest.fixture
def link(new_app: Callable[..., AppTest]) -> Callable[..., AppTest]:
    """Open Sentences on a link in a new session, as a browser does (no part asked for)."""

    def make(**params: str) -> AppTest:
        at = new_app()
        del at.session_state[EVERY_PART]
        at.switch_page(SENTENCES)
        for name, value in params.items():
            at.query_params[name] = value
        return at.run()

    return make


def highlights(at: AppTest) -> list[str]:
    """The highlighted lines drawn (the hypothesis and each reference), as sent."""
    return [m.value for m in at.markdown if 'class="bv-line"' in m.value]


def widgets(at: AppTest) -> dict[str, int]:
    """How many widgets of each kind the run drew (kinds with none left out)."""
    counts = {kind: len(at.get(kind)) for kind in WIDGET_KINDS}
    return {kind: n for kind, n in counts.items() if n}


def glance_scores(at: AppTest) -> list[str]:
    """The first look's sentence BLEU, brevity penalty and lengths, as shown."""
    cards = [m.value for m in at.markdown if 'class="bv-glance-value"' in m.value]
    return [re.findall(r'class="bv-glance-value">([^<]*)<', card)[0] for card in cards]


def test_a_new_session_on_a_segment_link_sees_the_segment_alone(
    link: Callable[..., AppTest],
) -> None:
    at = link(sys="terse", seg="4")
    assert not at.exception
    assert [h.value for h in at.subheader] == ["Segment 4 · document city\\-council · terse"]
    assert len(highlights(at)) == 3, "the hypothesis and both references"
    assert widgets(at) == {}
    assert not at.metric and not at.dataframe and not at.get("plotly_chart")
    assert [str(b.key) for b in at.button] == [PRESS]
    assert [str(b.key) for b in at.sidebar.button] == [PRESS], "the button is the sidebar's"
    assert not at.title, "the page's own title comes with the page"


def test_the_button_draws_the_page_with_the_same_segment_and_numbers(
    link: Callable[..., AppTest],
) -> None:
    at = link(sys="terse", seg="4")
    first_look, lines, heading = glance_scores(at), highlights(at), at.subheader[0].value
    at.button(key=PRESS).click().run()
    assert not at.exception
    assert at.title[0].value == "Sentences"
    assert heading in [h.value for h in at.subheader], "the drill-down's heading"
    assert at.selectbox(key="sent_system").value == "terse"
    assert at.number_input(key="sent_seg").value == 4
    assert at.selectbox(key="tokenize").value == "13a", "the sidebar's settings are drawn"
    shown = {m.label: m.value for m in at.metric}
    assert len(first_look) == 3 and first_look == [
        shown["Sentence BLEU"],
        shown["Brevity penalty"],
        shown["Lengths (hyp / ref)"],
    ]
    assert set(lines) <= set(highlights(at)), "the same highlighted lines"
    assert PRESS not in [str(b.key) for b in at.button]


def test_the_first_look_counts_with_the_links_settings(link: Callable[..., AppTest]) -> None:
    plain = glance_scores(link(sys="repeat", seg="7"))
    at = link(sys="repeat", seg="7", lc="1", order="2")
    lowered = glance_scores(at)
    at.button(key=PRESS).click().run()
    shown = {m.label: m.value for m in at.metric}
    assert lowered[0] == shown["Sentence BLEU"]
    assert at.number_input(key="max_order").value == 2
    assert lowered != plain, "lower case and order 2 change this segment's BLEU"


def test_a_wrong_segment_shows_no_first_look_and_the_page_says_why(
    link: Callable[..., AppTest],
) -> None:
    at = link(sys="repeat", seg="999")
    assert not at.exception
    assert not at.subheader and not highlights(at)
    assert [str(b.key) for b in at.button] == [PRESS]
    at.button(key=PRESS).click().run()
    assert len(at.warning) == 1 and "seg=999" in at.warning[0].value
    assert at.number_input(key="sent_seg").value == 1


def test_a_wrong_system_falls_back_as_the_page_does(link: Callable[..., AppTest]) -> None:
    at = link(sys="nonesuch", seg="3")
    assert [h.value for h in at.subheader] == ["Segment 3 · document city\\-council · literal"]
    at.button(key=PRESS).click().run()
    assert at.selectbox(key="sent_system").value == "literal"
    assert "sys=nonesuch" in at.warning[0].value


def test_only_a_sessions_first_run_takes_a_first_look(new_app: Callable[..., AppTest]) -> None:
    at = new_app()
    del at.session_state[EVERY_PART]
    at.switch_page(OVERVIEW).run()
    at.switch_page(SENTENCES)
    at.query_params["sys"] = "terse"
    at.query_params["seg"] = "4"
    at.run()
    assert not at.exception
    assert PRESS not in [str(b.key) for b in at.button], "the sidebar's widgets are drawn"
    assert at.number_input(key="sent_seg").value == 4 and at.selectbox(key="tokenize")


def test_without_a_segment_the_page_comes_at_once(link: Callable[..., AppTest]) -> None:
    at = link(sys="terse")
    assert PRESS not in [str(b.key) for b in at.button]
    assert at.title[0].value == "Sentences" and at.selectbox(key="tokenize")
