"""ROUGE as a metric: rows are rouge-score's sentence F-measures, the corpus figure their mean.

The replica is :mod:`bleuviz.rouge`, fitted by :mod:`bleuviz.metrics.rouge_adapter`
(imported on use: rouge-score's nltk takes about a second to import).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.metrics.chunk_rows import chunked_rows
from bleuviz.metrics.spec import MetricSpec, Settings
from bleuviz.metrics.streams import check_streams

if TYPE_CHECKING:
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress
    from bleuviz.rouge.explain import TypeExplanation

#: Characters (over every stream) from which forked worker processes score chunks of
#: segments. ``python -m benchmarks.bench_jobs --threshold --metrics rouge-l --rounds 5``
#: (load average 5-6 on 2 cores, so two processes never had two cores): one process /
#: two threads / two processes took 0.116 / 0.133 / 0.180 s at 0.11M characters and
#: 0.31 / 0.35 / 0.47 s at 0.23M. The pool costs about 0.07 s and threads gain nothing
#: (pure Python): two processes with two cores save half the work, which exceeds the
#: pool's cost from about 0.15 s of work, 0.12M characters; 0.25M leaves a margin.
PROCESSES_FROM = 250_000


@dataclass(frozen=True, slots=True)
class RougeMetric(MetricSpec):
    """One ROUGE type: rows are sentence F-measures (one column), the corpus figure their mean."""

    def reads(self, settings: Settings) -> Settings:
        """ROUGE reads the stemmer switch."""
        return Settings(options=self.options(stemmer=settings.options.stemmer))

    def rows(
        self,
        testset: TestSet,
        settings: Settings,
        systems: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> dict[str, FloatArray]:
        """Return each system's sentence F-measures, as a column.

        From ``PROCESSES_FROM`` characters, ``settings.workers`` forked processes
        score chunks of segments (:mod:`bleuviz.metrics.chunk_rows`).

        Raises:
            InputError: no segments, or a stream's length differs from a system's.
        """
        names = testset.system_names if systems is None else systems
        for name in names:
            check_streams(testset.systems[name], testset.references)
        chosen = {name: testset.systems[name] for name in names}
        score = partial(_rouge_rows, spec=self, stemmer=settings.options.stemmer)
        return chunked_rows(score, chosen, testset.references, settings.workers, PROCESSES_FROM)

    def corpus_score(self, rows: FloatArray, settings: Settings) -> float:
        """The mean of sentence F-measures (``RougeCorpus.mean``)."""
        return float(np.mean(rows[:, 0]))

    def sentence_scores(self, rows: FloatArray, settings: Settings) -> FloatArray:
        """Each segment's F-measure."""
        return rows[:, 0]

    def signature(self, testset: TestSet, settings: Settings, rows: FloatArray) -> str:
        """A signature in sacrebleu's style (rouge-score has none)."""
        from bleuviz.metrics.rouge_adapter import rouge_signature

        return rouge_signature(self.key, len(testset.references), settings.options.stemmer)

    def heading(self) -> str:
        """``mean ROUGE-1 F``: the corpus figure is the mean of sentence F-measures."""
        return f"mean {self.label} F"

    def token_explanation(
        self, hyp: str, refs: Sequence[str], settings: Settings
    ) -> TypeExplanation:
        """rouge-score's tokens of the hypothesis and the reference with the best F, each
        marked as counted or not (the stemmer as the settings say)."""
        from bleuviz.metrics.rouge_adapter import rouge_text
        from bleuviz.rouge.explain import explain_rouge_types
        from bleuviz.rouge.score import RougeConfig

        config = RougeConfig((self.key,), use_stemmer=settings.options.stemmer)
        return explain_rouge_types(rouge_text(hyp), [rouge_text(r) for r in refs], config)[self.key]


def _rouge_rows(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    workers: int,
    spec: RougeMetric,
    stemmer: bool,
) -> dict[str, FloatArray]:
    """Every system's sentence F-measures of ``spec`` against ``references``, as a column."""
    from bleuviz.metrics.rouge_adapter import score_with_rouge  # rouge-score imports nltk

    return {
        name: score_with_rouge([spec], hyps, references, stemmer)[spec.label].sentence[:, None]
        for name, hyps in systems.items()
    }
