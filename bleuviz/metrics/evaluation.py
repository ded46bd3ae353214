"""One evaluation bundle: a test set, its settings, and every metric's scores, on demand.

What pages, sections, exports and commands take. Each metric's detail of every
system (its rows, sentence and corpus scores, signature, and the metric's own
evidence: BLEU's precisions, brevity penalty and lengths) is computed the first
time it is asked for and kept, keyed on the settings the metric reads
(``MetricSpec.reads``): a change of chrF's lowercase switch leaves BLEU's
scores in place, a change of BLEU's smoothing leaves its tokenized statistics
in place. Imported scores belong to the test set, so the bundle offers them
like any metric. Thread-safe: a worker thread may fill it while the page reads it.

A bundle is its own cache key: ``key`` is the content of its test set (the
app's content ids, or a digest of the text and imported scores) and its
settings, so a cache keyed on it needs no other argument to tell two test sets
or two settings apart.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Generic, TypeVar

from bleuviz.errors import ConfigError
from bleuviz.metrics.bleu_metric import BLEU, BleuDetail, rows_of
from bleuviz.metrics.registry import get_metric, metrics_of
from bleuviz.metrics.spec import MetricDetail, MetricScores, MetricSpec, Settings

if TYPE_CHECKING:
    from bleuviz.arrays import FloatArray
    from bleuviz.bleu.corpus import CorpusStats
    from bleuviz.bleu.tokenize import TokenizeConfig
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress


#: Settings variants kept per metric (and BLEU statistics kept per test set): a server
#: that serves one test set for days under many settings keeps the latest few only.
VARIANTS = 4

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Recent(Generic[K, V]):
    """The most recently used entries, at most ``VARIANTS`` of each group (its key's first part)."""

    def __init__(self) -> None:
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The entry, now the most recent of its group (None if not held)."""
        if key not in self._items:
            return None
        self._items.move_to_end(key)
        return self._items[key]

    def peek(self, key: K) -> V | None:
        """The entry, its recency unchanged (None if not held)."""
        return self._items.get(key)

    def put(self, key: K, value: V) -> V:
        """Hold ``value``, letting go of its group's least recent entry beyond ``VARIANTS``."""
        self._items[key] = value
        self._items.move_to_end(key)
        group = [k for k in self._items if _group(k) == _group(key)]
        for old in group[: max(len(group) - VARIANTS, 0)]:
            del self._items[old]
        return value

    def items(self) -> list[tuple[K, V]]:
        """Every entry, least recent first."""
        return list(self._items.items())


def _group(key: Hashable) -> Hashable:
    """A memo key's group: the metric (or its label) it begins with."""
    return key[0] if isinstance(key, tuple) else key


@dataclass(slots=True)
class _Memo:
    """What a bundle and its siblings (other settings, same test set) have computed."""

    rows: _Recent[Hashable, dict[str, FloatArray]] = field(default_factory=_Recent)
    details: _Recent[tuple[MetricSpec, Settings], dict[str, MetricDetail]] = field(
        default_factory=_Recent
    )
    scores: _Recent[tuple[MetricSpec, Settings], dict[str, MetricScores]] = field(
        default_factory=_Recent
    )
    digests: list[tuple[TestSet, str]] = field(default_factory=list)
    statistics: _Recent[tuple[str, TokenizeConfig, int], CorpusStats] = field(
        default_factory=_Recent
    )
    lock: threading.RLock = field(default_factory=threading.RLock)


@dataclass(frozen=True, slots=True, eq=False)
class Evaluation:
    """A test set under some settings, with each metric's scores computed on demand.

    Attributes:
        testset: the text, with its imported scores.
        settings: what the metrics read (BLEU's flavour and tokenization, the switches).
        content: what identifies the test set's content, imported scores and their
            directions included (the app passes its content ids); None: a digest
            of the text and scores, computed once when ``key`` is first read.
    """

    testset: TestSet
    settings: Settings = field(default_factory=Settings)
    content: Hashable = None
    _memo: _Memo = field(default_factory=_Memo, repr=False)

    @property
    def key(self) -> tuple[Hashable, Settings]:
        """This bundle as a cache key: its test set's content and its settings.

        Two bundles with equal keys give the same numbers; the worker count, which
        changes no number, is left out.
        """
        return (self._content(), replace(self.settings, workers=1))

    def reading(self, label: str) -> Evaluation:
        """This bundle under only the settings ``label`` reads: a cache keyed on the result
        keeps its entries when a setting the metric ignores changes."""
        metric = self.metric(label)
        return replace(self, settings=metric.reads(self.settings))

    def _content(self) -> Hashable:
        """``content``, or the digest of the test set's text and imported scores."""
        if self.content is not None:
            return self.content
        with self._memo.lock:
            for testset, digest in self._memo.digests:
                if testset is self.testset:
                    return digest
            digest = _digest(self.testset)
            self._memo.digests[:] = [*self._memo.digests[-(VARIANTS - 1) :], (self.testset, digest)]
            return digest

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

    def with_testset(self, testset: TestSet, content: Hashable = None) -> Evaluation:
        """Return the same text with other imported scores (or directions), sharing the rest.

        ``testset`` must hold the same systems and references: what is computed
        from them is kept. ``content`` identifies it (None: its digest).
        """
        return replace(self, testset=testset, content=content)

    def rows(
        self, label: str, systems: Sequence[str] | None = None, progress: Progress | None = None
    ) -> dict[str, FloatArray]:
        """Return the metric's rows of ``systems`` (all by default), computing those not held."""
        metric = self.metric(label)
        names = list(self.testset.systems if systems is None else systems)
        key = _rows_key(metric, self.settings)
        with self._memo.lock:
            held = self._memo.rows.get(key) or self._memo.rows.put(key, {})
            todo = [name for name in names if name not in held]
            if todo:
                if metric is BLEU:  # BLEU's rows are its statistics, counted once for all
                    held.update(rows_of(self.bleu_statistics(progress), todo))
                else:
                    held.update(metric.rows(self.testset, self.settings, todo, progress))
            return {name: held[name] for name in names}

    def details(
        self, label: str, systems: Sequence[str] | None = None, progress: Progress | None = None
    ) -> dict[str, MetricDetail]:
        """Return what the metric ``label`` computed for ``systems`` (all by default)."""
        metric = self.metric(label)
        names = list(self.testset.systems if systems is None else systems)
        key = (metric, metric.reads(self.settings))
        with self._memo.lock:
            held = self._memo.details.get(key) or self._memo.details.put(key, {})
            todo = [name for name in names if name not in held]
            if todo:
                rows = self.rows(label, todo, progress)
                held.update(
                    {name: metric.detail(self.testset, self.settings, rows[name]) for name in todo}
                )
            return {name: held[name] for name in names}

    def detail(self, label: str, system: str) -> MetricDetail:
        """Return what the metric ``label`` computed for ``system``."""
        return self.details(label, [system])[system]

    def bleu(self, system: str) -> BleuDetail:
        """Return BLEU's scores of ``system`` with its evidence (precisions, brevity penalty,
        lengths, sentence arrays), under these settings."""
        detail = self.detail(BLEU.label, system)
        if not isinstance(detail, BleuDetail):  # pragma: no cover - BLEU's detail is its own
            raise ConfigError(f"metric: {BLEU.label} gave no BLEU detail")
        return detail

    def scores(
        self, label: str, systems: Sequence[str] | None = None, progress: Progress | None = None
    ) -> dict[str, MetricScores]:
        """Return the scores of ``systems`` (all by default) by the metric ``label``."""
        metric = self.metric(label)
        names = list(self.testset.systems if systems is None else systems)
        key = (metric, metric.reads(self.settings))
        with self._memo.lock:
            held = self._memo.scores.get(key) or self._memo.scores.put(key, {})
            todo = [name for name in names if name not in held]
            if todo:
                details = self.details(label, todo, progress)
                held.update({name: metric.scores_of(details[name]) for name in todo})
            return {name: held[name] for name in names}

    def counts_from_text(self, label: str, system: str) -> bool:
        """Whether ``system``'s scores of ``label`` would be counted from its text (seconds
        at 100,000 segments), rather than read: imported scores, rows already held, or
        BLEU's from statistics already counted under this tokenization."""
        metric = self.metric(label)
        with self._memo.lock:
            if metric.imported or system in (
                self._memo.rows.peek(_rows_key(metric, self.settings)) or {}
            ):
                return False
            if metric is BLEU:
                return self._held_statistics() is None
            return True

    def scores_key(self, label: str) -> Hashable:
        """What identifies ``label``'s scores here: the computations this bundle shares
        (with its siblings under other settings) and the settings the metric reads.

        Two calls with equal keys compute the same scores: a caller running them in
        the background may run one and let the other wait for it.
        """
        metric = self.metric(label)
        return (id(self._memo), metric, metric.reads(self.settings))

    def has_scores(self, label: str, system: str) -> bool:
        """Whether ``system``'s scores of ``label`` under these settings are held."""
        metric = self.metric(label)
        with self._memo.lock:
            return system in (self._memo.scores.peek((metric, metric.reads(self.settings))) or {})

    def bleu_statistics(self, progress: Progress | None = None) -> CorpusStats:
        """Return BLEU's statistics of every system under this tokenization (counted once).

        BLEU's own evidence (precisions, the brevity penalty, a segment's n-grams)
        is read from them; its rows are their matrices.
        """
        from bleuviz.bleu.corpus import compute_corpus_stats

        tokenize, order = self.settings.tokenize, self.settings.bleu.stats_order
        with self._memo.lock:
            held = self._held_statistics()
            if held is not None:
                self._memo.statistics.get(held[0])  # now the most recent
                return held[1]
            corpus = compute_corpus_stats(
                self.testset, tokenize, order, self.settings.workers, progress=progress
            )
            return self._memo.statistics.put((BLEU.label, tokenize, order), corpus)

    def _held_statistics(self) -> tuple[tuple[str, TokenizeConfig, int], CorpusStats] | None:
        """BLEU's statistics held for this tokenization, to at least the order needed."""
        tokenize, order = self.settings.tokenize, self.settings.bleu.stats_order
        for key, corpus in reversed(self._memo.statistics.items()):
            if key[1] == tokenize and key[2] >= order:
                return key, corpus
        return None

    def seed_statistics(self, corpus: CorpusStats) -> None:
        """Keep BLEU's statistics counted elsewhere (the app counts them ahead, with progress)."""
        orders = corpus.systems[next(iter(corpus.systems))].max_order if corpus.systems else 0
        with self._memo.lock:
            self._memo.statistics.put((BLEU.label, corpus.tokenize, orders), corpus)


def _digest(testset: TestSet) -> str:
    """A digest of the test set: its text, ids, imported scores and error spans."""
    digest = hashlib.sha256()
    streams: list[tuple[str, tuple[str, ...] | None]] = [
        (f"system {name}", lines) for name, lines in testset.systems.items()
    ]
    streams += [(f"reference {i}", stream) for i, stream in enumerate(testset.references)]
    streams += [("source", testset.source), ("documents", testset.doc_ids)]
    streams += [("segments", testset.seg_ids)]
    for name, lines in streams:
        if lines is not None:
            digest.update(f"\x00{name}\x00{len(lines)}\x00".encode())
            digest.update("\n".join(lines).encode("utf-8", "surrogatepass"))
    for scores in testset.seg_scores:
        digest.update(f"\x00scores {scores.name}\x00{scores.lower_is_better}".encode())
        for system, values in scores.values.items():
            digest.update(f"\x00{system}\x00".encode() + values.tobytes())
    # Spans are nested records: pickled, they are hashed whole (equal spans held as
    # distinct objects may pickle differently; that costs a cache entry, never a wrong hit).
    digest.update(pickle.dumps(testset.error_spans))
    return digest.hexdigest()


def _rows_key(metric: MetricSpec, settings: Settings) -> Hashable:
    """What a metric's rows depend on: BLEU's, its tokenization and the orders counted
    (not how they become scores); any other's, all the settings it reads."""
    if metric is BLEU:
        return (metric.label, settings.tokenize, settings.bleu.stats_order)
    return (metric, metric.reads(settings))
