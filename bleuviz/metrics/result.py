"""One metric's scores of one system: the result type every metric returns."""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.arrays import FloatArray
from bleuviz.errors import ConfigError
from bleuviz.metrics.spec import MetricSpec


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
