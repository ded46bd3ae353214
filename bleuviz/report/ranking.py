"""The ranked systems: every metric's score, bootstrap CI, best values, and rank clusters.

The clusters are ``compare --all-pairs``'s: every pair of systems tested on the
tested metric (paired bootstrap and approximate randomization, ``tested_pairs``),
Holm-adjusted past two systems, grouped by ``rank_clusters``; the tested
metric's CIs are those of ``compare``'s table (the first system as baseline,
the resamples Holm's correction needs). Every other metric with a paired test
gets its bootstrap CI from ``OTHER_RESAMPLES`` resamples (sacrebleu's
``--confidence`` default) and the same seed: the many resamples the pairs
need buy a CI nothing, and chrF's resamples are scored one by one in Python
(15,600 of them took 7 s of a 13-system report).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bleuviz.analysis.ranking import best_systems, rank_order
from bleuviz.errors import BleuvizError
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.spec import MetricScores
from bleuviz.report.options import ALPHA, PairedCounts, ReportOptions
from bleuviz.significance.all_pairs import PairTest, holm, rank_clusters
from bleuviz.significance.by_metric import paired_test, tested_pairs
from bleuviz.significance.resampling import PairedResult, paired_signature

#: Bootstrap resamples of the CIs of the metrics not tested in pairs (sacrebleu's default).
OTHER_RESAMPLES = 1000


@dataclass(frozen=True, slots=True)
class MetricColumn:
    """One metric over every system.

    Attributes:
        label: the registry's label; name: the implementation's (``chrF2++``).
        higher_is_better / digits / imported: the metric's direction, decimals, origin.
        signature: the first system's signature.
        scores: system -> corpus score (imported: mean of the scored segments).
        means / cis: system -> bootstrap mean and 95% half-width (absent: no test).
        best: the systems with the column's best score.
    """

    label: str
    name: str
    higher_is_better: bool
    digits: int
    imported: bool
    signature: str
    scores: Mapping[str, float]
    means: Mapping[str, float]
    cis: Mapping[str, float]
    best: frozenset[str]


@dataclass(frozen=True, slots=True)
class Ranking:
    """Systems ranked by the tested metric, their columns, the tested pairs and clusters.

    Attributes:
        order: the systems, best first by the tested metric.
        columns: the tested metric's first, then the others as chosen, then imported ones.
        tests: the counts the tests ran with.
        pairs: every pair (a before b in load order), Holm-adjusted when ``tests.holm``.
        clusters: the rank clusters, best first.
        signature: the tested metric's signature with the tests (sacrebleu's style).
    """

    order: tuple[str, ...]
    columns: tuple[MetricColumn, ...]
    tests: PairedCounts
    pairs: tuple[PairTest, ...]
    clusters: tuple[tuple[str, ...], ...]
    signature: str

    def cluster_of(self, system: str) -> int:
        """The 1-based number of ``system``'s cluster."""
        return next(i for i, c in enumerate(self.clusters, start=1) if system in c)


def metric_labels(evaluation: Evaluation, options: ReportOptions) -> list[str]:
    """Every metric the report shows: the computed ones chosen, then every imported score."""
    imported = [s.name for s in evaluation.testset.seg_scores]
    return [*options.metrics, *(label for label in imported if label not in options.metrics)]


def scored(evaluation: Evaluation, options: ReportOptions, label: str) -> Evaluation:
    """The evaluation ``label`` is scored with (its override, else the report's own)."""
    return evaluation.with_settings(options.settings_for(label, evaluation.settings))


def rank_systems(evaluation: Evaluation, options: ReportOptions) -> Ranking:
    """Score every metric, test every pair of the tested metric, and rank the systems."""
    tests = options.tests
    names = list(evaluation.testset.systems)
    tested = scored(evaluation, options, tests.metric)
    tested_scores = tested.scores(tests.metric)
    spec = tested.metric(tests.metric)
    counts = (tests.n_bootstrap, tests.n_ar, tests.seed)
    pairs: list[PairTest] = []
    clusters = [names]
    if len(names) > 1:
        totals, pairs = tested_pairs(spec, tested.settings, tested_scores, *counts)
        pairs = holm(pairs) if tests.holm else pairs
        clusters = rank_clusters(totals, pairs, spec.higher_is_better, ALPHA)
    columns = [
        _column(scored(evaluation, options, label), label, tests, label == tests.metric)
        for label in metric_labels(evaluation, options)
    ]
    columns.sort(key=lambda c: c.label != tests.metric)
    corpus = {name: tested_scores[name].corpus for name in names}
    first = tested_scores[names[0]].signature
    return Ranking(
        tuple(rank_order(corpus, spec.higher_is_better)),
        tuple(columns),
        tests,
        tuple(pairs),
        tuple(tuple(c) for c in clusters),
        paired_signature(first, *counts),
    )


def _column(evaluation: Evaluation, label: str, tests: PairedCounts, tested: bool) -> MetricColumn:
    """One metric's scores, CIs and best systems (``tested``: the pairs' metric)."""
    spec = evaluation.metric(label)
    scores = evaluation.scores(label)
    names = list(scores)
    n_bootstrap = tests.n_bootstrap if tested else OTHER_RESAMPLES
    results = _intervals(evaluation, label, scores, n_bootstrap, tests.seed)
    corpus = {name: scores[name].corpus for name in names}
    return MetricColumn(
        label,
        spec.score_name(evaluation.settings),
        spec.higher_is_better,
        spec.digits,
        spec.imported,
        scores[names[0]].signature,
        corpus,
        {r.name: r.mean for r in results},
        {r.name: r.ci for r in results},
        frozenset(best_systems(corpus, spec.higher_is_better)),
    )


def _intervals(
    evaluation: Evaluation,
    label: str,
    scores: Mapping[str, MetricScores],
    n_bootstrap: int,
    seed: int,
) -> list[PairedResult]:
    """Each system's bootstrap mean and CI, the first system as baseline (none: no test).

    The intervals come from the bootstrap alone (randomization trials change no CI),
    so no trial runs here.
    """
    spec = evaluation.metric(label)
    if not (spec.paired_tests or spec.imported):
        return []
    names = list(scores)
    try:
        return paired_test(spec, evaluation.settings, names[0], scores, n_bootstrap, 0, seed)
    except BleuvizError:  # an imported score no two systems share segments of: no CI
        return []
