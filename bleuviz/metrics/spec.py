"""The metric protocol: what every metric, BLEU included, provides, and what it returns.

Modelled on sacrebleu's ``Metric`` hooks (statistics of a segment, a score from
statistics) and ExplainaBoard's ``Metric`` class. A metric turns a test set (or
a chunk of one) into one row per segment: additive sufficient statistics where
the metric has them (BLEU, chrF, TER), else one value per segment (ROUGE's
F-measure, an imported COMET score). Corpus and sentence scores are computed
from rows, never from text, so a subset, a bucket, a resample or a Dask chunk's
rows are scored by the same two methods. Callers ask the registry
(:mod:`bleuviz.metrics.registry`) for a metric and call these methods; they
never branch on a metric's name.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Protocol

import numpy as np
from numpy.typing import ArrayLike

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError
from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.metrics.score_report import ScoreReport, in_chunks
from bleuviz.metrics.ter_config import TerConfig

if TYPE_CHECKING:
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress
    from bleuviz.rouge.explain import TypeExplanation


@dataclass(frozen=True, slots=True)
class MetricOptions:
    """The app's switches beside BLEU's settings; each metric says which ones it reads."""

    lowercase: bool = False
    stemmer: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything any metric may read; a metric keeps what it reads (``MetricSpec.reads``).

    Attributes:
        bleu: how BLEU statistics become scores (flavour, order, smoothing).
        tokenize: BLEU's tokenization, its lowercasing included.
        options: the switches other metrics read (chrF's lowercase, ROUGE's stemmer).
        chrf: chrF's full options (the command line's ``--chrf-*``); None: the
            metric's own orders with ``options.lowercase``.
        ter: TER's options (sacrebleu's defaults unless the command line sets them).
        workers: threads or processes a metric may count with (not part of a result).
    """

    bleu: BleuConfig = field(default_factory=BleuConfig)
    tokenize: TokenizeConfig = field(default_factory=TokenizeConfig)
    options: MetricOptions = field(default_factory=MetricOptions)
    chrf: ChrfConfig | None = None
    ter: TerConfig = field(default_factory=TerConfig)
    workers: int = field(default=1, compare=False)


@dataclass(frozen=True, slots=True)
class MetricDetail:
    """What a metric computed for one system: its rows and the scores made from them.

    Every metric returns at least this; a metric with more evidence returns a
    subclass (BLEU's precisions, brevity penalty and lengths: ``BleuDetail``;
    an imported score's direction and coverage: ``ImportedDetail``). The
    evaluation bundle computes it once per system and settings
    (``Evaluation.detail``); the metric's ``MetricScores`` are read from it.

    Attributes:
        rows: the segment rows, one per segment (read-only): statistics that sum
            (BLEU, chrF, TER), or one value each (ROUGE, imported scores).
        sentence: each segment's own score (read-only).
        corpus: the corpus score (of summed statistics), or the mean sentence score.
        signature: the implementation's own signature, or one in sacrebleu's style.
    """

    rows: FloatArray
    sentence: FloatArray
    corpus: float
    signature: str


class Resampler(Protocol):
    """How one metric scores rows of summed statistics (``bleuviz.significance.paired``).

    ``lasts`` holds, per row, the statistics row of the last segment of the
    resample or pseudo-system (nltk's BLEU smoothing reads it; others ignore it).
    """

    def total(self, matrix: FloatArray) -> FloatArray:
        """Sum a system's rows as the implementation does (the order can matter)."""
        ...

    def corpus_score(self, matrix: FloatArray) -> float:
        """Score one system's whole corpus."""
        ...

    def bootstrap_scores(self, sums: FloatArray, lasts: FloatArray) -> ArrayLike:
        """Score bootstrap resamples (the implementation's number types kept)."""
        ...

    def trial_scores(self, sums: FloatArray, lasts: FloatArray) -> ArrayLike:
        """Score approximate-randomization pseudo-systems."""
        ...


@dataclass(frozen=True, slots=True)
class MetricSpec(ABC):
    """One metric: its name, direction and options, its rows, scores from rows, its tests.

    Attributes:
        label: the name shown in the app and accepted on the command line.
        key: the implementation's own name (sacrebleu's label, rouge-score's type).
        higher_is_better: False for an error rate (TER) or an error score.
        scale: the score's nominal maximum (100, or 1 for ROUGE F and imported scores).
        reads_lowercase: whether the lowercase switch changes it (chrF; BLEU reads
            its tokenization's own).
        reads_stemmer: whether the Porter-stemmer switch changes it (ROUGE).
        paired_tests: whether its rows are statistics that sum to the corpus score,
            so that sacrebleu's paired tests resample them (``resampler``).
        mean_of_sentences: whether the corpus figure is a mean of sentence scores
            (ROUGE, imported scores) rather than a score of summed statistics.
        rouge_type: rouge-score's type name, for the drill-down's token
            explanation; None for metrics that are not ROUGE.
        imported: whether its scores were read from a file (COMET, human
            judgements); its paired tests compare means
            (``bleuviz.significance.mean``), and a segment may lack a score (NaN).
        always_on: shown on every page (BLEU) rather than chosen beside it.
        bucket_edges: the edges segments are bucketed by on this metric's sentence
            scores, where the metric has customary ones (BLEU: tens, as
            compare-mt); else none (quartiles are used).
    """

    label: str
    key: str
    higher_is_better: bool = True
    scale: float = 100.0
    reads_lowercase: bool = False
    reads_stemmer: bool = False
    paired_tests: bool = False
    mean_of_sentences: bool = False
    rouge_type: str | None = None
    imported: bool = False
    always_on: bool = False
    bucket_edges: tuple[float, ...] = ()

    @property
    def digits(self) -> int:
        """Decimals to print: 2 on a 0-100 scale, 4 on a 0-1 scale."""
        return 2 if self.scale >= 100 else 4

    def score_name(self, settings: Settings) -> str:
        """The name the implementation prints for the score (sacrebleu's ``chrF2++``)."""
        return self.label

    def options(self, lowercase: bool = False, stemmer: bool = False) -> MetricOptions:
        """Keep only the switches this metric reads (for cache keys and scoring)."""
        return MetricOptions(lowercase and self.reads_lowercase, stemmer and self.reads_stemmer)

    def reads(self, settings: Settings) -> Settings:
        """Keep only the settings this metric's rows and scores depend on (a cache key)."""
        options = settings.options
        return Settings(
            options=self.options(options.lowercase, options.stemmer), workers=settings.workers
        )

    @abstractmethod
    def rows(
        self,
        testset: TestSet,
        settings: Settings,
        systems: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> dict[str, FloatArray]:
        """Return each system's rows (all systems by default): one per segment.

        Raises:
            InputError: no segments, or the scores cannot be computed from this text.
        """

    @abstractmethod
    def corpus_score(self, rows: FloatArray, settings: Settings) -> float:
        """Return the corpus score of ``rows`` (a whole test set or any selection)."""

    @abstractmethod
    def sentence_scores(self, rows: FloatArray, settings: Settings) -> FloatArray:
        """Return each row's own score."""

    @abstractmethod
    def signature(self, testset: TestSet, settings: Settings, rows: FloatArray) -> str:
        """Return the implementation's signature (or one in sacrebleu's style)."""

    def resampler(self, settings: Settings, rows: FloatArray) -> Resampler:
        """Return what scores resampled sums of ``rows``, for the paired tests.

        Raises:
            ConfigError: the metric's rows do not sum (``paired_tests`` is False).
        """
        raise ConfigError(f"metric: {self.label} has no statistics to resample")

    def detail(self, testset: TestSet, settings: Settings, rows: FloatArray) -> MetricDetail:
        """Return what this metric computed for one system's ``rows``: its scores and evidence."""
        return MetricDetail(
            readonly(rows),
            readonly(self.sentence_scores(rows, settings)),
            self.corpus_score(rows, settings),
            self.signature(testset, settings, rows),
        )

    def scores_of(self, detail: MetricDetail) -> MetricScores:
        """Return the scores read from ``detail`` (the rows kept where they sum)."""
        stats = detail.rows if self.paired_tests else None
        return MetricScores(self, detail.sentence, detail.corpus, detail.signature, stats)

    def score_systems(
        self,
        testset: TestSet,
        settings: Settings,
        systems: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> dict[str, MetricScores]:
        """Return each system's sentence and corpus scores, signature and rows."""
        rows = self.rows(testset, settings, systems, progress)
        return self.scores_from_rows(testset, settings, rows)

    def scores_from_rows(
        self, testset: TestSet, settings: Settings, rows: Mapping[str, FloatArray]
    ) -> dict[str, MetricScores]:
        """Return the scores of rows already computed (cached, or gathered from chunks)."""
        return {
            name: self.scores_of(self.detail(testset, settings, matrix))
            for name, matrix in rows.items()
        }

    def subset_score(
        self, scores: MetricScores, indices: Sequence[int], settings: Settings
    ) -> float:
        """Return the corpus score of the segments at ``indices``, from their summed rows.

        Raises:
            ConfigError: the metric's rows do not sum (ROUGE, imported scores).
        """
        selected = scores.statistics()[np.asarray(indices, dtype=np.int64)]
        return self.corpus_score(selected, settings)

    # How a metric is reported: each answers for itself, so that a command or a page
    # loops over the chosen metrics and never asks which one it holds.

    @property
    def json_alias(self) -> str | None:
        """Return the key a JSON row also gives the score under, beside ``score``.

        None here; BLEU's ``bleu`` (sacrebleu's JSON key, which ``compare``'s JSON
        kept when it learned other metrics, so that scripts reading it still work).
        """
        return None

    def heading(self) -> str:
        """Return the column heading of the corpus figure (the metric's label here).

        A metric whose corpus figure is not its score of the corpus says what it is
        instead (ROUGE's ``mean ROUGE-1 F``).
        """
        return self.label

    def score_report(
        self, scores: MetricScores, rows: FloatArray, settings: Settings
    ) -> ScoreReport:
        """Return how the command line's ``score`` reports one system's ``scores``.

        As sacrebleu reports a metric beside BLEU: ``chrF2 = 57.70`` (the name the
        settings give, the metric's decimals), the JSON fields ``name``, ``score``
        and ``signature`` listed under the system's ``metrics``, the signature line
        ``chrF2|nrefs:1|...``, one LaTeX column, and the sentence scores as numbers.

        Args:
            scores: the system's scores of this metric.
            rows: rows whose sum and last row are the corpus's (every segment's, or
                the two Dask's totals keep); a metric whose report shows more than
                its score reads it from them (BLEU's precisions and lengths).
            settings: the settings ``scores`` were computed with.
        """
        name = self.score_name(settings)
        cell = f"{scores.corpus:.{self.digits}f}"
        return ScoreReport(
            name=name,
            score=scores.corpus,
            digits=self.digits,
            line=f"{name} = {cell}",
            fields={"name": name, "score": scores.corpus, "signature": scores.signature},
            listed=True,
            signature=scores.signature,
            signature_prefix=f"{name}|",
            columns=((name, cell),),
            sentences=partial(in_chunks, scores.sentence),
        )

    def shown_name(self, escape: Callable[[str], str]) -> str:
        """Return the label for an element that renders Markdown.

        A computed metric's label is bleuviz's own and shown as it is; an imported
        metric's comes from the data, so the override passes it through ``escape``
        (the app's Markdown escaping: this package imports no renderer).
        """
        return self.label

    def sentence_title(self, escape: Callable[[str], str]) -> str:
        """Return a card's title for one segment's score ("Sentence chrF").

        Says what the number is: a score computed on the segment alone, or (an
        imported metric's override) a score read from a file.
        """
        return f"Sentence {self.shown_name(escape)}"

    def column_heading(self, escape: Callable[[str], str]) -> str:
        """Return the app's systems-table heading of the corpus figure.

        The command line's ``heading`` (ROUGE's "mean ROUGE-1 F"); an imported
        score's override names its mean with its 95% interval, from the data
        (escaped).
        """
        return self.heading()

    def mean_interval_note(self) -> str | None:
        """Return what the Overview says of this metric's own cards, or None for none.

        A metric whose corpus figure is a mean of scores read from a file (an
        imported score) is shown as that mean with a bootstrap interval, in a row
        of cards and in the systems table; a computed metric's corpus score comes
        with its paired tests instead (None).
        """
        return None

    def subset_name(self, escape: Callable[[str], str]) -> str:
        """Return what a caption calls this metric's score of a subset of segments.

        A metric whose rows are statistics that sum scores a subset as a corpus of
        its own ("chrF"); one whose corpus figure is a mean of sentence scores
        scores it as their mean ("mean ROUGE-1"). BLEU's override says "corpus BLEU".
        """
        name = self.shown_name(escape)
        return f"mean {name}" if self.mean_of_sentences else name

    def token_explanation(
        self, hyp: str, refs: Sequence[str], settings: Settings
    ) -> TypeExplanation | None:
        """Return which tokens make one segment's score, for the drill-down, or None.

        Only ROUGE explains its score by tokens beside BLEU's n-grams (its
        override: rouge-score's tokens of the hypothesis and the best reference);
        every other metric has no such explanation (None).
        """
        return None

    def sentence_range(self, sentences: Iterable[FloatArray]) -> ScoreRange:
        """Return how a chart's axis reads this metric's sentence scores: its nominal range.

        ``sentences``: every system's sentence scores, for a metric without a
        nominal range (an imported score reads its range off them).
        """
        return ScoreRange(f"sentence {self.label}", self.scale)

    def paired_test_note(self) -> str | None:
        """Return what a page says after the metric's name of how its corpus figure is
        tested, where the figure is not the metric's own corpus score (None: nothing)."""
        return None


@dataclass(frozen=True, slots=True)
class MetricScores:
    """One metric of one system: sentence scores, the corpus score and its signature.

    Attributes:
        spec: which metric.
        sentence: one score per segment (read-only).
        corpus: the corpus score (of summed statistics), or the mean sentence score.
        signature: the implementation's own signature, or one in sacrebleu's style.
        stats: the segment statistics, one row per segment (read-only); None for
            a metric without statistics that sum (ROUGE, imported scores).
    """

    spec: MetricSpec
    sentence: FloatArray
    corpus: float
    signature: str
    stats: FloatArray | None = None

    def select(self, indices: Sequence[int] | IntArray, settings: Settings) -> MetricScores:
        """Return the scores of the segments at ``indices``: a subset, a bucket, a document.

        The corpus score is the metric's own of the selected rows (summed
        statistics, or the mean of the selected sentence scores).
        """
        index = np.asarray(indices, dtype=np.int64)
        sentence = readonly(self.sentence[index])
        if self.stats is not None:
            stats = readonly(self.stats[index])
            return replace(
                self, sentence=sentence, corpus=self.spec.corpus_score(stats, settings), stats=stats
            )
        corpus = self.spec.corpus_score(sentence[:, None], settings)
        return replace(self, sentence=sentence, corpus=corpus)

    def statistics(self) -> FloatArray:
        """Return the segment statistics.

        Raises:
            ConfigError: a metric without statistics that sum (ROUGE).
        """
        if self.stats is None:
            raise ConfigError(f"metric: {self.spec.label} has no statistics to sum")
        return self.stats


def only(testset: TestSet, systems: Sequence[str] | None) -> TestSet:
    """Return ``testset`` with only ``systems`` (all of them for None), its text unchanged."""
    if systems is None:
        return testset
    from bleuviz.io.testset import TestSet

    return TestSet({name: testset.systems[name] for name in systems}, testset.references)


def readonly(array: FloatArray) -> FloatArray:
    """Mark ``array`` read-only (results are cached and shared) and return it."""
    array.flags.writeable = False
    return array


@dataclass(frozen=True, slots=True)
class ScoreRange:
    """How a chart's axis reads a metric's sentence scores (``MetricSpec.sentence_range``).

    Attributes:
        label: the axis title.
        scale: the largest magnitude (the nominal maximum: 100, or 1 for ROUGE).
        floor: the lowest value shown (0, or below for an MQM penalty).
        top: the highest value shown (None: ``scale``).
    """

    label: str
    scale: float
    floor: float = 0.0
    top: float | None = None
