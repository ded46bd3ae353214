"""chrF, chrF++ and TER as ``MetricScores``: bleuviz's exact replicas, sacrebleu's names.

The statistics come from :mod:`bleuviz.metrics.chrf_columnar` and
:mod:`bleuviz.metrics.ter_parallel` (equal to sacrebleu 2.6's, tested against it);
the signatures and TER's per-row scores from sacrebleu's own objects through
:mod:`bleuviz.metrics.sacrebleu_adapter`. Statistics are kept per segment, so a
subset's or a resample's score is a sum away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bleuviz.metrics.chrf_columnar import chrf_statistics, prepare_references
from bleuviz.metrics.chrf_score import ChrfConfig, corpus_f_score, f_scores
from bleuviz.metrics.sacrebleu_adapter import (
    chrf_metric,
    corpus_from_stats,
    scores_from_stats,
    signature_of,
    ter_metric,
)
from bleuviz.metrics.spec import MetricOptions, MetricScores, MetricSpec, Scorer, readonly
from bleuviz.metrics.streams import check_streams
from bleuviz.metrics.ter_parallel import ter_systems
from bleuviz.metrics.ter_score import TerConfig
from bleuviz.progress import Progress


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


def ter_scores(
    spec: MetricSpec,
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    config: TerConfig,
    workers: int = 2,
    progress: Progress | None = None,
) -> dict[str, MetricScores]:
    """Score every segment and the corpus of each system with TER, in worker processes.

    A system scored before in this process with the same references and options
    comes from the cache. ``progress`` hears "TER: system 3 of 9" and the fraction done.

    Raises:
        InputError: no segments, or a stream's length differs from a system's.
    """
    for hyps in systems.values():
        check_streams(hyps, references)
    stats = ter_systems(systems, references, config, workers, progress)
    metric = ter_metric(config)
    signature = signature_of(metric, len(references))
    return {
        name: MetricScores(
            spec,
            readonly(np.array(scores_from_stats(metric, rows.tolist()), dtype=np.float64)),
            corpus_from_stats(metric, rows),
            signature,
            rows,
        )
        for name, rows in stats.items()
    }


def score_ter(
    spec: MetricSpec,
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    options: MetricOptions,
) -> MetricScores:
    """Score one system with sacrebleu's default TER (the registry's scorer)."""
    return ter_scores(spec, {"": hyps}, references, TerConfig())[""]


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
    signature = signature_of(chrf_metric(config), len(references))
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
