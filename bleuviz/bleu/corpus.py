"""A test set's statistics for every system, computed once per tokenization."""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.bleu.chunks import CHUNK_CHARACTERS, chunked_stats
from bleuviz.bleu.orders import DEFAULT_ORDER
from bleuviz.bleu.stats import SegmentStats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.testset import TestSet
from bleuviz.progress import Progress


@dataclass(frozen=True, slots=True, eq=False)
class CorpusStats:
    """Per-system statistics of a test set under one tokenization.

    Attributes:
        testset: the text the statistics were counted from.
        tokenize: the tokenization all statistics share.
        n_refs: number of reference streams.
        systems: system name -> its per-segment statistics.
    """

    testset: TestSet
    tokenize: TokenizeConfig
    n_refs: int
    systems: dict[str, SegmentStats]


def compute_corpus_stats(
    testset: TestSet,
    tokenize: TokenizeConfig,
    max_order: int = DEFAULT_ORDER,
    workers: int = 1,
    budget: int = CHUNK_CHARACTERS,
    progress: Progress | None = None,
) -> CorpusStats:
    """Count every system against the references, chunk by chunk (``bleuviz.bleu.chunks``).

    Each chunk's references are tokenized and counted once, then every system
    is counted against them. ``workers`` > 1 counts chunks in that many threads
    (columnar tokenizers) or tokenizes in forked processes (the others: for the
    command line only). ``budget`` is the characters a chunk holds at most;
    ``progress`` hears how many segments are counted.
    """
    systems = chunked_stats(
        testset.systems, testset.references, tokenize, max_order, workers, budget, progress
    )
    return CorpusStats(testset, tokenize, len(testset.references), systems)
