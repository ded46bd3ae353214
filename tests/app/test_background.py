"""Long computations in a worker thread: their result or error, and a bar only when they take time.

The bar's place is Streamlit's ``st.empty()``, replaced here by a recorder; the
computations wait on events rather than sleep, so the order of events (not the
machine's speed) decides what is drawn.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Future

import pytest
import streamlit

import bleuviz.app.ui.cache.background
from bleuviz.app.ui.cache.background import LatestReport, shared_progress, with_progress
from bleuviz.errors import InputError
from bleuviz.progress import Progress


class _Slot:
    """``st.empty()``: a place that shows a progress bar, then nothing."""

    def __init__(self, drawn: list[str], shown: threading.Event) -> None:
        self.drawn, self.shown = drawn, shown

    def progress(self, value: float, text: str = "") -> None:
        self.drawn.append(text)
        self.shown.set()

    def empty(self) -> None:
        self.drawn.append("(emptied)")


@pytest.fixture
def shown() -> threading.Event:
    return threading.Event()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch, shown: threading.Event) -> Iterator[list[str]]:
    texts: list[str] = []
    slots: list[_Slot] = []

    def empty() -> _Slot:
        slots.append(_Slot(texts, shown))
        return slots[-1]

    monkeypatch.setattr(streamlit, "empty", empty)
    monkeypatch.setattr(bleuviz.app.ui.cache.background, "BAR_AFTER", 0.01)
    monkeypatch.setattr(bleuviz.app.ui.cache.background, "REFRESH", 0.01)
    yield texts
    assert len(slots) == 1  # one place for the bar, bar or not


def test_a_quick_computation_draws_no_bar(
    monkeypatch: pytest.MonkeyPatch, drawn: list[str]
) -> None:
    monkeypatch.setattr(bleuviz.app.ui.cache.background, "BAR_AFTER", 30.0)
    assert with_progress("Tests", lambda report: 42) == 42
    assert drawn == []


def test_a_long_computation_shows_what_it_reports(drawn: list[str], shown: threading.Event) -> None:
    def compute(report: Progress) -> str:
        report("paired bootstrap: resample 1 of 1,000", 0.0)
        shown.wait(30)  # the bar is up: it has read the first report
        return "done"

    assert with_progress("Significance tests", compute) == "done"
    assert drawn[0] == "Significance tests: paired bootstrap: resample 1 of 1,000"
    assert drawn[-1] == "(emptied)"


def test_an_error_reaches_the_page_and_the_bar_goes(
    drawn: list[str], shown: threading.Event
) -> None:
    def compute(report: Progress) -> str:
        shown.wait(30)
        raise InputError("a: 3 lines but b has 4")

    with pytest.raises(InputError, match="a: 3 lines but b has 4"):
        with_progress("Tests", compute)
    assert drawn[-1] == "(emptied)"
    assert set(drawn[:-1]) == {"Tests"}  # nothing reported: the title alone, at every refresh


def test_reports_are_kept_whole_and_clamped() -> None:
    report = LatestReport()
    assert report.latest == ("", 0.0)
    report("trial 5 of 4", 1.25)
    assert report.latest == ("trial 5 of 4", 1.0)
    report("before", -0.5)
    assert report.latest == ("before", 0.0)


def test_a_report_followed_late_passes_on_the_last_one_and_every_later_one() -> None:
    early = LatestReport()
    early("1,000 of 100,000 segments", 0.01)  # counted before anyone watched
    heard: list[tuple[str, float]] = []
    early.follow(lambda what, fraction: heard.append((what, fraction)))
    early("2,000 of 100,000 segments", 0.02)
    assert heard == [("1,000 of 100,000 segments", 0.01), ("2,000 of 100,000 segments", 0.02)]


def test_a_computation_under_way_is_watched_not_started_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rerun stopped at the bar leaves its work running: the next run waits for it."""
    release = threading.Event()
    main = threading.current_thread()

    class Slot:
        def progress(self, value: float, text: str = "") -> None:
            if threading.current_thread() is main:  # the second run is watching
                release.set()

        def empty(self) -> None:
            pass

    monkeypatch.setattr(streamlit, "empty", Slot)
    monkeypatch.setattr(bleuviz.app.ui.cache.background, "BAR_AFTER", 0.01)
    monkeypatch.setattr(bleuviz.app.ui.cache.background, "REFRESH", 0.01)
    started, calls, results = threading.Event(), [], []

    def compute(report: Progress) -> int:
        calls.append(1)
        started.set()
        release.wait(30)
        return len(calls)

    first = threading.Thread(target=lambda: results.append(shared_progress("k", "T", compute)))
    first.start()
    started.wait(30)
    results.append(shared_progress("k", "T", compute))
    first.join(30)
    assert calls == [1] and results == [1, 1]
    assert shared_progress("k", "T", compute) == 2  # done: a later call computes again


def test_a_computation_done_before_it_is_watched_does_not_lock_up(
    monkeypatch: pytest.MonkeyPatch, drawn: list[str]
) -> None:
    """A future already done calls its callback at once, in the caller's thread.

    CI once hung here: a cached result finished before ``shared_progress`` added
    the callback that forgets it, under the lock that callback takes.
    """
    done: Future[int] = Future()
    done.set_result(7)
    monkeypatch.setattr(bleuviz.app.ui.cache.background._WORKERS, "submit", lambda *_: done)
    results: list[int] = []
    caller = threading.Thread(
        target=lambda: results.append(shared_progress("k2", "T", len)), daemon=True
    )
    caller.start()
    caller.join(10)
    assert not caller.is_alive(), "shared_progress locked up"
    assert results == [7]
    assert "k2" not in bleuviz.app.ui.cache.background._RUNNING  # forgotten once done


def test_the_time_left_is_estimated_from_the_time_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report = LatestReport()
    clock = report.started
    monkeypatch.setattr(bleuviz.app.ui.cache.background.time, "monotonic", lambda: clock + 10)
    assert report.time_left() == ""  # nothing done yet: no estimate
    report("system 1 of 4", 0.25)
    assert report.time_left() == "about 30 s left"
    report("system 2 of 4", 0.05)
    assert report.time_left() == "about 3 min left"  # 190 s
    report("system 4 of 4", 0.96)
    assert report.time_left() == "under a second left"  # 0.42 s, not "about 0 s"
    report("system 4 of 4", 0.94)
    assert report.time_left() == "about 1 s left"  # 0.64 s
