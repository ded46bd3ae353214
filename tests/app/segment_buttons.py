"""Pressing a segment's number in a segment table, in an AppTest, as a click does in chromium.

AppTest has no way to press a button drawn inside ``st.dataframe``
(``st.column_config.ButtonColumn``): this sends the click the browser sends, the
column's trigger value ``{"row": ROW, "label": LABEL}``, with the other widgets'
values, through AppTest's run. ``tests/e2e`` presses the real button.
"""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest


def press_segment(at: AppTest, table_key: str, row: int) -> AppTest:
    """Press the segment button of ``row`` (from 0, as the table was sent); rerun; return ``at``."""
    table = at.dataframe(key=table_key)
    widget = table.proto.button_click_widgets["seg"]
    label = str(table.value["seg"].iloc[row]) if row < len(table.value) else ""
    states = at._tree.get_widget_states()  # private: AppTest offers no public way
    click = states.widgets.add()
    click.id = widget
    click.string_trigger_value.data = json.dumps({"row": row, "label": label})
    return at._run(states)
