"""Every pair of systems tested, cached per data, metric, tests and the settings it reads.

The all-pairs view used to run one paired test per baseline; ``tested_pairs``
draws once for every pair where the statistics allow (the same numbers), so the
view waits for one run, with a bar naming the test under way.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from bleuviz.app.ui.cache.background import with_progress
from bleuviz.app.ui.cache.compare import scores_of
from bleuviz.app.ui.cache.data import DataKey
from bleuviz.app.ui.cache.scores import metric_spec
from bleuviz.metrics import MetricScores, Settings
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.progress import Progress
from bleuviz.significance.all_pairs import PairTest
from bleuviz.significance.by_metric import tested_pairs


def every_pair(
    identity: DataKey,
    metric: str,
    tests: tuple[int, int, int],
    settings: Settings,
    evaluation: Evaluation,
) -> tuple[dict[str, float], list[PairTest]]:
    """Each system's score and every pair (a before b in load order), with a progress bar.

    ``tests``: bootstrap samples, randomization trials and the seed; ``settings``:
    the sidebar's (only those the metric reads key the cache).
    """
    kept = metric_spec(evaluation, metric).reads(settings)
    scores = scores_of(identity, evaluation, metric, kept, list(evaluation.testset.systems))
    key = (identity, metric, tests, kept)
    return with_progress(
        "All pairs", lambda report: _every_pair(*key, evaluation, scores, _progress=report)
    )


@st.cache_data(max_entries=16, show_spinner=False)
def _every_pair(
    identity: DataKey,
    metric: str,
    tests: tuple[int, int, int],
    settings: Settings,
    _evaluation: Evaluation,
    _scores: Mapping[str, MetricScores],
    _progress: Progress | None = None,
) -> tuple[dict[str, float], list[PairTest]]:
    """The tests (cached; run on a worker thread, reading no session state)."""
    spec = metric_spec(_evaluation, metric)
    return tested_pairs(spec, settings, _scores, *tests, _progress)
