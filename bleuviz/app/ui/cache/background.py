"""Long computations run beside the script, with a progress bar of what they report.

A cached function that takes seconds (the significance tests of 100,000
segments) cannot draw its own bar: Streamlit records what a cached function
draws and replays it on every later cache hit. So the function runs in a
worker thread and reports through a ``bleuviz.progress.Progress`` callback
into a slot the script thread reads; the script thread draws the bar, and only
once the work has taken ``BAR_AFTER`` seconds, so a cache hit draws nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as StillRunning
from typing import TypeVar

import streamlit as st

from bleuviz.progress import Progress

T = TypeVar("T")

#: Seconds of work before a bar appears, then between its updates.
BAR_AFTER = 0.3
REFRESH = 0.25

# numpy releases the GIL in the heavy parts; a few sessions may compute at once.
_WORKERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bleuviz-background")


class LatestReport:
    """The last thing a computation reported: what it does and the fraction done.

    ``forward``, once set, also hears every later report: a computation started
    before anyone watched it (the command line's statistics) is then shown by
    whoever waits for it.
    """

    def __init__(self) -> None:
        self.latest: tuple[str, float] = ("", 0.0)
        self.forward: Progress | None = None

    def __call__(self, what: str, fraction: float) -> None:
        # One tuple assignment: the script thread reads a whole report or the one before.
        self.latest = (what, min(max(fraction, 0.0), 1.0))
        if self.forward is not None:
            self.forward(*self.latest)

    def follow(self, progress: Progress) -> None:
        """Pass the last report and every later one to ``progress``."""
        self.forward = progress
        progress(*self.latest)


def with_progress(title: str, compute: Callable[[Progress], T]) -> T:
    """Run ``compute(report)`` in a worker thread and return its result (or raise its error).

    While it runs past ``BAR_AFTER`` seconds, a bar reads "``title``: what it
    reports". A rerun requested meanwhile stops this script run at the bar's
    next change (the core reports chunk by chunk); the worker finishes on its
    own, so a cached ``compute`` still fills the cache for the run that follows.
    """
    report = LatestReport()
    # The worker draws nothing: Streamlit's caches need no script context to look up
    # or store a value (only a spinner would, and these cached functions have none).
    future = _WORKERS.submit(compute, report)
    # The bar's place exists on every run, drawn or not: a bar on one run and none on
    # the next would shift every element after it, showing the last run's stale ones.
    slot = st.empty()
    shown: tuple[str, float] | None = None
    try:
        while True:
            try:
                return future.result(timeout=REFRESH if shown else BAR_AFTER)
            except StillRunning:
                # Each drawing is a message the browser renders, while it shares the cores
                # with the computation: draw only what changed.
                if report.latest != shown:
                    shown = what, fraction = report.latest
                    slot.progress(fraction, text=f"{title}: {what}" if what else title)
    finally:
        if shown is not None:
            slot.empty()
