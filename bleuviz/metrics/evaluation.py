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
from collections.abc import Hashable, Mapping
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

    rows: dict[Hashable, Mapping[str, FloatArray]] = field(default_factory=dict)
    scores: dict[tuple[str, Settings], dict[str, MetricScores]] = field(default_factory=dict)
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

    def rows(self, label: str, progress: Progress | None = None) -> Mapping[str, FloatArray]:
        """Return the metric's rows of every system (computed once per settings it reads)."""
        metric = self.metric(label)
        key = _rows_key(label, metric, self.settings)
        with self._memo.lock:
            if key not in self._memo.rows:
                if metric is BLEU:  # BLEU's rows are its statistics, counted once
                    rows = rows_of(self.bleu_statistics(progress))
                else:
                    rows = metric.rows(self.testset, self.settings, progress=progress)
                self._memo.rows[key] = rows
            return self._memo.rows[key]

    def scores(self, label: str, progress: Progress | None = None) -> Mapping[str, MetricScores]:
        """Return every system's scores of the metric ``label``."""
        metric = self.metric(label)
        key = (label, metric.reads(self.settings))
        with self._memo.lock:
            if key not in self._memo.scores:
                rows = self.rows(label, progress)
                self._memo.scores[key] = metric.scores_from_rows(self.testset, self.settings, rows)
            return self._memo.scores[key]

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


def _rows_key(label: str, metric: MetricSpec, settings: Settings) -> Hashable:
    """What a metric's rows depend on: BLEU's, its tokenization and the orders counted
    (not how they become scores); any other's, all the settings it reads."""
    if metric is BLEU:
        return (label, settings.tokenize, settings.bleu.stats_order)
    return (label, metric.reads(settings))
