"""Every pair of systems tested, cached per evaluation (the settings its metric reads),
metric and tests.

The all-pairs view used to run one paired test per baseline; ``tested_pairs``
draws once for every pair where the statistics allow (the same numbers), so the
view waits for one run, with a bar naming the test under way.
"""

from __future__ import annotations

from bleuviz.app.ui.cache.background import with_progress
from bleuviz.app.ui.cache.keys import cached_data
from bleuviz.app.ui.cache.scores import every_system_scores
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.progress import Progress
from bleuviz.significance.all_pairs import PairTest
from bleuviz.significance.by_metric import tested_pairs


def every_pair(
    evaluation: Evaluation, metric: str, tests: tuple[int, int, int]
) -> tuple[dict[str, float], list[PairTest]]:
    """Each system's score and every pair (a before b in load order), with a progress bar.

    ``tests``: bootstrap samples, randomization trials and the seed. The metric's
    scores are computed first, on the script thread, where not held already.
    """
    every_system_scores(evaluation, metric, list(evaluation.testset.systems))
    reading = evaluation.reading(metric)
    return with_progress(
        "All pairs", lambda report: _every_pair(reading, metric, tests, _progress=report)
    )


@cached_data(max_entries=16, show_spinner=False)
def _every_pair(
    evaluation: Evaluation,
    metric: str,
    tests: tuple[int, int, int],
    _progress: Progress | None = None,
) -> tuple[dict[str, float], list[PairTest]]:
    """The tests (cached; run on a worker thread, reading no session state)."""
    spec = evaluation.metric(metric)
    return tested_pairs(spec, evaluation.settings, evaluation.scores(metric), *tests, _progress)
