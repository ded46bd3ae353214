"""chrF and chrF++ as metrics: bleuviz's exact replicas, sacrebleu's names.

The statistics come from :mod:`bleuviz.metrics.chrf_columnar` (equal to
sacrebleu 2.6's, tested against it), the scores from
:mod:`bleuviz.metrics.chrf_score` and the signature from
:mod:`bleuviz.metrics.chrf_signature`; sacrebleu itself is not imported, so a
chrF command starts without it (its ``CHRF`` scores paired-test resamples only).
Rows are statistics per segment, so a subset's or a resample's score is a sum away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.metrics.chrf_columnar import chrf_statistics, prepare_references
from bleuviz.metrics.chrf_score import ChrfConfig, corpus_f_score, f_scores
from bleuviz.metrics.chrf_signature import chrf_signature
from bleuviz.metrics.chunk_rows import chunked_rows
from bleuviz.metrics.spec import MetricSpec, Resampler, Settings
from bleuviz.metrics.streams import check_streams

if TYPE_CHECKING:
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress

#: Characters (over every stream) from which forked worker processes count chunks of
#: segments. ``python -m benchmarks.bench_jobs --threshold --metrics chrf --rounds 5``
#: (one reference, medians of 5 alternating runs, on the 2-core machine shared with
#: three other jobs, load average 5-6, so two processes never had two cores): one
#: process / two threads / two processes took 0.026 / 0.027 / 0.099 s at 0.11M
#: characters, 0.21 / 0.20 / 0.39 s at 0.91M, 1.28 / 1.48 / 1.37 s at 7.25M. The pool
#: costs about 0.07 s; with two cores of its own, two processes save a quarter of two
#: threads' time (their GIL-free share), which exceeds that from about 0.3 s of work:
#: 1.5M characters (BLEU's threshold too).
PROCESSES_FROM = 1_500_000


@dataclass(frozen=True, slots=True)
class ChrfMetric(MetricSpec):
    """chrF (``word_order`` 0) or chrF++ (2), with sacrebleu's other defaults.

    ``Settings.chrf``, when set (the command line's ``--chrf-*`` options), is
    used instead of the defaults and the lowercase switch.
    """

    word_order: int = 0

    def reads(self, settings: Settings) -> Settings:
        """chrF reads the lowercase switch, or the command line's full options."""
        return Settings(
            options=self.options(settings.options.lowercase),
            chrf=settings.chrf,
            workers=settings.workers,
        )

    def score_name(self, settings: Settings) -> str:
        """sacrebleu's name: ``chrF2``, ``chrF2++`` (the options' beta and word order)."""
        return self.config(settings).name

    def config(self, settings: Settings) -> ChrfConfig:
        """Return the chrF options the settings give this metric."""
        if settings.chrf is not None:
            return settings.chrf
        return ChrfConfig(word_order=self.word_order, lowercase=settings.options.lowercase)

    def rows(
        self,
        testset: TestSet,
        settings: Settings,
        systems: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> dict[str, FloatArray]:
        """Count each system's character (and word) n-grams; the references are prepared once.

        From ``PROCESSES_FROM`` characters, ``settings.workers`` forked processes count
        chunks of segments (:mod:`bleuviz.metrics.chunk_rows`); below, or where a
        process may not fork, ``settings.workers`` threads count them here.

        Raises:
            InputError: no segments, or a stream's length differs from a system's.
        """
        names = testset.system_names if systems is None else systems
        for name in names:
            check_streams(testset.systems[name], testset.references)
        chosen = {name: testset.systems[name] for name in names}
        count = partial(_chrf_rows, config=self.config(settings))
        return chunked_rows(count, chosen, testset.references, settings.workers, PROCESSES_FROM)

    def corpus_score(self, rows: FloatArray, settings: Settings) -> float:
        """chrF of the summed statistics (sacrebleu's ``_compute_score_from_stats``)."""
        return corpus_f_score(_counts(rows), self.config(settings).beta)

    def sentence_scores(self, rows: FloatArray, settings: Settings) -> FloatArray:
        """Each segment's chrF from its own statistics."""
        return f_scores(_counts(rows), self.config(settings).beta)

    def signature(self, testset: TestSet, settings: Settings, rows: FloatArray) -> str:
        """sacrebleu's chrF signature."""
        return chrf_signature(self.config(settings), len(testset.references))

    def resampler(self, settings: Settings, rows: FloatArray) -> Resampler:
        """sacrebleu's ``CHRF`` scores the resampled sums, as ``PairedTest`` does."""
        from bleuviz.metrics.sacrebleu_adapter import sacrebleu_metric
        from bleuviz.metrics.sacrebleu_resampler import SacrebleuResampler

        return SacrebleuResampler(sacrebleu_metric(self.key, self.config(settings).lowercase))


def _chrf_rows(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    workers: int,
    config: ChrfConfig,
) -> dict[str, FloatArray]:
    """Every system's statistics against ``references`` (prepared once), as float64 rows."""
    prepared = prepare_references(references, config)
    return {
        name: chrf_statistics(hyps, prepared, config, workers).astype(np.float64)
        for name, hyps in systems.items()
    }


def _counts(rows: FloatArray) -> IntArray:
    """Rows as the integer counts they hold (statistics are kept as float64 rows)."""
    counts: IntArray = np.rint(rows).astype(np.int64)
    return counts
