"""Metrics beside BLEU, per segment, in one registry with one result type."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.metrics.chrf_score import ChrfConfig
    from bleuviz.metrics.chrf_scorers import chrf_systems
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
    from bleuviz.metrics.rouge_adapter import rouge_signature, rouge_text
    from bleuviz.metrics.spec import MetricOptions, MetricScores, MetricSpec
    from bleuviz.metrics.ter_config import TerConfig
    from bleuviz.metrics.ter_scorers import ter_scores
    from bleuviz.progress import Progress

_EXPORTS = {
    "ChrfConfig": "bleuviz.metrics.chrf_score",
    "Progress": "bleuviz.progress",
    "TerConfig": "bleuviz.metrics.ter_config",
    "chrf_systems": "bleuviz.metrics.chrf_scorers",
    "ter_scores": "bleuviz.metrics.ter_scorers",
    "EXTRA_METRICS": "bleuviz.metrics.registry",
    "SIGNIFICANCE_METRICS": "bleuviz.metrics.registry",
    "get_spec": "bleuviz.metrics.registry",
    "paired_test_metric": "bleuviz.metrics.registry",
    "score_metric": "bleuviz.metrics.registry",
    "score_rouge": "bleuviz.metrics.registry",
    "score_sacrebleu": "bleuviz.metrics.registry",
    "subset_score": "bleuviz.metrics.registry",
    "MetricScores": "bleuviz.metrics.spec",
    "rouge_signature": "bleuviz.metrics.rouge_adapter",
    "rouge_text": "bleuviz.metrics.rouge_adapter",
    "MetricOptions": "bleuviz.metrics.spec",
    "MetricSpec": "bleuviz.metrics.spec",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "EXTRA_METRICS",
    "SIGNIFICANCE_METRICS",
    "ChrfConfig",
    "MetricOptions",
    "MetricScores",
    "MetricSpec",
    "Progress",
    "TerConfig",
    "chrf_systems",
    "get_spec",
    "paired_test_metric",
    "rouge_signature",
    "rouge_text",
    "score_metric",
    "score_rouge",
    "score_sacrebleu",
    "subset_score",
    "ter_scores",
]
