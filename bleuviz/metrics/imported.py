"""Metrics scored outside bleuviz (COMET, MetricX, human judgements) as registry specs.

An imported metric is read, not computed (``bleuviz.io.seg_scores``): its spec
says its direction and that its corpus figure is the mean of the segments that
have a score; its scores keep NaN where a segment has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bleuviz.errors import ConfigError
from bleuviz.io.scores import SegmentScores
from bleuviz.io.testset import TestSet
from bleuviz.metrics.registry import EXTRA_METRICS
from bleuviz.metrics.spec import MetricOptions, MetricScores, MetricSpec, readonly


def _not_from_text(
    spec: MetricSpec, hyps: Sequence[str], refs: Sequence[Sequence[str]], options: MetricOptions
) -> MetricScores:
    """Refuse to score an imported metric from text: its scores come from a file."""
    raise ConfigError(f"metric: {spec.label} is imported from a file and cannot be computed")


def imported_spec(scores: SegmentScores) -> MetricSpec:
    """Return the spec of an imported metric (4 decimals, mean of its scored segments).

    Raises:
        ConfigError: its name is a metric bleuviz computes itself (BLEU, chrF, ...).
    """
    if scores.name in EXTRA_METRICS or scores.name.upper() == "BLEU":
        raise ConfigError(
            f"{scores.origin}: {scores.name!r} is a metric bleuviz computes; rename the scores"
        )
    return MetricSpec(
        scores.name,
        scores.name,
        _not_from_text,
        higher_is_better=not scores.lower_is_better,
        scale=1.0,
        mean_of_sentences=True,
        imported=True,
    )


def imported_specs(testset: TestSet) -> Mapping[str, MetricSpec]:
    """Return the spec of every metric imported into ``testset``, by name."""
    return {scores.name: imported_spec(scores) for scores in testset.seg_scores}


def imported_scores(scores: SegmentScores, system: str) -> MetricScores:
    """Return ``system``'s imported scores as a ``MetricScores`` (corpus: the mean).

    A system the file does not score gets NaN for every segment (and the mean).
    """
    if system in scores.values:
        values = scores.values[system]  # read-only already (``build_scores``): no copy
    else:
        values = readonly(np.full(len(next(iter(scores.values.values()))), np.nan))
    scored = int(np.count_nonzero(~np.isnan(values)))
    mean = float(np.nanmean(values)) if scored else float("nan")
    return MetricScores(
        imported_spec(scores),
        values,
        mean,
        imported_signature(scores, scored),
    )


def imported_signature(scores: SegmentScores, scored: int) -> str:
    """Say where the scores come from, how many segments have one, and their direction."""
    direction = "lower" if scores.lower_is_better else "higher"
    return f"imported:{scores.origin}|segments:{scored}|better:{direction}|agg:mean"
