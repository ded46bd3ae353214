"""A long segment table sends one page of rows: the page of the open segment, or the one picked."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def window_app(n_rows: int, open_segment: int) -> None:
    """A table of ``n_rows`` segments (sorted by descending number) and its window."""
    import pandas as pd
    import streamlit as st

    from bleuviz.app.ui.widgets.table_window import table_window

    shown = pd.DataFrame({"seg": range(n_rows, 0, -1)})
    st.session_state.setdefault("seg", open_segment)
    page = table_window(shown, st.session_state["seg"], "rows")
    st.write(f"first {page['seg'].iloc[0]} last {page['seg'].iloc[-1]} count {len(page)}")


def shown(at: AppTest) -> str:
    return str(at.markdown[-1].value)


def test_a_short_table_is_sent_whole_without_a_picker() -> None:
    at = AppTest.from_function(window_app, args=(1000, 5)).run()
    assert not at.exception
    assert shown(at) == "first 1000 last 1 count 1000"
    assert not at.selectbox


def test_the_window_holds_the_open_segment_and_follows_it() -> None:
    # 2,500 rows in descending order: segment 1,200 is row 1,301, on the second page.
    at = AppTest.from_function(window_app, args=(2500, 1200)).run()
    assert shown(at) == "first 1500 last 501 count 1000"
    assert at.selectbox(key="rows").options == [
        "rows 1–1,000",
        "rows 1,001–2,000",
        "rows 2,001–2,500",
    ]
    at.selectbox(key="rows").set_value("rows 2,001–2,500").run()
    assert shown(at) == "first 500 last 1 count 500"
    at.session_state["seg"] = 2400  # a step or a click opens a segment on the first page
    at.run()
    assert shown(at) == "first 2500 last 1501 count 1000"
    assert at.selectbox(key="rows").value == "rows 1–1,000"
