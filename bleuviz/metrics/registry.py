"""Every metric beside BLEU by label, and scoring by label.

chrF, chrF++ and TER are exact replicas of sacrebleu's, with its names and
signatures (:mod:`bleuviz.metrics.chrf_scorers`, :mod:`bleuviz.metrics.ter_scorers`);
ROUGE replicates rouge-score 0.1.2 (:mod:`bleuviz.metrics.rouge_adapter`).
Callers ask a spec what they need (direction, scale, options, paired tests);
they never compare metric names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from bleuviz.errors import ConfigError
from bleuviz.metrics.chrf_scorers import chrf_scorer
from bleuviz.metrics.spec import MetricOptions, MetricScores, MetricSpec, Scorer

if TYPE_CHECKING:
    from sacrebleu.metrics.base import Metric


def _sacrebleu(
    label: str, scorer: Scorer, higher_is_better: bool = True, lowercase: bool = True
) -> MetricSpec:
    """A sacrebleu metric: statistics that sum, hence paired tests."""
    return MetricSpec(
        label,
        label,
        scorer,
        higher_is_better=higher_is_better,
        reads_lowercase=lowercase,
        paired_tests=True,
    )


def _score_ter(
    spec: MetricSpec,
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    options: MetricOptions,
) -> MetricScores:
    """Score one system with TER, importing sacrebleu only then (its tercom tokenizer).

    sacrebleu takes 0.1-0.2 s to import; chrF and ROUGE do without it.
    """
    from bleuviz.metrics.ter_scorers import score_ter

    return score_ter(spec, hyps, references, options)


def _score_one_rouge(
    spec: MetricSpec,
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    options: MetricOptions,
) -> MetricScores:
    """Score one ROUGE type, importing rouge-score only then (its nltk takes about 1 s)."""
    from bleuviz.metrics.rouge_adapter import score_one_rouge

    return score_one_rouge(spec, hyps, references, options)


def _rouge(label: str, key: str) -> MetricSpec:
    """A ROUGE type: F-measure on a 0-1 scale, the corpus figure a mean."""
    return MetricSpec(
        label,
        key,
        _score_one_rouge,
        scale=1.0,
        reads_stemmer=True,
        mean_of_sentences=True,
        rouge_type=key,
    )


EXTRA_METRICS: Mapping[str, MetricSpec] = {
    spec.label: spec
    for spec in (
        _sacrebleu("chrF", chrf_scorer(word_order=0)),
        _sacrebleu("chrF++", chrf_scorer(word_order=2)),
        _sacrebleu("TER", _score_ter, higher_is_better=False, lowercase=False),
        _rouge("ROUGE-1", "rouge1"),
        _rouge("ROUGE-2", "rouge2"),
        _rouge("ROUGE-L", "rougeL"),
        _rouge("ROUGE-Lsum", "rougeLsum"),
    )
}

#: Metrics whose paired tests sacrebleu's ``PairedTest`` runs (and bleuviz replicates).
SIGNIFICANCE_METRICS = tuple(s.label for s in EXTRA_METRICS.values() if s.paired_tests)


def get_spec(label: str) -> MetricSpec:
    """Return the spec of ``label``.

    Raises:
        ConfigError: not one of :data:`EXTRA_METRICS`.
    """
    if label not in EXTRA_METRICS:
        raise ConfigError(f"metric: unknown {label!r}; choose from {', '.join(EXTRA_METRICS)}")
    return EXTRA_METRICS[label]


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
    spec = get_spec(label)
    return spec.scorer(spec, hyps, references, spec.options(lowercase, stemmer))


def score_sacrebleu(
    label: str,
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    lowercase: bool = False,
) -> MetricScores:
    """Score every segment and the corpus with sacrebleu's chrF, chrF++ or TER."""
    spec = get_spec(label)
    if not spec.paired_tests:
        raise ConfigError(f"metric: {label!r} is not a sacrebleu metric")
    return spec.scorer(spec, hyps, references, spec.options(lowercase=lowercase))


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
    from bleuviz.metrics.sacrebleu_adapter import corpus_from_stats, sacrebleu_metric

    selected = scores.statistics()[np.asarray(indices, dtype=np.int64)]
    return corpus_from_stats(sacrebleu_metric(scores.spec.key, lowercase), selected)


def paired_test_metric(label: str, lowercase: bool = False) -> Metric:
    """Return the metric object paired tests score resamples with (see significance)."""
    from bleuviz.metrics.sacrebleu_adapter import sacrebleu_metric

    spec = get_spec(label)
    if not spec.paired_tests:
        raise ConfigError(f"metric: {label!r} has no paired tests")
    return sacrebleu_metric(spec.key, spec.options(lowercase=lowercase).lowercase)
