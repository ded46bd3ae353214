"""A segment table's numbers are buttons that open their segment, and its first column marks
the open one (issue 35: a click opens a row within 0.3 s, which a tick box cannot: Streamlit
sends a table's selection 150 ms late)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import NGRAMS, SEGMENTS, SENTENCES, VIEW_KEY
from tests.app.compare_tabs import open_view
from tests.app.segment_buttons import (
    button_table,
    marked_segments,
    press_cell_button,
    press_segment,
    segment_table,
)


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    return new_app()


def shown_segments(app: AppTest, table_key: str) -> list[int]:
    """The segment numbers of the table's rows, in its order."""
    return [int(s) for s in segment_table(app, table_key).value["seg"]]


def test_pressing_a_number_opens_its_segment_and_marks_its_row(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["sys"] = "terse"
    app.run()
    app.text_input(key="sent_search").set_value("euros").run()
    shown = shown_segments(app, "sent_table")
    assert len(shown) > 2 and shown[1] != 2  # the row is not the segment's number
    press_segment(app, "sent_table", 1)
    assert not app.exception
    assert app.number_input(key="sent_seg").value == shown[1]
    assert marked_segments(app, "sent_table") == [shown[1]]
    assert any(h.value.startswith(f"Segment {shown[1]} ·") for h in app.subheader)
    assert app.query_params["seg"] == str(shown[1])  # the link follows


def test_a_press_on_a_row_the_table_lacks_changes_nothing(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["seg"] = "7"
    app.run()
    press_segment(app, "sent_table", len(shown_segments(app, "sent_table")))
    assert not app.exception
    assert app.number_input(key="sent_seg").value == 7


def test_compare_segments_numbers_open_their_segment(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/compare.py")
    app.run()
    open_view(app, SEGMENTS)
    shown = shown_segments(app, "cmp_table")
    press_segment(app, "cmp_table", 3)
    assert not app.exception
    assert app.number_input(key="cmp_seg").value == shown[3]
    assert marked_segments(app, "cmp_table") == [shown[3]]


def test_a_disagreements_number_opens_it_in_the_segments_tab(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/compare.py")
    app.session_state["metrics"] = ["chrF"]
    app.run()
    open_view(app, SENTENCES)
    found = shown_segments(app, "cmp_disagree_table")
    assert len(found) > 2
    press_segment(app, "cmp_disagree_table", 2)
    assert not app.exception
    assert app.session_state[VIEW_KEY] == SEGMENTS.label
    assert app.number_input(key="cmp_seg").value == found[2]
    assert marked_segments(app, "cmp_table") == [found[2]]
    open_view(app, SENTENCES)
    assert marked_segments(app, "cmp_disagree_table") == [found[2]]


@pytest.mark.parametrize("role", ["a", "b"])
def test_clicking_a_salient_ngram_chooses_it(app: AppTest, role: str) -> None:
    app.switch_page("bleuviz/app/page_scripts/compare.py")
    app.run()
    open_view(app, NGRAMS)
    table = button_table(app, "n-gram", f"cmp_salient_{role}_pick")
    ngrams = table.value["n-gram"].tolist()
    assert len(ngrams) > 2
    press_cell_button(app, table, "n-gram", 2)
    assert not app.exception
    assert app.selectbox(key="cmp_salient").value == ngrams[2]
    a_matches = int(table.value["a"].iloc[2])
    assert any(f"matches it {a_matches} times" in m.value for m in app.markdown)
    press_cell_button(app, button_table(app, "n-gram", f"cmp_salient_{role}_pick"), "n-gram", 99)
    assert app.selectbox(key="cmp_salient").value == ngrams[2]  # a row the table lacks: no change
