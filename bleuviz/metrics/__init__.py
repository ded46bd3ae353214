"""Metrics beside BLEU, per segment, in one registry with one result type."""

from bleuviz.metrics.registry import (
    EXTRA_METRICS,
    SIGNIFICANCE_METRICS,
    get_spec,
    paired_test_metric,
    score_metric,
    score_rouge,
    score_sacrebleu,
    subset_score,
)
from bleuviz.metrics.result import MetricScores
from bleuviz.metrics.rouge_adapter import rouge_signature, rouge_text
from bleuviz.metrics.spec import MetricOptions, MetricSpec

__all__ = [
    "EXTRA_METRICS",
    "SIGNIFICANCE_METRICS",
    "MetricOptions",
    "MetricScores",
    "MetricSpec",
    "get_spec",
    "paired_test_metric",
    "rouge_signature",
    "rouge_text",
    "score_metric",
    "score_rouge",
    "score_sacrebleu",
    "subset_score",
]
