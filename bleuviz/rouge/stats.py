"""Sufficient statistics of one ROUGE type for one (hypothesis, reference) pair.

Reimplements the n-gram, LCS and union-LCS maths of rouge-score 0.1.2's
``rouge_scorer`` (each helper names the function it replicates), so that
:mod:`bleuviz.rouge.explain` can show which tokens form the LCS. Precision,
recall and F-measure use rouge-score's formulas in its operation order, so the
floats are bit-identical.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bleuviz.rouge.tokenize import TokenizedText


@dataclass(frozen=True, slots=True)
class RougeScore:
    """Precision, recall and F-measure of one ROUGE type, each in [0, 1]."""

    precision: float
    recall: float
    fmeasure: float


@dataclass(frozen=True, slots=True)
class RougeStats:
    """Sufficient statistics of one ROUGE type for one (hypothesis, reference) pair.

    Attributes:
        hits: clipped n-gram matches (rougeN), LCS length (rougeL) or union-LCS
            hits after rouge-score's double-count guard (rougeLsum).
        hyp_total: hypothesis n-grams (rougeN) or tokens (rougeL, rougeLsum).
        ref_total: reference n-grams (rougeN) or tokens (rougeL, rougeLsum).
    """

    hits: int
    hyp_total: int
    ref_total: int

    def score(self) -> RougeScore:
        """Compute precision, recall and F-measure exactly as rouge-score does."""
        precision = self.hits / max(self.hyp_total, 1)
        recall = self.hits / max(self.ref_total, 1)
        # rouge-score's scoring.fmeasure, same operation order.
        total = precision + recall
        fmeasure = 2 * precision * recall / total if total > 0 else 0.0
        return RougeScore(precision, recall, fmeasure)


def ngram_counts(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    """Count the n-grams of ``tokens`` (rouge-score's ``_create_ngrams``)."""
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _ngram_stats(hyp: Sequence[str], ref: Sequence[str], n: int) -> RougeStats:
    hyp_counts = ngram_counts(hyp, n)
    ref_counts = ngram_counts(ref, n)
    hits = sum(min(count, hyp_counts[gram]) for gram, count in ref_counts.items())
    return RougeStats(hits, max(len(hyp) - n + 1, 0), max(len(ref) - n + 1, 0))


def lcs_table(ref: Sequence[str], hyp: Sequence[str]) -> list[list[int]]:
    """Return the (len(ref)+1) x (len(hyp)+1) LCS length table (rouge-score's ``_lcs_table``)."""
    table = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
    for i, ref_token in enumerate(ref, start=1):
        above, row = table[i - 1], table[i]
        for j, hyp_token in enumerate(hyp, start=1):
            if ref_token == hyp_token:
                row[j] = above[j - 1] + 1
            else:
                row[j] = max(above[j], row[j - 1])
    return table


def lcs_pairs(ref: Sequence[str], hyp: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """Return one LCS as ``(ref position, hyp position)`` pairs, in order.

    The backtracking rule is rouge-score's ``_backtrack_norec``: from the
    bottom-right cell, take the diagonal when the tokens are equal; otherwise
    step left (skip the hyp token) only if the left cell is strictly greater
    than the cell above, else step up (skip the ref token). The ref positions
    are therefore exactly ``rouge_scorer.lcs_ind(ref, hyp)``, on which the
    rougeLsum union depends.
    """
    table = lcs_table(ref, hyp)
    i, j = len(ref), len(hyp)
    pairs: list[tuple[int, int]] = []
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return tuple(reversed(pairs))


def _summary_hits(ref_sents: Sequence[Sequence[str]], hyp_sents: Sequence[Sequence[str]]) -> int:
    """Count rougeLsum union-LCS hits as rouge-score's ``_summary_level_lcs`` does.

    For each ref sentence in order, the union of its LCS positions with every hyp
    sentence is walked in position order; a token counts only while it has budget
    left (its count in the whole hyp and in the whole ref), as ROUGE-1.5.5 does.
    """
    hyp_budget = Counter(itertools.chain.from_iterable(hyp_sents))
    ref_budget = Counter(itertools.chain.from_iterable(ref_sents))
    hits = 0
    for ref in ref_sents:
        union = sorted({i for hyp in hyp_sents for i, _ in lcs_pairs(ref, hyp)})
        for token in (ref[i] for i in union):
            if hyp_budget[token] > 0 and ref_budget[token] > 0:
                hits += 1
                hyp_budget[token] -= 1
                ref_budget[token] -= 1
    return hits


def pair_stats(hyp: TokenizedText, ref: TokenizedText, rouge_type: str) -> RougeStats:
    """Compute the sufficient statistics of ``rouge_type`` for one (hyp, ref) pair."""
    if rouge_type == "rougeL":
        hits = lcs_table(ref.tokens, hyp.tokens)[-1][-1]
    elif rouge_type == "rougeLsum":
        hits = _summary_hits(ref.sentences, hyp.sentences)
    else:
        return _ngram_stats(hyp.tokens, ref.tokens, int(rouge_type[5:]))
    return RougeStats(hits, len(hyp.tokens), len(ref.tokens))
