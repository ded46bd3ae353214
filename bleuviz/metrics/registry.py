"""Every metric, BLEU included, by label: the one place that knows which metrics exist.

BLEU (every flavour: :mod:`bleuviz.metrics.bleu_metric`), chrF, chrF++ and TER
(exact replicas of sacrebleu's, with its names and signatures:
:mod:`bleuviz.metrics.chrf_scorers`, :mod:`bleuviz.metrics.ter_scorers`), ROUGE
(rouge-score 0.1.2: :mod:`bleuviz.metrics.rouge_metric`) and the metrics a test
set imports (:mod:`bleuviz.metrics.imported`). Callers ask a metric what they
need (direction, scale, options, rows, scores, resampler, signature); they never
compare metric names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bleuviz.errors import ConfigError
from bleuviz.metrics.bleu_metric import BLEU
from bleuviz.metrics.chrf_scorers import ChrfMetric
from bleuviz.metrics.imported import ImportedMetric
from bleuviz.metrics.rouge_metric import RougeMetric
from bleuviz.metrics.spec import MetricOptions, MetricScores, MetricSpec, Settings
from bleuviz.metrics.streams import check_streams
from bleuviz.metrics.ter_scorers import TerMetric

if TYPE_CHECKING:
    from bleuviz.io.scores import SegmentScores
    from bleuviz.io.testset import TestSet


def _rouge(label: str, key: str) -> RougeMetric:
    """A ROUGE type: F-measure on a 0-1 scale, the corpus figure a mean."""
    return RougeMetric(
        label, key, scale=1.0, reads_stemmer=True, mean_of_sentences=True, rouge_type=key
    )


#: Every metric bleuviz computes, BLEU first.
METRICS: Mapping[str, MetricSpec] = {
    spec.label: spec
    for spec in (
        BLEU,
        ChrfMetric("chrF", "chrF", reads_lowercase=True, paired_tests=True, word_order=0),
        ChrfMetric("chrF++", "chrF++", reads_lowercase=True, paired_tests=True, word_order=2),
        TerMetric("TER", "TER", higher_is_better=False, paired_tests=True),
        _rouge("ROUGE-1", "rouge1"),
        _rouge("ROUGE-2", "rouge2"),
        _rouge("ROUGE-L", "rougeL"),
        _rouge("ROUGE-Lsum", "rougeLsum"),
    )
}

#: The metrics a user adds beside the one every page shows.
EXTRA_METRICS: Mapping[str, MetricSpec] = {
    label: spec for label, spec in METRICS.items() if not spec.always_on
}

#: Metrics beside BLEU whose paired tests sacrebleu's ``PairedTest`` runs (and bleuviz
#: replicates).
SIGNIFICANCE_METRICS = tuple(label for label, spec in EXTRA_METRICS.items() if spec.paired_tests)

#: Metrics whose rows are statistics that sum to the corpus score (BLEU, chrF, chrF++,
#: TER), BLEU first: the ones sacrebleu's paired tests run on (the Compare page's
#: corpus metrics, before the imported ones), and the ones ``correlate`` computes
#: beside the imported scores (ROUGE's corpus figure is a mean of sentence scores,
#: which the imported scores stand for already).
SUMMED_METRICS = tuple(label for label, spec in METRICS.items() if spec.paired_tests)

#: Metrics whose corpus CI ``score --confidence`` draws: BLEU's, as sacrebleu's
#: ``--confidence`` draws it (sacrebleu draws chrF's and TER's too; bleuviz's
#: ``score`` never has, and ``compare`` gives every metric's mean and CI).
SCORE_CI_METRICS = (BLEU.label,)


def get_spec(label: str) -> MetricSpec:
    """Return the metric bleuviz computes under ``label``.

    Raises:
        ConfigError: not one of :data:`METRICS`.
    """
    if label not in METRICS:
        raise ConfigError(f"metric: unknown {label!r}; choose from {', '.join(METRICS)}")
    return METRICS[label]


def imported_spec(scores: SegmentScores) -> ImportedMetric:
    """Return the metric of imported scores.

    Raises:
        ConfigError: its name is a metric bleuviz computes itself (BLEU, chrF, ...).
    """
    # BLEU in any case ("bleu" is what sacrebleu's JSON calls it); the others as spelled.
    if scores.name in METRICS or scores.name.upper() == BLEU.label:
        raise ConfigError(
            f"{scores.origin}: {scores.name!r} is a metric bleuviz computes; rename the scores"
        )
    return ImportedMetric.of(scores)


def imported_specs(testset: TestSet) -> dict[str, MetricSpec]:
    """Return the metric of every score set imported into ``testset``, by name."""
    return {scores.name: imported_spec(scores) for scores in testset.seg_scores}


def metrics_of(testset: TestSet) -> dict[str, MetricSpec]:
    """Return every metric of ``testset``: the computed ones, then the imported ones."""
    return {**METRICS, **imported_specs(testset)}


def get_metric(label: str, testset: TestSet) -> MetricSpec:
    """Return the metric ``label``: one bleuviz computes, or one ``testset`` imports.

    Raises:
        InputError: neither (the message lists the imported ones).
    """
    if label in METRICS:
        return METRICS[label]
    return imported_spec(testset.seg_score(label))


def score_metric(
    label: str,
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    lowercase: bool = False,
    stemmer: bool = False,
) -> MetricScores:
    """Score every segment and the corpus of one system with the metric ``label``.

    Only the options the metric reads are applied.

    Raises:
        ConfigError: an unknown label.
        InputError: no segments, or a stream's length differs from ``hyps``.
    """
    from bleuviz.io.testset import TestSet

    spec = get_spec(label)
    check_streams(hyps, references)
    testset = TestSet({"": tuple(hyps)}, tuple(tuple(stream) for stream in references))
    return spec.score_systems(testset, Settings(options=MetricOptions(lowercase, stemmer)))[""]


def score_sacrebleu(
    label: str,
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    lowercase: bool = False,
) -> MetricScores:
    """Score every segment and the corpus with sacrebleu's chrF, chrF++ or TER."""
    if not isinstance(get_spec(label), ChrfMetric | TerMetric):
        raise ConfigError(f"metric: {label!r} is not a sacrebleu metric")
    return score_metric(label, hyps, references, lowercase)


def score_rouge(
    labels: Sequence[str],
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    use_stemmer: bool = False,
) -> dict[str, MetricScores]:
    """Score every segment with the ROUGE ``labels``, tokenizing each text once.

    Raises:
        InputError: no segments, or a stream's length differs from ``hyps``.
        ConfigError: a label is not a ROUGE metric.
    """
    from bleuviz.metrics.rouge_adapter import score_with_rouge  # rouge-score imports nltk

    specs = [get_spec(label) for label in labels]
    if any(spec.rouge_type is None for spec in specs):
        raise ConfigError(f"labels: {list(labels)} must all be ROUGE metrics")
    return score_with_rouge(specs, hyps, references, use_stemmer)


def subset_score(scores: MetricScores, indices: Sequence[int], lowercase: bool = False) -> float:
    """Return the corpus score of the segments at ``indices``, from summed statistics.

    Raises:
        ConfigError: the metric has no statistics that sum (ROUGE).
    """
    settings = Settings(options=MetricOptions(lowercase))
    return scores.spec.subset_score(scores, indices, settings)
