"""Every metric's scores of the loaded test set, from one evaluation bundle per test set.

The bundle (``bleuviz.metrics.evaluation``) is shared by every session and
computes a metric's scores once per settings the metric reads. Functions here
take the settings as arguments (cached work and worker threads call them),
except those documented as reading the sidebar.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import replace

import pandas as pd
import streamlit as st

from bleuviz.analysis.segments import segment_table
from bleuviz.app.ui.cache.background import shared_progress
from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.bleu.corpus import CorpusStats
from bleuviz.io.testset import TestSet
from bleuviz.jobs import usable_cores
from bleuviz.metrics import MetricScores, Settings
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.ter_parallel import prepare_workers

#: Seconds after the first test set loads before TER's worker processes are prepared
#: (``ter_parallel.prepare_workers``): the first page has been drawn by then.
PREPARE_AFTER = 2.0
_workers_prepared = threading.Event()


@cached_resource(max_entries=6, show_spinner=False)
def _bundle(content_id: str, _testset: TestSet) -> Evaluation:
    """One evaluation bundle per loaded test set, shared by every session: what it computes
    (any metric, any settings) is kept for all."""
    _prepare_workers_soon()
    return Evaluation(_testset)


def _prepare_workers_soon() -> None:
    """Once per server, start the fork server of TER's workers ``PREPARE_AFTER`` seconds on.

    Adding TER then takes worker processes at once, as the command line does,
    instead of starting them (a second or more) while the user waits; waiting
    until the first page is drawn keeps that work out of its way.
    """
    if _workers_prepared.is_set():
        return
    _workers_prepared.set()
    timer = threading.Timer(PREPARE_AFTER, prepare_workers)
    timer.daemon = True
    timer.start()


def loaded_evaluation(content_id: str, counted: CorpusStats, settings: Settings) -> Evaluation:
    """The bundle of the test set ``content_id`` names, under ``settings``.

    ``counted``: BLEU's statistics, already counted (with a progress bar) under
    ``settings.tokenize``. Reads no setting: cached work and worker threads may
    call it.
    """
    bundle = _bundle(content_id, counted.testset)
    bundle.seed_statistics(counted)
    return bundle.with_settings(settings)


def system_scores(
    evaluation: Evaluation, system: str, label: str, settings: Settings
) -> MetricScores:
    """``label``'s scores of ``system`` under ``settings``, from the loaded bundle.

    Reads no setting. A computed metric still to score shows a spinner, so call
    it on the script thread; an imported metric's scores are read from the test set.
    """
    bundle = evaluation.with_settings(settings)
    if bundle.counts_from_text(label, system):
        with st.spinner("Scoring with another metric…"):
            return bundle.scores(label, [system])[system]
    return bundle.scores(label, [system])[system]


def every_system_scores(
    evaluation: Evaluation, label: str, systems: Sequence[str]
) -> dict[str, MetricScores]:
    """``label``'s scores of every system in ``systems``, with a progress bar while computing.

    The systems still to score are scored in one call on a worker thread, as the
    command line scores them: with its worker processes (``usable_cores``;
    TER starts them from a fork server in this threaded server), and one pool
    for all the systems rather than one per system. The bar counts the segments
    scored ("TER: 1,280 of 22,500 segments (12 systems) · about 3 min left"). A rerun meanwhile (a
    click) stops this run at the bar while the work goes on; the next run
    watches the same work (``shared_progress``) instead of starting it again.
    When every system is scored, no bar is drawn.
    """
    todo = [n for n in systems if evaluation.counts_from_text(label, n)]
    if todo:
        computing = evaluation.with_settings(replace(evaluation.settings, workers=usable_cores()))
        shared_progress(
            (evaluation.scores_key(label), tuple(todo)),
            label,
            lambda report: computing.scores(label, todo, report),
        )
    return evaluation.scores(label, list(systems))


def score_every_system(evaluation: Evaluation, labels: Iterable[str]) -> None:
    """Compute each computed metric in ``labels`` for every system, with the progress bar.

    Pages call this before their sections, which then read the scores from the
    bundle: a section that needs every system (one segment in every system, the
    significance table) would otherwise compute them one by one with no sign of
    progress. Scores that need no counting (imported, or BLEU's from counted
    statistics) are left to the sections.
    """
    systems = list(evaluation.testset.systems)
    for label in dict.fromkeys(labels):
        if any(evaluation.counts_from_text(label, name) for name in systems):
            every_system_scores(evaluation, label, systems)


@cached_resource(max_entries=64, show_spinner=False)
def segment_frame(evaluation: Evaluation, system: str) -> pd.DataFrame:
    """The Sentences table of ``system`` (cached and shared: copy it before changing it).

    Pass ``evaluation.reading(BLEU.label)``: the table holds BLEU's numbers only, so a
    switch another metric reads (chrF's lowercase) keeps it.
    """
    return segment_table(evaluation, system)
