"""Corpus BLEU of a small corpus, from summed counts, against its sentence scores.

For the Learn page's editable corpus: one score from the summed statistics (as
sacrebleu's ``corpus_bleu``, effective order off) next to each segment scored
alone (``sentence_scores``), with a table of every row's counts and the sums.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pandas as pd

from bleuviz.bleu import BleuConfig, corpus_score, get_flavor, sentence_scores
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.result import BleuScore
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig

# Written for bleuviz: a short exact match, a long good one, a loose paraphrase, a clipped one.
SAMPLE_CORPUS: tuple[tuple[str, str], ...] = (
    ("Thank you.", "Thank you very much."),
    (
        "The meeting has been moved to Thursday at noon.",
        "The meeting has been moved to Thursday at noon.",
    ),
    ("Prices rose sharply last year.", "Last year prices went up a lot."),
    ("Yes yes yes.", "Yes."),
)


@dataclass(frozen=True, slots=True)
class CorpusVsSentence:
    """Corpus BLEU of a small corpus (summed counts) against its sentence scores."""

    corpus: BleuScore
    sentence: tuple[float, ...]
    stats: SegmentStats
    flavor: str

    @property
    def mean_sentence(self) -> float:
        """The mean of the sentence scores: every segment weighs the same."""
        return math.fsum(self.sentence) / len(self.sentence)


def corpus_vs_sentence(
    hypotheses: Sequence[str],
    references: Sequence[str],
    tokenize: TokenizeConfig,
    config: BleuConfig,
) -> CorpusVsSentence:
    """Score a corpus once from summed counts (effective order off, as ``corpus_bleu``)
    and each segment alone (``sentence_scores``)."""
    index = build_reference_index([list(references)], tokenize, config.stats_order)
    stats = compute_stats(list(hypotheses), index)
    corpus = corpus_score(stats, replace(config, effective_order=False), tokenize, 1)
    sentence = tuple(float(s) for s in sentence_scores(stats, config).score)
    return CorpusVsSentence(corpus, sentence, stats, config.flavor)


def corpus_frame(result: CorpusVsSentence, order: int) -> pd.DataFrame:
    """One row per segment and one of sums: BLEU, c, r and m_n/t_n per order."""
    stats, total = result.stats, result.stats.total()
    ref_len = get_flavor(result.flavor).ref_lengths(stats)
    labels = [f"segment {i + 1}" for i in range(len(stats))] + ["corpus (summed)"]
    frame = pd.DataFrame(
        {
            "": labels,
            "BLEU": [*result.sentence, result.corpus.score],
            "c": [*map(int, stats.hyp_len), int(total.hyp_len[0])],
            "r": [*map(int, ref_len), result.corpus.ref_len],
        }
    )
    for n in range(order):
        pairs = zip(
            [*stats.matches[:, n], total.matches[0, n]],
            [*stats.totals[:, n], total.totals[0, n]],
            strict=True,
        )
        frame[f"p{n + 1}"] = [f"{int(m)}/{int(t)}" for m, t in pairs]
    return frame
