"""chrF and chrF++ as ``MetricScores``: bleuviz's exact replicas, sacrebleu's names.

The statistics come from :mod:`bleuviz.metrics.chrf_columnar` (equal to
sacrebleu 2.6's, tested against it), the scores from
:mod:`bleuviz.metrics.chrf_score` and the signature from
:mod:`bleuviz.metrics.chrf_signature`; sacrebleu itself is not imported, so a
chrF command starts without it. Statistics are kept per segment, so a subset's
or a resample's score is a sum away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bleuviz.metrics.chrf_columnar import chrf_statistics, prepare_references
from bleuviz.metrics.chrf_score import ChrfConfig, corpus_f_score, f_scores
from bleuviz.metrics.chrf_signature import chrf_signature
from bleuviz.metrics.spec import MetricOptions, MetricScores, MetricSpec, Scorer, readonly
from bleuviz.metrics.streams import check_streams


def chrf_scores(
    spec: MetricSpec, hyps: Sequence[str], references: Sequence[Sequence[str]], config: ChrfConfig
) -> MetricScores:
    """Score every segment and the corpus with chrF (chrF++ with word orders).

    Raises:
        InputError: no segments, or a stream's length differs from ``hyps``.
    """
    return chrf_systems(spec, {"": hyps}, references, config)[""]


def chrf_scorer(word_order: int) -> Scorer:
    """Return the registry's scorer of chrF (``word_order`` 0) or chrF++ (2)."""

    def score(
        spec: MetricSpec,
        hyps: Sequence[str],
        references: Sequence[Sequence[str]],
        options: MetricOptions,
    ) -> MetricScores:
        config = ChrfConfig(word_order=word_order, lowercase=options.lowercase)
        return chrf_scores(spec, hyps, references, config)

    return score


def chrf_systems(
    spec: MetricSpec,
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    config: ChrfConfig,
    workers: int = 1,
) -> dict[str, MetricScores]:
    """Score every system with chrF (``config``); the references are prepared once for all.

    ``workers`` threads count each system's n-grams.

    Raises:
        InputError: no segments, or a stream's length differs from a system's.
    """
    for hyps in systems.values():
        check_streams(hyps, references)
    prepared = prepare_references(references, config)
    signature = chrf_signature(config, len(references))
    scores = {}
    for name, hyps in systems.items():
        stats = chrf_statistics(hyps, prepared, config, workers)
        scores[name] = MetricScores(
            spec,
            readonly(f_scores(stats, config.beta)),
            corpus_f_score(stats, config.beta),
            signature,
            readonly(stats.astype(np.float64)),
        )
    return scores
