"""Every page that scores another metric for every system shows which system is under way.

The bar is emptied once the scores are in, so the test records what was drawn.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import streamlit
from streamlit.testing.v1 import AppTest

import ui.data
from tests.data import SAMPLE_SYSTEM_LINES

N_SYSTEMS = len(SAMPLE_SYSTEM_LINES)


class _Bar:
    def __init__(self, texts: list[str], text: str) -> None:
        self.texts = texts
        texts.append(text)

    def progress(self, value: float, text: str = "") -> None:
        self.texts.append(text)

    def empty(self) -> None:
        self.texts.append("(emptied)")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts of every progress bar drawn (and when it was emptied)."""
    texts: list[str] = []
    monkeypatch.setattr(ui.data, "_SCORED", set())  # as in a fresh server
    monkeypatch.setattr(streamlit, "progress", lambda value, text="": _Bar(texts, text))
    return texts


def expected(label: str) -> list[str]:
    steps = [f"{label}: system {k} of {N_SYSTEMS}" for k in range(1, N_SYSTEMS + 1)]
    return [f"{label}: scoring {N_SYSTEMS} systems", *steps, "(emptied)"]


@pytest.mark.parametrize(
    ("page", "params"),
    [
        ("app_pages/overview.py", {"metrics": "TER"}),
        ("app_pages/sentences.py", {"metrics": "TER", "sys": "terse", "seg": "3"}),
        ("app_pages/compare.py", {"seg_metric": "TER"}),
        ("app_pages/compare.py", {"metric": "TER"}),
    ],
)
def test_scoring_every_system_shows_the_system_under_way_once(
    new_app: Callable[..., AppTest], drawn: list[str], page: str, params: dict[str, str]
) -> None:
    at = new_app()
    at.switch_page(page)
    at.query_params.update(params)
    at.run()
    assert not at.exception
    assert drawn == expected("TER")
    drawn.clear()
    at.run()  # scored: read from the cache, no bar
    assert not at.exception
    assert drawn == []
