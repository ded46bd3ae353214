"""TER as a metric: bleuviz's exact replica, sacrebleu's name and signature.

The statistics come from :mod:`bleuviz.metrics.ter_parallel` (equal to sacrebleu
2.6's, tested against it); the signature and the per-row scores from sacrebleu's
own ``TER`` object through :mod:`bleuviz.metrics.sacrebleu_adapter` (imported
when TER is scored: sacrebleu takes 0.1-0.2 s to import).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.metrics.spec import MetricSpec, Resampler, Settings
from bleuviz.metrics.streams import check_streams

if TYPE_CHECKING:
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress


@dataclass(frozen=True, slots=True)
class TerMetric(MetricSpec):
    """TER with ``Settings.ter`` (sacrebleu's defaults: case-insensitive)."""

    def reads(self, settings: Settings) -> Settings:
        """TER reads its own options only (its default ignores case)."""
        return Settings(ter=settings.ter, workers=settings.workers)

    def rows(
        self,
        testset: TestSet,
        settings: Settings,
        systems: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> dict[str, FloatArray]:
        """Return each system's ``[best edits, average reference length]`` per segment.

        ``settings.workers`` processes search the edits; a system scored before in
        this process with the same references and options comes from the cache.
        ``progress`` hears the segments scored ("1,280 of 22,500 segments (12
        systems)") after each chunk, and the fraction done.

        Raises:
            InputError: no segments, or a stream's length differs from a system's.
        """
        from bleuviz.metrics.ter_parallel import ter_systems

        names = testset.system_names if systems is None else systems
        chosen = {name: testset.systems[name] for name in names}
        for hyps in chosen.values():
            check_streams(hyps, testset.references)
        return ter_systems(chosen, testset.references, settings.ter, settings.workers, progress)

    def corpus_score(self, rows: FloatArray, settings: Settings) -> float:
        """sacrebleu's corpus TER of the summed rows."""
        from bleuviz.metrics.sacrebleu_adapter import corpus_from_stats, ter_metric

        return corpus_from_stats(ter_metric(settings.ter), rows)

    def sentence_scores(self, rows: FloatArray, settings: Settings) -> FloatArray:
        """sacrebleu's TER of each row."""
        from bleuviz.metrics.sacrebleu_adapter import scores_from_stats, ter_metric

        scores = scores_from_stats(ter_metric(settings.ter), rows.tolist())
        return np.array(scores, dtype=np.float64)

    def signature(self, testset: TestSet, settings: Settings, rows: FloatArray) -> str:
        """sacrebleu's TER signature."""
        from bleuviz.metrics.sacrebleu_adapter import signature_of, ter_metric

        return signature_of(ter_metric(settings.ter), len(testset.references))

    def resampler(self, settings: Settings, rows: FloatArray) -> Resampler:
        """sacrebleu's ``TER`` scores the resampled sums, as ``PairedTest`` does."""
        from bleuviz.metrics.sacrebleu_adapter import ter_metric
        from bleuviz.metrics.sacrebleu_resampler import SacrebleuResampler

        return SacrebleuResampler(ter_metric(settings.ter))
