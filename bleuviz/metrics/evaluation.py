"""One evaluation bundle: a test set, its settings, and every metric's scores, on demand.

What pages and commands pass around. Each metric's scores of every system are
computed the first time they are asked for and kept, keyed on the settings the
metric reads (``MetricSpec.reads``): a change of chrF's lowercase switch leaves
BLEU's scores in place, a change of BLEU's smoothing leaves its tokenized
statistics in place. Imported scores belong to the test set, so the bundle
offers them like any metric. Thread-safe: a worker thread may fill it while the
page reads it.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from bleuviz.metrics.bleu_metric import BLEU, rows_of
from bleuviz.metrics.registry import get_metric, metrics_of
from bleuviz.metrics.spec import MetricScores, MetricSpec, Settings

if TYPE_CHECKING:
    from bleuviz.arrays import FloatArray
    from bleuviz.bleu.corpus import CorpusStats
    from bleuviz.bleu.tokenize import TokenizeConfig
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress


@dataclass(slots=True)
class _Memo:
    """What a bundle and its siblings (other settings, same test set) have computed."""

    rows: dict[Hashable, dict[str, FloatArray]] = field(default_factory=dict)
    scores: dict[tuple[MetricSpec, Settings], dict[str, MetricScores]] = field(default_factory=dict)
    statistics: dict[tuple[TokenizeConfig, int], CorpusStats] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)


@dataclass(frozen=True, slots=True, eq=False)
class Evaluation:
    """A test set under some settings, with each metric's scores computed on demand.

    Attributes:
        testset: the text, with its imported scores.
        settings: what the metrics read (BLEU's flavour and tokenization, the switches).
    """

    testset: TestSet
    settings: Settings = field(default_factory=Settings)
    _memo: _Memo = field(default_factory=_Memo, repr=False)

    @property
    def metrics(self) -> dict[str, MetricSpec]:
        """Every metric of this test set: the computed ones, then the imported ones."""
        return metrics_of(self.testset)

    def metric(self, label: str) -> MetricSpec:
        """Return the metric ``label`` (computed or imported).

        Raises:
            InputError: no such metric.
        """
        return get_metric(label, self.testset)

    def with_settings(self, settings: Settings) -> Evaluation:
        """Return this test set under ``settings``, sharing everything already computed."""
        return replace(self, settings=settings)

    def with_testset(self, testset: TestSet) -> Evaluation:
        """Return the same text with other imported scores (or directions), sharing the rest.

        ``testset`` must hold the same systems and references: what is computed
        from them is kept.
        """
        return replace(self, testset=testset)

    def rows(
        self, label: str, systems: Sequence[str] | None = None, progress: Progress | None = None
    ) -> dict[str, FloatArray]:
        """Return the metric's rows of ``systems`` (all by default), computing those not held."""
        metric = self.metric(label)
        names = list(self.testset.systems if systems is None else systems)
        with self._memo.lock:
            held = self._memo.rows.setdefault(_rows_key(metric, self.settings), {})
            todo = [name for name in names if name not in held]
            if todo:
                if metric is BLEU:  # BLEU's rows are its statistics, counted once for all
                    held.update(rows_of(self.bleu_statistics(progress), todo))
                else:
                    held.update(metric.rows(self.testset, self.settings, todo, progress))
            return {name: held[name] for name in names}

    def scores(
        self, label: str, systems: Sequence[str] | None = None, progress: Progress | None = None
    ) -> dict[str, MetricScores]:
        """Return the scores of ``systems`` (all by default) by the metric ``label``."""
        metric = self.metric(label)
        names = list(self.testset.systems if systems is None else systems)
        with self._memo.lock:
            held = self._memo.scores.setdefault((metric, metric.reads(self.settings)), {})
            todo = [name for name in names if name not in held]
            if todo:
                rows = self.rows(label, todo, progress)
                held.update(metric.scores_from_rows(self.testset, self.settings, rows))
            return {name: held[name] for name in names}

    def has_scores(self, label: str, system: str) -> bool:
        """Whether ``system``'s scores of ``label`` under these settings are held."""
        metric = self.metric(label)
        with self._memo.lock:
            return system in self._memo.scores.get((metric, metric.reads(self.settings)), {})

    def bleu_statistics(self, progress: Progress | None = None) -> CorpusStats:
        """Return BLEU's statistics of every system under this tokenization (counted once).

        BLEU's own evidence (precisions, the brevity penalty, a segment's n-grams)
        is read from them; its rows are their matrices.
        """
        from bleuviz.bleu.corpus import compute_corpus_stats

        tokenize, order = self.settings.tokenize, self.settings.bleu.stats_order
        with self._memo.lock:
            for (done_tokenize, done_order), corpus in self._memo.statistics.items():
                if done_tokenize == tokenize and done_order >= order:
                    return corpus
            corpus = compute_corpus_stats(
                self.testset, tokenize, order, self.settings.workers, progress=progress
            )
            self._memo.statistics[(tokenize, order)] = corpus
            return corpus

    def seed_statistics(self, corpus: CorpusStats) -> None:
        """Keep BLEU's statistics counted elsewhere (the app counts them ahead, with progress)."""
        orders = corpus.systems[next(iter(corpus.systems))].max_order if corpus.systems else 0
        with self._memo.lock:
            self._memo.statistics[(corpus.tokenize, orders)] = corpus


def _rows_key(metric: MetricSpec, settings: Settings) -> Hashable:
    """What a metric's rows depend on: BLEU's, its tokenization and the orders counted
    (not how they become scores); any other's, all the settings it reads."""
    if metric is BLEU:
        return (metric.label, settings.tokenize, settings.bleu.stats_order)
    return (metric, metric.reads(settings))
