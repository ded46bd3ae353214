"""AppTest of the parts drawn after a page's answer (``ui/sections/deferred.py``).

A page's first run sends its answer and, in place of each deferred part, the part's
button; the button (which the browser's script presses, ``tests/e2e`` checks that)
draws the part. The charts then equal the ones the page drew before the deferral:
same keys, same figures from the same builders.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.frame.first_look import WHOLE_PAGE
from bleuviz.app.ui.sections.deferred import EVERY_PART, wanted_key
from tests.app.segment_buttons import has_segment_table

OVERVIEW = "bleuviz/app/page_scripts/overview.py"
COMPARE = "bleuviz/app/page_scripts/compare.py"
SENTENCES = "bleuviz/app/page_scripts/sentences.py"


def plotly_keys(at: AppTest) -> list[str]:
    """The ids of the Plotly charts the run sent (their keys are part of them)."""
    return [str(chart.proto.id) for chart in at.get("plotly_chart")]


def buttons(at: AppTest) -> list[str]:
    """The keys of the buttons the run drew."""
    return [str(b.key) for b in at.button]


@pytest.fixture
def first_run(new_app: Callable[..., AppTest]) -> Callable[[str], AppTest]:
    """Open a page as a browser's first run does: no part asked for yet."""

    def make(page: str) -> AppTest:
        at = new_app()
        del at.session_state[EVERY_PART]
        at.switch_page(page)
        return at

    return make


def test_overview_sends_no_chart_before_its_answer(first_run: Callable[[str], AppTest]) -> None:
    at = first_run(OVERVIEW).run()
    assert not at.exception
    assert len(at.metric) == 3 and at.table, "the answer: a card per system and the table"
    assert not at.get("plotly_chart") and not at.dataframe
    assert {"ov_charts_go", "ov_docs_go"} <= set(buttons(at))
    at.button(key="ov_charts_go").click().run()
    charts = plotly_keys(at)
    assert any("ov_precision_chart" in c for c in charts)
    assert any("ov_sentence_boxes" in c for c in charts)
    assert at.session_state[wanted_key("ov_charts")]
    # The documents part was not pressed, but the page is on screen now: drawn directly.
    assert any("ov_doc_chart" in c for c in charts) and at.dataframe
    assert not {"ov_charts_go", "ov_docs_go"} & set(buttons(at))


def test_a_page_visited_again_draws_what_was_asked_for(
    first_run: Callable[[str], AppTest],
) -> None:
    at = first_run(OVERVIEW).run()
    at.button(key="ov_charts_go").click().run()
    at.switch_page(COMPARE).run()
    at.switch_page(OVERVIEW).run()
    assert not at.exception
    charts = plotly_keys(at)
    assert any("ov_precision_chart" in c for c in charts), "asked for: with the answer"
    assert not any("ov_doc_chart" in c for c in charts), "never asked for: deferred again"
    assert "ov_docs_go" in buttons(at)


def test_a_link_to_compares_sentence_tab_sends_the_verdict_first(
    first_run: Callable[[str], AppTest],
) -> None:
    at = first_run(COMPARE)
    at.query_params["view"] = "sentences"
    at.run()
    assert not at.exception
    assert any(m.label.startswith("p-value") for m in at.metric)
    assert not at.get("plotly_chart") and "cmp_plots_go" in buttons(at)
    at.button(key="cmp_plots_go").click().run()
    charts = plotly_keys(at)
    assert [k for k in ("cmp_scatter", "cmp_hist", "cmp_wtl") if any(k in c for c in charts)] == [
        "cmp_scatter",
        "cmp_hist",
        "cmp_wtl",
    ]


def test_the_reserved_room_and_the_script_name_the_button(
    first_run: Callable[[str], AppTest],
) -> None:
    at = first_run(OVERVIEW).run()
    html = [h.proto.body for h in at.get("html")]
    script = next(body for body in html if "ov_charts_go" in body)
    assert json.dumps(".st-key-ov_charts_go button") in script
    assert 'style="height:' in script


def linked_segment(first_run: Callable[[str], AppTest], system: str, seg: int) -> AppTest:
    """Sentences opened by a link to one segment, past its first look (test_first_look.py)."""
    at = first_run(SENTENCES)
    at.query_params["sys"] = system
    at.query_params["seg"] = str(seg)
    at.run()
    return at.button(key=f"{WHOLE_PAGE}_go").click().run()


def test_a_link_to_one_segment_sends_its_drill_down_before_the_table(
    first_run: Callable[[str], AppTest],
) -> None:
    at = linked_segment(first_run, "terse", 4)
    assert not at.exception
    assert any(
        h.value.startswith("Segment 4 ") and h.value.endswith(" · terse") for h in at.subheader
    )
    assert not has_segment_table(at, "sent_table"), "the table waits for the answer"
    assert not [b for b in at.get("download_button")], "so do its downloads"
    assert not at.dataframe, "nor the n-gram table: no data frame before the answer"
    assert {"sent_table_part_go", "sent_ngrams_part_go", "sent_every_part_go"} <= set(buttons(at))
    at.button(key="sent_table_part_go").click().run()
    assert not at.exception
    assert has_segment_table(at, "sent_table")
    assert len(at.dataframe) == 2, "the table and the n-gram table"
    assert len(at.get("download_button")) >= 6
    assert not {"sent_table_part_go", "sent_ngrams_part_go", "sent_every_part_go"} & set(
        buttons(at)
    )
    # The linked segment stays open once the table is drawn above it.
    assert at.number_input(key="sent_seg").value == 4


def table_scrolls(at: AppTest) -> bool:
    """Whether the run sent the script that scrolls the segment table to a row."""
    grid = json.dumps(".st-key-sent_table .dvn-scroller")
    return any(grid in h.proto.body for h in at.get("html"))


def test_the_table_scrolls_to_the_linked_row_on_every_run_until_another_opens(
    first_run: Callable[[str], AppTest],
) -> None:
    # The page's parts arrive in runs of their own, and a run that the next one stops sends
    # nothing after the stop: a script sent by one run only could be lost (the browser runs
    # it once either way, and again only if its text changes).
    at = linked_segment(first_run, "terse", 4)
    assert not table_scrolls(at), "no table yet"
    at.button(key="sent_table_part_go").click().run()
    assert table_scrolls(at)
    at.run()
    assert not at.exception
    assert table_scrolls(at), "sent again while segment 4 is open"
    at.number_input(key="sent_seg").set_value(6).run()
    assert not at.exception
    assert not table_scrolls(at), "another segment is open: the link is done"
    at.number_input(key="sent_seg").set_value(4).run()
    assert not table_scrolls(at), "nor when the linked one is opened again"


def test_the_table_is_the_answer_without_a_linked_segment(
    first_run: Callable[[str], AppTest],
) -> None:
    at = first_run(SENTENCES).run()
    assert not at.exception
    assert has_segment_table(at, "sent_table")
    assert "sent_table_part_go" not in buttons(at)
