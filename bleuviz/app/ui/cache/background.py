"""Long computations run beside the script, with a progress bar of what they report.

A cached function that takes seconds (the significance tests of 100,000
segments) cannot draw its own bar: Streamlit records what a cached function
draws and replays it on every later cache hit. So the function runs in a
worker thread and reports through a ``bleuviz.progress.Progress`` callback
into a slot the script thread reads; the script thread draws the bar, and only
once the work has taken ``BAR_AFTER`` seconds, so a cache hit draws nothing.
Once some of the work is done, the bar adds an estimate of the time left (the
time so far scaled by the fraction left, as a linear guess).

A computation that a rerun leaves behind (the script stops at the bar, the
worker goes on) is found again by its key (``shared_progress``): the next run
watches it instead of starting the same work a second time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as StillRunning
from typing import Any, TypeVar

import streamlit as st

from bleuviz.progress import Progress

T = TypeVar("T")

#: Seconds of work before a bar appears, then between its updates.
BAR_AFTER = 0.3
REFRESH = 0.25

# numpy releases the GIL in the heavy parts; a few sessions may compute at once.
_WORKERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bleuviz-background")
#: Shared computations under way, by key (``shared_progress``), with their reports.
_RUNNING: dict[Hashable, tuple[Future[Any], LatestReport]] = {}
_RUNNING_LOCK = threading.Lock()
#: Seconds of work, and the fraction done, before the bar estimates the time left.
ESTIMATE_AFTER = 1.0
ESTIMATE_FROM = 0.02


class LatestReport:
    """The last thing a computation reported: what it does and the fraction done.

    ``forward``, once set, also hears every later report: a computation started
    before anyone watched it (the command line's statistics) is then shown by
    whoever waits for it.
    """

    def __init__(self) -> None:
        self.latest: tuple[str, float] = ("", 0.0)
        self.forward: Progress | None = None
        self.started = time.monotonic()

    def __call__(self, what: str, fraction: float) -> None:
        # One tuple assignment: the script thread reads a whole report or the one before.
        self.latest = (what, min(max(fraction, 0.0), 1.0))
        if self.forward is not None:
            self.forward(*self.latest)

    def follow(self, progress: Progress) -> None:
        """Pass the last report and every later one to ``progress``."""
        self.forward = progress
        progress(*self.latest)

    def time_left(self) -> str:
        """ "about 12 s left", from the time so far and the fraction done ("" too early)."""
        elapsed = time.monotonic() - self.started
        fraction = self.latest[1]
        if elapsed < ESTIMATE_AFTER or fraction < ESTIMATE_FROM or fraction >= 1.0:
            return ""
        left = elapsed * (1.0 - fraction) / fraction
        if left < 0.5:  # "about 0 s" would read as done
            return "under a second left"
        return f"about {left:.0f} s left" if left < 90 else f"about {left / 60:.0f} min left"


def with_progress(title: str, compute: Callable[[Progress], T]) -> T:
    """Run ``compute(report)`` in a worker thread and return its result (or raise its error).

    While it runs past ``BAR_AFTER`` seconds, a bar reads "``title``: what it
    reports", then the time left. A rerun requested meanwhile stops this script
    run at the bar's next change (the core reports chunk by chunk); the worker
    finishes on its own, so a cached ``compute`` still fills the cache for the
    run that follows.
    """
    report = LatestReport()
    # The worker draws nothing: Streamlit's caches need no script context to look up
    # or store a value (only a spinner would, and these cached functions have none).
    return _watch(title, _WORKERS.submit(compute, report), report)


def shared_progress(key: Hashable, title: str, compute: Callable[[Progress], T]) -> T:
    """``with_progress``, except that a computation of ``key`` under way is watched, not
    started again: a rerun that stopped at the bar (another click) finds the work it
    left running, and another session waiting for the same scores shares it.

    ``compute`` must give the same result whoever starts it (it is keyed on ``key`` only).
    """
    with _RUNNING_LOCK:
        running = _RUNNING.get(key)
        started = running is None or running[0].done()
        if running is None or started:
            report = LatestReport()
            future: Future[T] = _WORKERS.submit(compute, report)
            running = _RUNNING[key] = (future, report)
    shared: Future[T] = running[0]  # the same key: the same computation, of the same type
    if started:
        # Outside the lock: a computation already done (a cached result) calls ``_forget``
        # at once, in this thread, and ``_forget`` takes the lock.
        shared.add_done_callback(lambda done: _forget(key, done))
    return _watch(title, shared, running[1])


def _forget(key: Hashable, future: Future[Any]) -> None:
    """Drop ``key``'s finished computation (unless another has taken its place)."""
    with _RUNNING_LOCK:
        if key in _RUNNING and _RUNNING[key][0] is future:
            del _RUNNING[key]


def _watch(title: str, future: Future[T], report: LatestReport) -> T:
    """Wait for ``future``, drawing ``report``'s latest news once it takes ``BAR_AFTER``."""
    # The bar's place exists on every run, drawn or not: a bar on one run and none on
    # the next would shift every element after it, showing the last run's stale ones.
    slot = st.empty()
    shown: str | None = None
    try:
        while True:
            try:
                return future.result(timeout=REFRESH if shown is not None else BAR_AFTER)
            except StillRunning:
                # Each drawing is a message the browser renders, while it shares the cores
                # with the computation: draw only what changed.
                what, fraction = report.latest
                text = " · ".join(part for part in (what, report.time_left()) if part)
                if text != shown:
                    shown = text
                    slot.progress(fraction, text=f"{title}: {text}" if text else title)
    finally:
        if shown is not None:
            slot.empty()
