"""A test set's statistics for every system, computed once per tokenization."""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.bleu.orders import DEFAULT_ORDER
from bleuviz.bleu.references import ReferenceIndex, build_reference_index
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.testset import TestSet


@dataclass(frozen=True, slots=True, eq=False)
class CorpusStats:
    """Per-system statistics against one reference index.

    The reference index is shared: references are tokenized and counted once,
    then every system is counted against it.
    """

    testset: TestSet
    refs: ReferenceIndex
    systems: dict[str, SegmentStats]

    @property
    def tokenize(self) -> TokenizeConfig:
        """The tokenization all statistics share."""
        return self.refs.tokenize

    @property
    def n_refs(self) -> int:
        """Number of reference streams."""
        return self.refs.n_refs


def compute_corpus_stats(
    testset: TestSet, tokenize: TokenizeConfig, max_order: int = DEFAULT_ORDER, workers: int = 1
) -> CorpusStats:
    """Tokenize and count the references once and every system against them.

    ``workers`` > 1 tokenizes in forked processes: for the command line only.
    """
    refs = build_reference_index(testset.references, tokenize, max_order, workers)
    systems = {name: compute_stats(lines, refs, workers) for name, lines in testset.systems.items()}
    return CorpusStats(testset, refs, systems)
