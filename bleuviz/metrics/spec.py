"""What a metric beside BLEU is (name, direction, scale, options, scorer) and what it returns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bleuviz.arrays import FloatArray
from bleuviz.errors import ConfigError

#: Score one system: ``(spec, hyps, references, options)`` -> its scores.
Scorer = Callable[
    ["MetricSpec", Sequence[str], Sequence[Sequence[str]], "MetricOptions"], "MetricScores"
]


@dataclass(frozen=True, slots=True)
class MetricOptions:
    """Options a metric may read; each spec says which ones it does."""

    lowercase: bool = False
    stemmer: bool = False


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """What a metric is and how to read it.

    Attributes:
        label: the name shown in the app ("chrF", "ROUGE-L").
        key: the implementation's own name (sacrebleu's label, rouge-score's type).
        scorer: computes the metric for one system.
        higher_is_better: False for an error rate (TER).
        scale: the score's nominal maximum (100, or 1 for ROUGE F).
        reads_lowercase: whether the lowercase switch changes it (chrF; TER is
            case-insensitive by default).
        reads_stemmer: whether the Porter-stemmer switch changes it (ROUGE).
        paired_tests: whether its segments carry statistics that sum to the corpus
            score, so that sacrebleu's paired tests apply.
        mean_of_sentences: whether the corpus figure is a mean of sentence scores
            (ROUGE), rather than a score of summed statistics.
        rouge_type: rouge-score's type name, for the drill-down's token
            explanation; None for metrics that are not ROUGE.
        imported: whether its scores were read from a file (COMET, human
            judgements); its paired tests compare means
            (``bleuviz.significance.mean``), and a segment may lack a score (NaN).
    """

    label: str
    key: str
    scorer: Scorer
    higher_is_better: bool = True
    scale: float = 100.0
    reads_lowercase: bool = False
    reads_stemmer: bool = False
    paired_tests: bool = False
    mean_of_sentences: bool = False
    rouge_type: str | None = None
    imported: bool = False

    def options(self, lowercase: bool = False, stemmer: bool = False) -> MetricOptions:
        """Keep only the options this metric reads (for cache keys and scoring)."""
        return MetricOptions(lowercase and self.reads_lowercase, stemmer and self.reads_stemmer)


@dataclass(frozen=True, slots=True)
class MetricScores:
    """One metric of one system: sentence scores, the corpus score and its signature.

    Attributes:
        spec: which metric.
        sentence: one score per segment (read-only).
        corpus: the corpus score (of summed statistics), or the mean sentence score.
        signature: the implementation's own signature, or one in sacrebleu's style.
        stats: the segment statistics, one row per segment (read-only); None for
            a metric without statistics that sum (ROUGE).
    """

    spec: MetricSpec
    sentence: FloatArray
    corpus: float
    signature: str
    stats: FloatArray | None = None

    def statistics(self) -> FloatArray:
        """Return the segment statistics.

        Raises:
            ConfigError: a metric without statistics that sum (ROUGE).
        """
        if self.stats is None:
            raise ConfigError(f"metric: {self.spec.label} has no statistics to sum")
        return self.stats


def readonly(array: FloatArray) -> FloatArray:
    """Mark ``array`` read-only (results are cached and shared) and return it."""
    array.flags.writeable = False
    return array
