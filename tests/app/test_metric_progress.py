"""Every page that scores another metric for every system shows the segments scored so far,
and how long is left.

The bar is emptied once the scores are in, so the test records what was drawn.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
import streamlit
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.cache import background
from bleuviz.jobs import usable_cores
from bleuviz.metrics import ter_parallel
from tests.data import SAMPLE_SYSTEM_LINES

N_SYSTEMS = len(SAMPLE_SYSTEM_LINES)
SEGMENTS = len(next(iter(SAMPLE_SYSTEM_LINES.values())))


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

    def __getattr__(self, name: str) -> Any:  # anything else a page draws in an st.empty()
        return getattr(self.real, name)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts of every progress bar drawn (and when it was emptied)."""
    texts: list[str] = []
    real_empty = streamlit.empty
    monkeypatch.setattr(streamlit, "empty", lambda: _Slot(texts, real_empty()))
    return texts


@pytest.fixture
def slow_ter(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """TER made slow enough to be watched (a pause a chunk), one chunk a system; the bar
    drawn at once and refreshed often. Returns each ``ter_systems`` call's
    (systems, workers)."""
    calls: list[tuple[int, int]] = []
    real_systems, real_statistics = ter_parallel.ter_systems, ter_parallel.ter_statistics

    def ter_systems(systems: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append((len(systems), kwargs.get("workers", args[2] if len(args) > 2 else 2)))
        return real_systems(systems, *args, **kwargs)

    def statistics(*args: Any) -> Any:
        time.sleep(0.3)  # not timed: lets the script thread draw the bar between chunks
        return real_statistics(*args)

    ter_parallel.clear_cache()
    monkeypatch.setattr(ter_parallel, "ter_systems", ter_systems)
    monkeypatch.setattr(ter_parallel, "ter_statistics", statistics)
    monkeypatch.setattr(ter_parallel, "PARALLEL_FROM", 10**9)  # in this process: patched
    monkeypatch.setattr(background, "BAR_AFTER", 0.0)
    monkeypatch.setattr(background, "REFRESH", 0.02)
    monkeypatch.setattr(background, "ESTIMATE_AFTER", 0.0)
    return calls


@pytest.mark.parametrize(
    ("page", "params"),
    [
        ("bleuviz/app/page_scripts/overview.py", {"metrics": "TER"}),
        ("bleuviz/app/page_scripts/sentences.py", {"metrics": "TER", "sys": "terse", "seg": "3"}),
        ("bleuviz/app/page_scripts/compare.py", {"seg_metric": "TER"}),
        ("bleuviz/app/page_scripts/compare.py", {"metric": "TER"}),
    ],
)
def test_scoring_every_system_shows_the_segments_done_and_the_time_left(
    new_app: Callable[..., AppTest],
    drawn: list[str],
    slow_ter: list[tuple[int, int]],
    page: str,
    params: dict[str, str],
) -> None:
    at = new_app()
    at.switch_page(page)
    at.query_params.update(params)
    at.run()
    assert not at.exception
    first = next(i for i, text in enumerate(drawn) if text.startswith("TER"))
    bars = drawn[first:-1]  # before: counting n-grams, drawn at once too (BAR_AFTER 0)
    assert drawn[-1] == "(emptied)" and all(text.startswith("TER") for text in bars)
    under_way = {text.split(" · ")[0] for text in bars}
    # The last report ("3 systems scored") shows when a refresh catches it before the
    # bar is emptied: timing, so allowed, never required.
    done = f"TER: {N_SYSTEMS} systems scored"
    total, lines = N_SYSTEMS * SEGMENTS, SEGMENTS  # the sample: one chunk a system
    segments = {
        f"TER: {k * lines:,} of {total:,} segments ({N_SYSTEMS} systems)" for k in range(N_SYSTEMS)
    }
    assert under_way <= {"TER", done} | segments
    assert f"TER: {total - lines:,} of {total:,} segments ({N_SYSTEMS} systems)" in under_way
    assert any(text.endswith(" left") for text in bars)  # "about 2 s left", "under a second left"
    # Every system in one call, with the command line's worker processes (the app
    # scored one system a call, in the server's own thread).
    assert slow_ter == [(N_SYSTEMS, usable_cores())]
    drawn.clear()
    at.run()  # scored: read from the cache, no bar
    assert not at.exception
    assert not any(text.startswith("TER") for text in drawn)
    assert len(slow_ter) == 1
