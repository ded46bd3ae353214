"""Pressing a segment's number in a segment table, in an AppTest, as a click does in chromium;
the rows a table marks as open.

AppTest has no way to press a button drawn inside ``st.dataframe``
(``st.column_config.ButtonColumn``): this sends the click the browser sends, the
column's trigger value ``{"row": ROW, "label": LABEL}``, with the other widgets'
values, through AppTest's run. ``tests/e2e`` presses the real button.
"""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Dataframe

from bleuviz.app.ui.state.selection import OPEN_COLUMN, OPEN_MARK


def press_segment(at: AppTest, table_key: str, row: int) -> AppTest:
    """Press the segment button of ``row`` (from 0, as the table was sent); rerun; return ``at``."""
    return press_cell_button(at, segment_table(at, table_key), "seg", row)


def press_cell_button(at: AppTest, table: Dataframe, column: str, row: int) -> AppTest:
    """Press the button ``column`` of ``row`` in ``table`` (a ``ButtonColumn``); rerun."""
    widget = table.proto.button_click_widgets[column]
    label = str(table.value[column].iloc[row]) if row < len(table.value) else ""
    states = at._tree.get_widget_states()  # private: AppTest offers no public way
    click = states.widgets.add()
    click.id = widget
    click.string_trigger_value.data = json.dumps({"row": row, "label": label})
    return at._run(states)


def button_table(at: AppTest, column: str, key: str) -> Dataframe:
    """The table whose column ``column`` is the buttons keyed ``key``."""
    for table in at.dataframe:
        if table.proto.button_click_widgets.get(column, "").endswith(key):
            return table
    raise KeyError(key)


def marked_segments(at: AppTest, table_key: str) -> list[int]:
    """The segments whose rows the table ``table_key`` marks as the open one."""
    table = segment_table(at, table_key).value
    return [int(s) for s in table.loc[table[OPEN_COLUMN] == OPEN_MARK, "seg"]]


def segment_table(at: AppTest, table_key: str) -> Dataframe:
    """The segment table ``table_key`` (``PREFIX_table``) of the page ``at`` has drawn.

    A table without row selection is no widget, so Streamlit drops its key: the table is
    found by its number buttons' key, ``PREFIX_open``.
    """
    try:
        return button_table(at, "seg", table_key.removesuffix("_table") + "_open")
    except KeyError:
        raise KeyError(table_key) from None


def has_segment_table(at: AppTest, table_key: str) -> bool:
    """Whether the page ``at`` has drawn the segment table ``table_key``."""
    try:
        segment_table(at, table_key)
    except KeyError:
        return False
    return True
