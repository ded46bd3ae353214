"""A system's BLEU reduced chunk by chunk: what a report keeps of statistics counted as read.

A corpus score needs only the sum of the segments' rows and the last row
(nltk's smoothing reads the last segment); a sentence score is a function of
its own row. So a test set counted chunk by chunk (``bleuviz.bleu.streamed.
streamed_stats``) is reduced as each chunk comes: its rows are added to the
running sum, its last row kept, its sentence scores computed, and the rows
let go. What is kept grows by 8 bytes a segment (the sentence score), plus,
when each segment's counts are printed too, its counts, totals and lengths in
the smallest unsigned type that holds each chunk's values (NumPy widens to the
largest when the chunks are joined; every value, hence every printed number,
is unchanged). Only sacrebleu's bootstrap, which resamples every row, keeps
the rows: their float matrix (``SegmentStats.to_matrix``), 8 bytes a column a
segment, and nothing more. Every number equals the whole test set's: sums of integers are
exact, and ``score_rows`` scores each row on its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.score import sentence_scores
from bleuviz.bleu.stats import SegmentStats
from bleuviz.errors import InputError


@dataclass(frozen=True, slots=True, eq=False)
class SentenceColumns:
    """What is printed of each segment beside its score, to the order scored.

    Attributes:
        matches: (N, K) clipped n-gram matches.
        totals: (N, K) hypothesis n-grams.
        hyp_len: (N,) hypothesis length.
        ref_len: (N,) reference length as the flavour counts it.
    """

    matches: IntArray
    totals: IntArray
    hyp_len: IntArray
    ref_len: IntArray

    @classmethod
    def of(cls, stats: SegmentStats, config: BleuConfig) -> SentenceColumns:
        """The printed columns of every row of ``stats`` (the flavour's reference length)."""
        k = config.max_order
        ref_len = config.flavor_spec.ref_lengths(stats)
        return cls(stats.matches[:, :k], stats.totals[:, :k], stats.hyp_len, ref_len)

    @property
    def arrays(self) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """The four columns, in the order above."""
        return self.matches, self.totals, self.hyp_len, self.ref_len


@dataclass(frozen=True, slots=True, eq=False)
class StreamedBleu:
    """One system's BLEU of a test set counted chunk by chunk.

    Attributes:
        corpus: two rows that sum to the corpus's and whose last is its last
            segment's (one row for a one-segment test set), as Dask's totals.
        sentence: (N,) each segment's sentence BLEU (the flavour's semantics).
        columns: each segment's counts and lengths, if asked for.
        rows: every row's ``to_matrix`` row, if asked for (a bootstrap's).
    """

    corpus: SegmentStats
    sentence: FloatArray
    columns: SentenceColumns | None
    rows: FloatArray | None = None


def reduce_stats(
    parts: Iterable[Mapping[str, SegmentStats]],
    config: BleuConfig,
    keep_columns: bool = False,
    keep_rows: bool = False,
) -> dict[str, StreamedBleu]:
    """Reduce each chunk's rows, in order, to every system's ``StreamedBleu``.

    ``keep_columns`` keeps each segment's printed counts and lengths; ``keep_rows``
    its whole row.

    Raises:
        InputError: there is no chunk, or no segment.
    """
    systems: dict[str, _Reduction] = {}
    for part in parts:
        for name, stats in part.items():
            reduction = systems.setdefault(name, _Reduction(config, keep_columns, keep_rows))
            reduction.add(stats)
    if not systems:
        raise InputError("no segments: the test set has no lines")
    return {name: reduction.result() for name, reduction in systems.items()}


@dataclass(slots=True)
class _Reduction:
    """One system's running sum, last row and kept columns (working state)."""

    config: BleuConfig
    keep_columns: bool
    keep_rows: bool
    total: SegmentStats | None = None
    last: SegmentStats | None = None
    sentences: list[FloatArray] = field(default_factory=list)
    columns: list[tuple[IntArray, ...]] = field(default_factory=list)
    rows: list[FloatArray] = field(default_factory=list)

    def add(self, stats: SegmentStats) -> None:
        """Add one chunk's rows."""
        if not len(stats):
            return
        sums = stats.total()
        self.total = sums if self.total is None else SegmentStats.concat([self.total, sums]).total()
        self.last = stats.select([len(stats) - 1])
        self.sentences.append(sentence_scores(stats, self.config).score.copy())
        if self.keep_columns:
            printed = SentenceColumns.of(stats, self.config)
            self.columns.append(tuple(_compact(c) for c in printed.arrays))
        if self.keep_rows:
            self.rows.append(stats.to_matrix())

    def result(self) -> StreamedBleu:
        """The reduction of every chunk added.

        Raises:
            InputError: no segment was added.
        """
        if self.total is None or self.last is None:
            raise InputError("no segments: the test set has no lines")
        columns = None
        if self.keep_columns:
            joined = (np.concatenate(column) for column in zip(*self.columns, strict=True))
            columns = SentenceColumns(*joined)
        sentence = np.concatenate(self.sentences)
        rows = np.concatenate(self.rows) if self.keep_rows else None
        corpus = _two_rows(self.total, self.last, len(sentence))
        return StreamedBleu(corpus, sentence, columns, rows)


def _compact(column: IntArray) -> IntArray:
    """The column in the smallest unsigned integer type that holds its values (all >= 0)."""
    return column.astype(np.min_scalar_type(int(column.max(initial=0))))


def _two_rows(total: SegmentStats, last: SegmentStats, n: int) -> SegmentStats:
    """Rows summing to ``total`` whose last is ``last``: the sum of the ``n - 1`` rows before
    it and ``last`` (``last`` alone for one segment). Integers: exact in float64."""
    if n == 1:
        return last
    end = last.to_matrix()
    return SegmentStats.from_matrix(np.vstack([total.to_matrix() - end, end]), last.max_order)
