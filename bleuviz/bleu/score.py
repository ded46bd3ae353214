"""BLEU from sufficient statistics: rows, a corpus, a subset, groups.

The maths never sees text: a corpus score is computed from the sum of its
segments' rows, a sentence score from one row, a bootstrap sample from a
resampled sum. Each flavour equals its reference implementation on the same
tokens (sacrebleu 2.x, nltk 3.10, tensorflow/nmt); all scores are 0-100.
"""

from __future__ import annotations

import numpy as np

from bleuviz.arrays import Index
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.result import BleuArrays, BleuScore
from bleuviz.bleu.signature import signature
from bleuviz.bleu.stats import SegmentStats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError


def score_rows(
    rows: SegmentStats, config: BleuConfig, last: SegmentStats | None = None
) -> BleuArrays:
    """Score every row of ``rows``; ``last`` is nltk's last-segment context (default: the rows)."""
    if rows.max_order < config.stats_order:
        raise ConfigError(
            f"max_order: statistics hold {rows.max_order} orders, {config.stats_order} needed"
        )
    context = rows if last is None else last
    return config.flavor_spec.score(rows, context, config.weight_vector, config)


def sentence_scores(stats: SegmentStats, config: BleuConfig) -> BleuArrays:
    """Score every segment on its own, with the flavour's sentence-level semantics."""
    return score_rows(stats, config.for_sentences())


def corpus_score(
    stats: SegmentStats,
    config: BleuConfig,
    tokenize: TokenizeConfig,
    n_refs: int,
    index: Index | None = None,
) -> BleuScore:
    """Return corpus BLEU of the segments at ``index`` (all by default) from their summed rows."""
    subset = stats if index is None else stats.select(index)
    if len(subset) == 0:
        raise ConfigError("index: the selection holds no segments")
    total = subset.total()
    arrays = score_rows(total, config, last=subset.select([len(subset) - 1]))
    return to_score(arrays, total, config, signature(config, tokenize, n_refs))


def to_score(
    arrays: BleuArrays, rows: SegmentStats, config: BleuConfig, sig: str, row: int = 0
) -> BleuScore:
    """Turn row ``row`` of a score array into a BleuScore."""
    k = config.max_order
    ref_len = config.flavor_spec.ref_lengths(rows)
    return BleuScore(
        score=float(arrays.score[row]),
        precisions=tuple(float(p) for p in arrays.precisions[row, :k]),
        counts=tuple(int(c) for c in rows.matches[row, :k]),
        totals=tuple(int(t) for t in rows.totals[row, :k]),
        bp=float(arrays.bp[row]),
        ratio=float(arrays.ratio[row]),
        hyp_len=int(rows.hyp_len[row]),
        ref_len=int(ref_len[row]),
        signature=sig,
    )


def group_scores(
    stats: SegmentStats, config: BleuConfig, groups: Index, n_groups: int
) -> BleuArrays:
    """Return corpus BLEU of each group (document, bucket) from its summed statistics.

    ``groups`` labels every segment with 0..n_groups-1. nltk's last-segment
    context is each group's last segment.
    """
    labels = np.asarray(groups, dtype=np.int64)
    totals = stats.group_totals(labels, n_groups)
    last_index = np.zeros(n_groups, dtype=np.int64)
    last_index[labels] = np.arange(len(labels))  # later positions overwrite earlier ones
    return score_rows(totals, config, last=stats.select(last_index))
