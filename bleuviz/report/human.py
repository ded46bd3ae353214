"""Metrics against the human score: correlations, meta-evaluation, the largest disagreements.

The same computations as ``bleuviz correlate`` (``correlate`` over every
computed metric chosen and every other imported score, human references left
out by name as mt-metrics-eval does) and the Compare page's disagreements
(``segment_gaps``: percentiles of the metric and the human score).
"""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.analysis.correlation import (
    Correlation,
    MetricView,
    correlate,
    scores_view,
    segment_gaps,
)
from bleuviz.analysis.meta_eval import is_human_reference
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.report.options import ReportOptions
from bleuviz.report.ranking import scored

#: Disagreements listed per metric.
DISAGREEMENTS = 10


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A (system, segment) the metric and the human score rank far apart (1-based ``seg``)."""

    metric: str
    system: str
    seg: int
    metric_score: float
    human_score: float
    gap: float
    side: str


@dataclass(frozen=True, slots=True)
class HumanView:
    """Every metric against the human score, and their largest disagreements."""

    human: str
    left_out: tuple[str, ...]
    correlations: tuple[Correlation, ...]
    disagreements: tuple[Disagreement, ...]


def human_view(evaluation: Evaluation, options: ReportOptions) -> HumanView | None:
    """Correlate every metric with ``options.human`` (None: no human score chosen)."""
    if options.human is None:
        return None
    testset = evaluation.testset
    human = _view(evaluation, options.human)
    left_out = tuple(sorted(filter(is_human_reference, human.corpus)))
    views = [
        scores_view(label, scored(evaluation, options, label).scores(label))
        for label in options.metrics
    ]
    views += [_view(evaluation, s.name) for s in testset.seg_scores if s.name != options.human]
    correlations = tuple(correlate(view, human, left_out) for view in views)
    gaps = []
    for view in views[: len(options.metrics)]:
        frame = segment_gaps(view, human, left_out).head(DISAGREEMENTS)
        gaps += [
            Disagreement(
                view.name,
                str(r["system"]),
                int(r["seg"]),
                float(r["metric"]),
                float(r["human"]),
                float(r["gap"]),
                str(r["side"]),
            )
            for r in frame.to_dict("records")
        ]
    return HumanView(options.human, left_out, correlations, tuple(gaps))


def _view(evaluation: Evaluation, name: str) -> MetricView:
    """An imported score of the systems it scores, as ``correlate`` reads it."""
    scores = evaluation.testset.seg_score(name)
    scored_systems = [s for s in evaluation.testset.systems if s in scores.values]
    return scores_view(name, evaluation.scores(name, scored_systems))
