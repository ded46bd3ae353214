"""Every page that scores another metric for every system shows which system is under way.

The bar is emptied once the scores are in, so the test records what was drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import streamlit
from streamlit.testing.v1 import AppTest

from tests.data import SAMPLE_SYSTEM_LINES

N_SYSTEMS = len(SAMPLE_SYSTEM_LINES)


class _Slot:
    """``st.empty()``, recording the progress bars drawn in it (and when it is emptied)."""

    def __init__(self, texts: list[str], real: Any) -> None:
        self.texts, self.real, self.drew = texts, real, False

    def progress(self, value: float, text: str = "") -> Any:
        # The significance tests' own bar appears only when they take a while: not counted.
        if not text.startswith("Significance tests"):
            self.texts.append(text)
            self.drew = True
        return self.real.progress(value, text=text)

    def empty(self) -> Any:
        if self.drew:
            self.texts.append("(emptied)")
        return self.real.empty()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts of every progress bar drawn (and when it was emptied)."""
    texts: list[str] = []
    real_empty = streamlit.empty
    monkeypatch.setattr(streamlit, "empty", lambda: _Slot(texts, real_empty()))
    return texts


def expected(label: str) -> list[str]:
    steps = [f"{label}: system {k} of {N_SYSTEMS}" for k in range(1, N_SYSTEMS + 1)]
    return [f"{label}: scoring {N_SYSTEMS} systems", *steps, "(emptied)"]


@pytest.mark.parametrize(
    ("page", "params"),
    [
        ("bleuviz/app/page_scripts/overview.py", {"metrics": "TER"}),
        ("bleuviz/app/page_scripts/sentences.py", {"metrics": "TER", "sys": "terse", "seg": "3"}),
        ("bleuviz/app/page_scripts/compare.py", {"seg_metric": "TER"}),
        ("bleuviz/app/page_scripts/compare.py", {"metric": "TER"}),
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
