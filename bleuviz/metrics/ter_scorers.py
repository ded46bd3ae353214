"""TER as ``MetricScores``: bleuviz's exact replica, sacrebleu's name and signature.

The statistics come from :mod:`bleuviz.metrics.ter_parallel` (equal to sacrebleu
2.6's, tested against it); the signature and the per-row scores from sacrebleu's
own ``TER`` object through :mod:`bleuviz.metrics.sacrebleu_adapter`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bleuviz.metrics.sacrebleu_adapter import (
    corpus_from_stats,
    scores_from_stats,
    signature_of,
    ter_metric,
)
from bleuviz.metrics.spec import MetricOptions, MetricScores, MetricSpec, readonly
from bleuviz.metrics.streams import check_streams
from bleuviz.metrics.ter_parallel import ter_systems
from bleuviz.metrics.ter_score import TerConfig
from bleuviz.progress import Progress


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
