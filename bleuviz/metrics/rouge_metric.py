"""ROUGE as a metric: rows are rouge-score's sentence F-measures, the corpus figure their mean.

The replica is :mod:`bleuviz.rouge`, fitted by :mod:`bleuviz.metrics.rouge_adapter`
(imported on use: rouge-score's nltk takes about a second to import).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.metrics.spec import MetricSpec, Settings

if TYPE_CHECKING:
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress
    from bleuviz.rouge.explain import TypeExplanation


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

        Raises:
            InputError: no segments, or a stream's length differs from a system's.
        """
        from bleuviz.metrics.rouge_adapter import score_with_rouge  # rouge-score imports nltk

        names = testset.system_names if systems is None else systems
        stemmer = settings.options.stemmer
        return {
            name: score_with_rouge([self], testset.systems[name], testset.references, stemmer)[
                self.label
            ].sentence[:, None]
            for name in names
        }

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
