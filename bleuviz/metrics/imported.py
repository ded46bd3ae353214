"""Metrics scored outside bleuviz (COMET, MetricX, human judgements) as metrics.

An imported metric is read, not computed (``bleuviz.io.seg_scores``): its rows
are the test set's scores for it, one value per segment, NaN where a segment has
none; its corpus figure is the mean of the segments that have a score, and its
paired tests compare means (``bleuviz.significance.mean``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.io.scores import SegmentScores
from bleuviz.io.seg_scores import file_base_name
from bleuviz.io.testset import TestSet
from bleuviz.metrics.spec import (
    MetricDetail,
    MetricScores,
    MetricSpec,
    ScoreRange,
    Settings,
    readonly,
)

if TYPE_CHECKING:
    from bleuviz.progress import Progress


#: The fewest and most decimals an imported score is shown with.
MIN_DECIMALS, MAX_DECIMALS = 2, 4


@dataclass(frozen=True, slots=True)
class ImportedDetail(MetricDetail):
    """An imported score of one system: its values (``sentence``, NaN where a segment
    has none), the mean of the scored ones (``corpus``), and what the file says of them.

    Attributes:
        higher_is_better: the direction (the file's name, or the user's switch).
        scored: how many segments have a score.
        origin: the file the scores were read from.
    """

    higher_is_better: bool
    scored: int
    origin: str


@dataclass(frozen=True, slots=True)
class ImportedMetric(MetricSpec):
    """An imported metric (the mean of its scored segments), shown as its file writes it.

    ``decimals``: the decimals its file writes (``written_decimals``).
    """

    origin: str = ""
    decimals: int = MAX_DECIMALS

    @property
    def digits(self) -> int:
        """Decimals to print: as the file writes its scores, at least 2 and at most 4.

        MQM's ``-5.1`` and ESA's ``66`` show with 2 (``-5.10``, ``66.00``; a mean needs
        two to tell systems apart, as BLEU's do), COMET's ``0.834434`` with 4.
        """
        return max(MIN_DECIMALS, min(self.decimals, MAX_DECIMALS))

    @classmethod
    def of(cls, scores: SegmentScores) -> ImportedMetric:
        """The metric of imported scores (the registry refuses names it computes itself)."""
        return cls(
            scores.name,
            scores.name,
            higher_is_better=not scores.lower_is_better,
            scale=1.0,
            mean_of_sentences=True,
            imported=True,
            origin=scores.origin,
            decimals=written_decimals(scores.values.values()),
        )

    def reads(self, settings: Settings) -> Settings:
        """Imported scores read no setting."""
        return Settings()

    def rows(
        self,
        testset: TestSet,
        settings: Settings,
        systems: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> dict[str, FloatArray]:
        """Return each system's imported scores as a column (NaN for a system not scored).

        Raises:
            InputError: the test set has no imported metric of this name.
        """
        scores = testset.seg_score(self.label)
        names = testset.system_names if systems is None else systems
        return {name: _values(scores, name, testset.n_segments)[:, None] for name in names}

    def detail(self, testset: TestSet, settings: Settings, rows: FloatArray) -> ImportedDetail:
        """The system's imported scores, their mean, direction and coverage."""
        return ImportedDetail(
            readonly(rows),
            readonly(self.sentence_scores(rows, settings)),
            self.corpus_score(rows, settings),
            self.signature(testset, settings, rows),
            self.higher_is_better,
            _scored(rows[:, 0]),
            self.origin,
        )

    def corpus_score(self, rows: FloatArray, settings: Settings) -> float:
        """The mean of the scored segments (NaN if none has a score)."""
        values = rows[:, 0]
        return float(np.nanmean(values)) if _scored(values) else float("nan")

    def sentence_scores(self, rows: FloatArray, settings: Settings) -> FloatArray:
        """Each segment's imported score (NaN where it has none)."""
        return rows[:, 0]

    def signature(self, testset: TestSet, settings: Settings, rows: FloatArray) -> str:
        """Where the scores come from, how many segments have one, and their direction."""
        return _imported_signature(self, rows)

    def shown_name(self, escape: Callable[[str], str]) -> str:
        """The name comes from the data (a file's): shown literally, through ``escape``."""
        return escape(self.label)

    def sentence_title(self, escape: Callable[[str], str]) -> str:
        """A segment's score was read, not computed: "Imported COMET"."""
        return f"Imported {self.shown_name(escape)}"

    def column_heading(self, escape: Callable[[str], str]) -> str:
        """The mean of the scored segments with its interval, and the direction where lower
        is better: "MQM (mean ± 95% CI) (lower is better)"."""
        lower = "" if self.higher_is_better else " (lower is better)"
        return f"{self.shown_name(escape)} (mean ± 95% CI){lower}"

    def mean_interval_note(self) -> str | None:
        """Its cards show the mean of the scored segments with a bootstrap interval."""
        return "imported, mean of scored segments"

    def sentence_range(self, sentences: Iterable[FloatArray]) -> ScoreRange:
        """The range of every system's scores: an imported score has no nominal one.

        MQM penalties are negative and stop at 0, DA runs to 100: the axis spans
        the finite scores and 0; ``scale``, the largest magnitude, sizes a
        histogram's bins.
        """
        values = np.concatenate(
            [np.zeros(0), *(np.asarray(s, dtype=np.float64) for s in sentences)]
        )
        finite = values[np.isfinite(values)]
        scale = float(np.max(np.abs(finite), initial=0.0)) or 1.0
        floor = min(float(np.min(finite, initial=0.0)), 0.0)
        top = max(float(np.max(finite, initial=0.0)), 0.0)
        return ScoreRange(f"{self.label} (imported)", scale, floor, top)

    def paired_test_note(self) -> str | None:
        """An imported score's corpus figure is a mean, tested on the segments both systems
        scored."""
        return (
            "is imported: its corpus figure is the mean over the segments both "
            "systems scored, tested by sacrebleu's paired procedure on that mean."
        )


def written_decimals(columns: Iterable[FloatArray]) -> int:
    """The fewest decimals (up to ``MAX_DECIMALS``) that write every finite score exactly.

    Read from the values, not the text: ``-5.1`` parsed is within rounding of
    ``round(-5.1, 1)``; a score with more decimals than ``MAX_DECIMALS`` gets that many.
    """
    finite = [c[np.isfinite(c)] for c in columns]
    values = np.concatenate(finite) if finite else np.zeros(0)
    for decimals in range(MAX_DECIMALS):
        if np.allclose(values, np.round(values, decimals), rtol=0.0, atol=1e-9):
            return decimals
    return MAX_DECIMALS


def imported_scores(scores: SegmentScores, system: str) -> MetricScores:
    """Return ``system``'s imported scores as a ``MetricScores`` (corpus: the mean).

    A system the file does not score gets NaN for every segment (and the mean).
    """
    metric = ImportedMetric.of(scores)
    n_segments = len(next(iter(scores.values.values())))
    rows = _values(scores, system, n_segments)[:, None]
    settings = Settings()
    return MetricScores(
        metric,
        readonly(metric.sentence_scores(rows, settings)),
        metric.corpus_score(rows, settings),
        _imported_signature(metric, rows),
    )


def _imported_signature(metric: ImportedMetric, rows: FloatArray) -> str:
    """Say which file the scores come from, how many segments have one, and their direction.

    The file is named without its folders: a signature is for reproducing a result
    elsewhere, where the same file sits in another folder (and a path may hold a
    user's name).
    """
    direction = "higher" if metric.higher_is_better else "lower"
    scored = _scored(rows[:, 0])
    file = file_base_name(metric.origin)
    return f"imported:{file}|segments:{scored}|better:{direction}|agg:mean"


def _values(scores: SegmentScores, system: str, n_segments: int) -> FloatArray:
    """``system``'s scores (read-only already, ``build_scores``), or NaN for every segment."""
    if system in scores.values:
        return scores.values[system]
    return readonly(np.full(n_segments, np.nan))


def _scored(values: FloatArray) -> int:
    """How many segments have a score."""
    return int(np.count_nonzero(~np.isnan(values)))
