"""BLEU as a metric like the others: its rows are ``SegmentStats.to_matrix`` rows.

Every flavour (sacrebleu, nltk, tensorflow/nmt) is BLEU's settings, not another
metric: ``Settings.bleu`` says how rows become scores, ``Settings.tokenize`` how
text becomes rows. The maths is :mod:`bleuviz.bleu`'s; this module only fits
it to the protocol (:mod:`bleuviz.metrics.spec`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.metrics.score_report import CHUNK, ScoreReport
from bleuviz.metrics.spec import (
    MetricDetail,
    MetricScores,
    MetricSpec,
    Resampler,
    Settings,
    only,
    readonly,
)

if TYPE_CHECKING:
    from bleuviz.bleu.config import BleuConfig
    from bleuviz.bleu.corpus import CorpusStats
    from bleuviz.bleu.result import BleuArrays, BleuScore
    from bleuviz.bleu.stats import SegmentStats
    from bleuviz.bleu.summary import SentenceColumns
    from bleuviz.io.testset import TestSet
    from bleuviz.progress import Progress

#: BLEU's statistics per order: matches, totals and nltk's floored totals.
_BLOCKS = 3
#: Columns before them: hypothesis, closest and shortest reference lengths.
_LENGTHS = 3


def stats_of(rows: FloatArray) -> SegmentStats:
    """Turn rows back into ``SegmentStats`` (their order is read off the width)."""
    from bleuviz.bleu.stats import SegmentStats

    return SegmentStats.from_matrix(rows, (rows.shape[-1] - _LENGTHS) // _BLOCKS)


def rows_of(corpus: CorpusStats, systems: Sequence[str] | None = None) -> dict[str, FloatArray]:
    """Return the rows of statistics already counted (the app's cached ``CorpusStats``)."""
    names = corpus.systems if systems is None else systems
    return {name: corpus.systems[name].to_matrix() for name in names}


@dataclass(frozen=True, slots=True)
class BleuDetail(MetricDetail):
    """BLEU's evidence for one system, beside its scores: what the pages and reports show.

    Attributes:
        stats: the segment statistics (matches and totals by order, lengths).
        score: the corpus score with its precisions by order, brevity penalty,
            lengths and signature (sacrebleu's ``BLEUScore`` fields).
        arrays: every segment's score, precisions, brevity penalty and length
            ratio, with the flavour's sentence-level semantics (``sentence`` is
            their ``score``).
        ref_len: each segment's reference length as the flavour counts it
            (sacrebleu's closest, tensorflow/nmt's shortest).
    """

    stats: SegmentStats
    score: BleuScore
    arrays: BleuArrays
    ref_len: IntArray


@dataclass(frozen=True, slots=True)
class BleuMetric(MetricSpec):
    """BLEU in the flavour, tokenization and smoothing the settings name."""

    def reads(self, settings: Settings) -> Settings:
        """BLEU reads its own settings and tokenization (its lowercasing included)."""
        return Settings(bleu=settings.bleu, tokenize=settings.tokenize, workers=settings.workers)

    def rows(
        self,
        testset: TestSet,
        settings: Settings,
        systems: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> dict[str, FloatArray]:
        """Tokenize and count each system against the references, chunk by chunk."""
        from bleuviz.bleu.corpus import compute_corpus_stats  # pyarrow, for BLEU only

        corpus = compute_corpus_stats(
            only(testset, systems),
            settings.tokenize,
            settings.bleu.stats_order,
            settings.workers,
            progress=progress,
        )
        return rows_of(corpus)

    def detail(self, testset: TestSet, settings: Settings, rows: FloatArray) -> BleuDetail:
        """BLEU's scores of one system with its evidence, all from the same statistics."""
        from bleuviz.bleu.score import corpus_score, sentence_scores

        stats = stats_of(readonly(rows))
        score = corpus_score(stats, settings.bleu, settings.tokenize, len(testset.references))
        arrays = sentence_scores(stats, settings.bleu)
        ref_len = settings.bleu.flavor_spec.ref_lengths(stats)
        ref_len.flags.writeable = False
        return BleuDetail(
            rows,
            readonly(arrays.score),
            self.corpus_score(rows, settings),
            score.signature,
            stats,
            score,
            arrays,
            ref_len,
        )

    def corpus_score(self, rows: FloatArray, settings: Settings) -> float:
        """Corpus BLEU of the summed rows (nltk's context: the last row)."""
        return self.resampler(settings, rows).corpus_score(rows)

    def sentence_scores(self, rows: FloatArray, settings: Settings) -> FloatArray:
        """Each segment's BLEU with the flavour's sentence-level semantics."""
        from bleuviz.bleu.score import sentence_scores

        return sentence_scores(stats_of(rows), settings.bleu).score

    def signature(self, testset: TestSet, settings: Settings, rows: FloatArray) -> str:
        """sacrebleu's BLEU signature (with what sacrebleu cannot express added)."""
        from bleuviz.bleu.signature import signature

        return signature(settings.bleu, settings.tokenize, len(testset.references))

    def resampler(self, settings: Settings, rows: FloatArray) -> Resampler:
        """Score resampled sums with the flavour's maths (sacrebleu's float32 kept)."""
        from bleuviz.bleu.resampler import BleuResampler

        return BleuResampler(settings.bleu, (rows.shape[-1] - _LENGTHS) // _BLOCKS)

    @property
    def json_alias(self) -> str | None:
        """``bleu``: sacrebleu's JSON key for the score, kept beside ``score``."""
        return "bleu"

    def score_report(
        self, scores: MetricScores, rows: FloatArray, settings: Settings
    ) -> ScoreReport:
        """Report BLEU as sacrebleu does: ``BLEU = 29.42 76.5/56.2/33.3/21.4 (BP = ...)``.

        The JSON fields are sacrebleu's ``BLEUScore`` flattened at the top of the
        system's object (``bleu``, ``precisions``, ``counts``, ``totals``, ``bp``,
        ``ratio``, ``hyp_len``, ``ref_len``, ``signature``), each segment a dict of
        its score, counts, totals and lengths; the signature line is the signature
        alone; LaTeX adds the brevity penalty, the ratio and both lengths.
        """
        score = corpus_result(rows, settings.bleu, scores.signature)
        fields = {
            "bleu": score.score,
            "precisions": list(score.precisions),
            "counts": list(score.counts),
            "totals": list(score.totals),
            "bp": score.bp,
            "ratio": score.ratio,
            "hyp_len": score.hyp_len,
            "ref_len": score.ref_len,
            "signature": score.signature,
        }
        columns = (
            (self.label, f"{score.score:.{self.digits}f}"),
            ("BP", f"{score.bp:.3f}"),
            ("Ratio", f"{score.ratio:.3f}"),
            ("Hyp len", str(score.hyp_len)),
            ("Ref len", str(score.ref_len)),
        )
        return ScoreReport(
            name=self.label,
            score=score.score,
            digits=self.digits,
            line=score.format(self.digits),
            fields=fields,
            listed=False,
            signature=score.signature,
            signature_prefix="",
            columns=columns,
            sentences=lambda: _sentence_dicts(scores.sentence, stats_of(rows), settings.bleu),
        )

    def subset_name(self, escape: Callable[[str], str]) -> str:
        """A subset's BLEU is the corpus BLEU of its summed statistics, as the page says
        beside the mean of sentence BLEU: "corpus BLEU"."""
        return f"corpus {self.shown_name(escape)}"


def corpus_result(rows: FloatArray, config: BleuConfig, signature: str) -> BleuScore:
    """Return corpus BLEU of ``rows`` with its precisions, brevity penalty and lengths.

    The statistics are summed; nltk's context is the last row (as ``corpus_score``).
    """
    from bleuviz.bleu.score import score_rows, to_score

    stats = stats_of(rows)
    total = stats.total()
    arrays = score_rows(total, config, last=stats.select([len(stats) - 1]))
    return to_score(arrays, total, config, signature)


def _sentence_dicts(
    sentence: FloatArray, stats: SegmentStats, config: BleuConfig
) -> Iterator[dict[str, Any]]:
    """Yield each segment's score, counts, totals and lengths (``sentence_dicts``)."""
    from bleuviz.bleu.summary import SentenceColumns

    return sentence_dicts(sentence, SentenceColumns.of(stats, config))


def sentence_dicts(sentence: FloatArray, columns: SentenceColumns) -> Iterator[dict[str, Any]]:
    """Yield each segment's score, counts, totals and lengths, ``CHUNK`` segments at a time.

    The columns are computed at once; the dicts are built a chunk at a time
    (``tolist``), so a million segments never sit in memory as Python objects.
    """
    keys = ("bleu", "counts", "totals", "hyp_len", "ref_len")
    for start in range(0, len(sentence), CHUNK):
        part = slice(start, start + CHUNK)
        rows = zip(
            sentence[part].tolist(),
            columns.matches[part].tolist(),
            columns.totals[part].tolist(),
            columns.hyp_len[part].tolist(),
            columns.ref_len[part].tolist(),
            strict=True,
        )
        yield from (dict(zip(keys, row, strict=True)) for row in rows)


#: Sentence BLEU is bucketed in tens, as compare-mt's ``ScoreBucketer`` does.
BLEU = BleuMetric(
    "BLEU",
    "BLEU",
    paired_tests=True,
    always_on=True,
    bucket_edges=tuple(float(edge) for edge in range(10, 100, 10)),
)
