"""Opening a tab of the Compare page in an AppTest, as a click on its label does."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import VIEW_KEY, View


def open_view(at: AppTest, view: View) -> AppTest:
    """Open ``view``'s tab and rerun; return the app for chaining."""
    at.session_state[VIEW_KEY] = view.label
    return at.run()
