"""Every metric, BLEU included, behind one protocol (``MetricSpec``) in one registry."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.metrics.bleu_metric import BLEU, BleuMetric
    from bleuviz.metrics.chrf_score import ChrfConfig
    from bleuviz.metrics.chrf_scorers import ChrfMetric
    from bleuviz.metrics.imported import ImportedMetric
    from bleuviz.metrics.registry import (
        EXTRA_METRICS,
        METRICS,
        SIGNIFICANCE_METRICS,
        get_metric,
        get_spec,
        metrics_of,
        score_metric,
        score_rouge,
        score_sacrebleu,
        subset_score,
    )
    from bleuviz.metrics.rouge_adapter import rouge_signature, rouge_text
    from bleuviz.metrics.rouge_metric import RougeMetric
    from bleuviz.metrics.spec import MetricOptions, MetricScores, MetricSpec, Resampler, Settings
    from bleuviz.metrics.ter_config import TerConfig
    from bleuviz.metrics.ter_scorers import TerMetric
    from bleuviz.progress import Progress

_EXPORTS = {
    "BLEU": "bleuviz.metrics.bleu_metric",
    "BleuMetric": "bleuviz.metrics.bleu_metric",
    "ChrfConfig": "bleuviz.metrics.chrf_score",
    "ChrfMetric": "bleuviz.metrics.chrf_scorers",
    "ImportedMetric": "bleuviz.metrics.imported",
    "Progress": "bleuviz.progress",
    "RougeMetric": "bleuviz.metrics.rouge_metric",
    "TerConfig": "bleuviz.metrics.ter_config",
    "TerMetric": "bleuviz.metrics.ter_scorers",
    "EXTRA_METRICS": "bleuviz.metrics.registry",
    "METRICS": "bleuviz.metrics.registry",
    "SIGNIFICANCE_METRICS": "bleuviz.metrics.registry",
    "get_metric": "bleuviz.metrics.registry",
    "get_spec": "bleuviz.metrics.registry",
    "metrics_of": "bleuviz.metrics.registry",
    "score_metric": "bleuviz.metrics.registry",
    "score_rouge": "bleuviz.metrics.registry",
    "score_sacrebleu": "bleuviz.metrics.registry",
    "subset_score": "bleuviz.metrics.registry",
    "MetricScores": "bleuviz.metrics.spec",
    "rouge_signature": "bleuviz.metrics.rouge_adapter",
    "rouge_text": "bleuviz.metrics.rouge_adapter",
    "MetricOptions": "bleuviz.metrics.spec",
    "MetricSpec": "bleuviz.metrics.spec",
    "Resampler": "bleuviz.metrics.spec",
    "Settings": "bleuviz.metrics.spec",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "BLEU",
    "EXTRA_METRICS",
    "METRICS",
    "SIGNIFICANCE_METRICS",
    "BleuMetric",
    "ChrfConfig",
    "ChrfMetric",
    "ImportedMetric",
    "MetricOptions",
    "MetricScores",
    "MetricSpec",
    "Progress",
    "Resampler",
    "RougeMetric",
    "Settings",
    "TerConfig",
    "TerMetric",
    "get_metric",
    "get_spec",
    "metrics_of",
    "rouge_signature",
    "rouge_text",
    "score_metric",
    "score_rouge",
    "score_sacrebleu",
    "subset_score",
]
