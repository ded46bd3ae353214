"""Which tokens make a ROUGE score, for highlighting (rouge-score 0.1.2 semantics).

Companion of :mod:`bleuviz.rouge.score`, which replicates google-research rouge-score
0.1.2. Every explanation recomputes its own ``RougeStats`` from the positions it
reports; the tests check that they equal :func:`bleuviz.rouge_stats.pair_stats`.

Choices where rouge-score reports only a count:
    * rougeL shows one LCS: the one rouge-score's ``lcs_ind`` reads out (see
      :func:`bleuviz.rouge_stats.lcs_pairs` for the backtracking rule).
    * rougeN marks n-gram occurrences left to right: an occurrence matches while
      its n-gram's clip budget ``min(hyp count, ref count)`` lasts, so the
      leftmost occurrences match first. A token is a "match" if it lies in a
      matched occurrence.
    * rougeLsum marks, per reference sentence, the union of its LCSs with every
      hyp sentence: "hit" if counted, "clipped" if rouge-score's double-count
      guard refused it (token budget spent), else "miss".
    * With several references, each type explains the reference that
      ``score_multi`` picks for it (first highest F-measure).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bleuviz.rouge.score import RougeConfig, check_refs, segment_stats
from bleuviz.rouge.stats import RougeScore, RougeStats, lcs_pairs, ngram_counts
from bleuviz.rouge.tokenize import TokenizedText, tokenize

NgramStatus = Literal["match", "miss"]
LsumStatus = Literal["hit", "clipped", "miss"]


@dataclass(frozen=True, slots=True)
class NgramOverlap:
    """One n-gram found in both texts; ``clipped = min(hyp_count, ref_count)``."""

    ngram: tuple[str, ...]
    hyp_count: int
    ref_count: int
    clipped: int


@dataclass(frozen=True, slots=True)
class NgramExplanation:
    """A rougeN explanation of one (hyp, ref) pair.

    Attributes:
        n: the n-gram order.
        hyp_tokens: hypothesis tokens.
        ref_tokens: reference tokens.
        overlaps: shared n-grams, in order of first occurrence in the hypothesis.
        hyp_status: per hyp token, "match" if it lies in a matched occurrence.
        ref_status: per ref token, likewise for the reference.
        stats: hits (sum of clipped counts) and n-gram totals.
    """

    n: int
    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[str, ...]
    overlaps: tuple[NgramOverlap, ...]
    hyp_status: tuple[NgramStatus, ...]
    ref_status: tuple[NgramStatus, ...]
    stats: RougeStats


@dataclass(frozen=True, slots=True)
class LcsExplanation:
    """A rougeL explanation: which tokens form the chosen LCS."""

    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[str, ...]
    hyp_in_lcs: tuple[bool, ...]
    ref_in_lcs: tuple[bool, ...]
    stats: RougeStats

    @property
    def lcs_length(self) -> int:
        """Length of the LCS (the number of True flags on either side)."""
        return self.stats.hits


@dataclass(frozen=True, slots=True)
class LsumSentence:
    """One reference sentence's union-LCS hits.

    Attributes:
        tokens: the reference sentence's tokens.
        status: per token "hit", "clipped" (in the union LCS but refused by the
            double-count guard) or "miss".
        hyp_in_lcs: per hyp sentence, per token, whether it is paired in that
            sentence's LCS with a "hit" token of this reference sentence.
    """

    tokens: tuple[str, ...]
    status: tuple[LsumStatus, ...]
    hyp_in_lcs: tuple[tuple[bool, ...], ...]


@dataclass(frozen=True, slots=True)
class LsumExplanation:
    """A rougeLsum explanation: hyp sentences and each ref sentence's hits.

    A hyp token may take part in the LCSs of several reference sentences, so the
    flags over all ``hyp_in_lcs`` can exceed ``stats.hits``; the ref statuses
    cannot (one "hit" per counted token).
    """

    hyp_sentences: tuple[tuple[str, ...], ...]
    ref_sentences: tuple[LsumSentence, ...]
    stats: RougeStats


Detail = NgramExplanation | LcsExplanation | LsumExplanation


@dataclass(frozen=True, slots=True)
class TypeExplanation:
    """One ROUGE type of one segment: the chosen reference, its score and why."""

    rouge_type: str
    ref_index: int
    score: RougeScore
    detail: Detail


def _occurrence_status(
    tokens: Sequence[str], n: int, budget: Counter[tuple[str, ...]]
) -> tuple[NgramStatus, ...]:
    left = Counter(budget)
    matched = [False] * len(tokens)
    for i in range(len(tokens) - n + 1):
        gram = tuple(tokens[i : i + n])
        if left[gram] > 0:
            left[gram] -= 1
            matched[i : i + n] = [True] * n
    return tuple("match" if m else "miss" for m in matched)


def explain_ngrams(
    hyp_tokens: Sequence[str], ref_tokens: Sequence[str], n: int
) -> NgramExplanation:
    """Explain rougeN: shared n-grams with their counts, and per-token statuses."""
    hyp_counts = ngram_counts(hyp_tokens, n)
    ref_counts = ngram_counts(ref_tokens, n)
    overlaps = tuple(
        NgramOverlap(gram, count, ref_counts[gram], min(count, ref_counts[gram]))
        for gram, count in hyp_counts.items()  # insertion order = first occurrence
        if ref_counts[gram] > 0
    )
    budget = Counter({o.ngram: o.clipped for o in overlaps})
    stats = RougeStats(sum(o.clipped for o in overlaps), hyp_counts.total(), ref_counts.total())
    return NgramExplanation(
        n,
        tuple(hyp_tokens),
        tuple(ref_tokens),
        overlaps,
        _occurrence_status(hyp_tokens, n, budget),
        _occurrence_status(ref_tokens, n, budget),
        stats,
    )


def explain_lcs(hyp_tokens: Sequence[str], ref_tokens: Sequence[str]) -> LcsExplanation:
    """Explain rougeL: flag the tokens of the LCS rouge-score's backtracking reads out."""
    pairs = lcs_pairs(ref_tokens, hyp_tokens)
    ref_hit = {i for i, _ in pairs}
    hyp_hit = {j for _, j in pairs}
    return LcsExplanation(
        tuple(hyp_tokens),
        tuple(ref_tokens),
        tuple(j in hyp_hit for j in range(len(hyp_tokens))),
        tuple(i in ref_hit for i in range(len(ref_tokens))),
        RougeStats(len(pairs), len(hyp_tokens), len(ref_tokens)),
    )


def explain_lsum(
    hyp_sents: Sequence[Sequence[str]], ref_sents: Sequence[Sequence[str]]
) -> LsumExplanation:
    """Explain rougeLsum as rouge-score's ``_summary_level_lcs`` counts it.

    Reference sentences are visited in order; each one's union-LCS positions in
    position order, and a token is a "hit" while it has budget left (its count
    in the whole hyp and in the whole ref).
    """
    hyp_budget = Counter(itertools.chain.from_iterable(hyp_sents))
    ref_budget = Counter(itertools.chain.from_iterable(ref_sents))
    sentences = []
    for ref in ref_sents:
        lcs_list = [lcs_pairs(ref, hyp) for hyp in hyp_sents]
        status: list[LsumStatus] = ["miss"] * len(ref)
        for i in sorted({i for lcs in lcs_list for i, _ in lcs}):
            token = ref[i]
            if hyp_budget[token] > 0 and ref_budget[token] > 0:
                hyp_budget[token] -= 1
                ref_budget[token] -= 1
                status[i] = "hit"
            else:
                status[i] = "clipped"
        aligned = [{j for i, j in lcs if status[i] == "hit"} for lcs in lcs_list]
        hyp_flags = tuple(
            tuple(j in hits for j in range(len(hyp)))
            for hyp, hits in zip(hyp_sents, aligned, strict=True)
        )
        sentences.append(LsumSentence(tuple(ref), tuple(status), hyp_flags))
    hits = sum(s.status.count("hit") for s in sentences)
    stats = RougeStats(hits, sum(map(len, hyp_sents)), sum(map(len, ref_sents)))
    return LsumExplanation(tuple(map(tuple, hyp_sents)), tuple(sentences), stats)


def explain_pair(hyp: TokenizedText, ref: TokenizedText, rouge_type: str) -> Detail:
    """Explain one type for one tokenized (hyp, ref) pair."""
    if rouge_type == "rougeL":
        return explain_lcs(hyp.tokens, ref.tokens)
    if rouge_type == "rougeLsum":
        return explain_lsum(hyp.sentences, ref.sentences)
    return explain_ngrams(hyp.tokens, ref.tokens, int(rouge_type[5:]))


def explain_rouge_types(
    hyp: str, refs: Sequence[str], config: RougeConfig
) -> dict[str, TypeExplanation]:
    """Explain every configured type of one segment against its chosen reference.

    Raises:
        InputError: ``refs`` is empty or not a sequence of strings.
    """
    check_refs(refs, "refs")
    hyp_tokens = tokenize(hyp, config.use_stemmer)
    ref_tokens = [tokenize(ref, config.use_stemmer) for ref in refs]
    result = {}
    for rouge_type, (best, stats) in segment_stats(hyp_tokens, ref_tokens, config).items():
        detail = explain_pair(hyp_tokens, ref_tokens[best], rouge_type)
        result[rouge_type] = TypeExplanation(rouge_type, best, stats.score(), detail)
    return result
