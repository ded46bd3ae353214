"""The Learn page in AppTest, and what its tests read off it (shared by tests/app/test_learn_*)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.state.learn_links import LEARN_PART, LEARN_PARTS

LEARN = "bleuviz/app/page_scripts/learn.py"


def open_learn(new_app: Callable[..., AppTest]) -> AppTest:
    """A fresh AppTest of app.py, run once on its default page, switched to Learn."""
    at = new_app()
    at.run()
    at.switch_page(LEARN)
    return at


def run_ok(at: AppTest) -> AppTest:
    """Run the page and check it rendered without exception or error."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def metrics(at: AppTest) -> dict[str, str]:
    """Every metric on the page: its label and its value."""
    return {m.label: m.value for m in at.metric}


def frame_with(at: AppTest, column: str) -> Any:
    """The first dataframe or table on the page that has ``column``."""
    for element in [*at.dataframe, *at.table]:
        if column in element.value.columns:
            return element.value
    raise AssertionError(f"no table with column {column!r}")


def show_part(at: AppTest, part: str) -> AppTest:
    """Choose the tab of ``part`` (a ``part`` link value: steps, libraries, chrf, ...) and run."""
    at.session_state[LEARN_PART] = LEARN_PARTS[part]
    return run_ok(at)
