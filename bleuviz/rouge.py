"""ROUGE-N, ROUGE-L and ROUGE-Lsum, equal to google-research rouge-score 0.1.2.

Replicates ``rouge_score.rouge_scorer.RougeScorer.score`` and ``score_multi`` of
rouge-score 0.1.2 (a port of ROUGE-1.5.5.pl). Tokens come from rouge-score's own
``DefaultTokenizer`` (a runtime dependency); the scoring maths is reimplemented
so that :mod:`bleuviz.rouge_explain` can show which tokens form the LCS. The
tests use ``RougeScorer`` as the oracle, to 1e-9.

Every type reduces to sufficient statistics ``RougeStats(hits, hyp_total,
ref_total)``. Precision, recall and F-measure use rouge-score's formulas in its
operation order, so the floats are bit-identical and ``score_multi`` ties break
alike.

Deliberate deviations (none changes a number):
    * A text is tokenized once, line by line; the whole-text tokens (rougeN,
      rougeL) are the concatenation of the line tokens. rouge-score tokenizes the
      text again as a whole, with the same result since ``"\\n"`` separates tokens.
    * rougeLsum splits on ``"\\n"`` and drops empty lines, as rouge-score does with
      its default ``split_summaries=False``; the nltk splitter is not offered.
    * Bad types raise :class:`ConfigError` when the config is built, not
      ``ValueError`` while scoring.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt
from rouge_score import tokenizers

from bleuviz.errors import ConfigError, InputError

ROUGE_TYPES: tuple[str, ...] = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


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


@dataclass(frozen=True, slots=True)
class RougeConfig:
    """Which ROUGE types to compute, and whether to Porter-stem tokens.

    Attributes:
        rouge_types: names from :data:`ROUGE_TYPES`, without duplicates.
        use_stemmer: stem tokens longer than three characters, as rouge-score does.
    """

    rouge_types: tuple[str, ...] = ("rouge1", "rouge2", "rougeL", "rougeLsum")
    use_stemmer: bool = False

    def __post_init__(self) -> None:
        types: Any = self.rouge_types
        if isinstance(types, str) or not isinstance(types, Sequence):
            raise ConfigError(f"rouge_types: expected a sequence of names, got {types!r}")
        object.__setattr__(self, "rouge_types", tuple(types))
        unknown = [t for t in self.rouge_types if t not in ROUGE_TYPES]
        if unknown or not self.rouge_types:
            raise ConfigError(
                f"rouge_types: got {self.rouge_types!r}; "
                "expected one or more of rouge1 .. rouge9, rougeL, rougeLsum"
            )
        if len(set(self.rouge_types)) != len(self.rouge_types):
            raise ConfigError(f"rouge_types: duplicate names in {self.rouge_types!r}")
        if not isinstance(self.use_stemmer, bool):
            raise ConfigError(f"use_stemmer: expected True or False, got {self.use_stemmer!r}")


@dataclass(frozen=True, slots=True)
class TokenizedText:
    """A text tokenized once by rouge-score's ``DefaultTokenizer``.

    Attributes:
        sentences: tokens of each rougeLsum sentence: of each non-empty line of
            the text split on ``"\\n"`` (a line of only punctuation has no tokens).
        tokens: tokens of the whole text, used by rougeN and rougeL.
    """

    sentences: tuple[tuple[str, ...], ...]
    tokens: tuple[str, ...]


@functools.lru_cache(maxsize=2)
def _tokenizer(use_stemmer: bool) -> Any:
    return tokenizers.DefaultTokenizer(use_stemmer=use_stemmer)


def tokenize(text: str, use_stemmer: bool = False) -> TokenizedText:
    """Tokenize ``text`` line by line with rouge-score's own tokenizer.

    Raises:
        InputError: ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise InputError(f"text: expected a string, got {type(text).__name__}")
    tokenizer = _tokenizer(use_stemmer)
    sentences = tuple(tuple(tokenizer.tokenize(line)) for line in text.split("\n") if line)
    return TokenizedText(sentences, tuple(itertools.chain.from_iterable(sentences)))


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


def best_reference(candidates: Sequence[RougeStats]) -> int:
    """Return the index of the first candidate with the highest F-measure.

    This is ``np.argmax`` over F-measures, as in ``RougeScorer.score_multi``.
    """
    scores = [stats.score().fmeasure for stats in candidates]
    return scores.index(max(scores))


def segment_stats(
    hyp: TokenizedText, refs: Sequence[TokenizedText], config: RougeConfig
) -> dict[str, tuple[int, RougeStats]]:
    """Return, per type, the chosen reference's index and its statistics.

    Like ``score_multi``, the reference is chosen separately for each type.
    """
    result: dict[str, tuple[int, RougeStats]] = {}
    for rouge_type in config.rouge_types:
        candidates = [pair_stats(hyp, ref, rouge_type) for ref in refs]
        best = best_reference(candidates)
        result[rouge_type] = (best, candidates[best])
    return result


def check_refs(refs: Sequence[str], where: str) -> None:
    """Refuse ``refs`` unless it is a non-empty sequence (not a string) of references.

    Raises:
        InputError: naming ``where``.
    """
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise InputError(f"{where}: expected a sequence of reference strings, got {refs!r:.60}")
    if not refs:
        raise InputError(f"{where}: at least one reference is required")


def score_segment(hyp: str, refs: Sequence[str], config: RougeConfig) -> dict[str, RougeScore]:
    """Score one hypothesis against its references, like ``RougeScorer.score_multi``.

    Raises:
        InputError: ``refs`` is empty or not a sequence of strings.
    """
    check_refs(refs, "refs")
    tokens = tokenize(hyp, config.use_stemmer)
    ref_tokens = [tokenize(ref, config.use_stemmer) for ref in refs]
    chosen = segment_stats(tokens, ref_tokens, config)
    return {rouge_type: stats.score() for rouge_type, (_, stats) in chosen.items()}


@dataclass(frozen=True, slots=True)
class CorpusRouge:
    """Per-segment ROUGE scores of a corpus (read-only arrays, one value per segment).

    Attributes:
        rouge_types: the types computed, in config order.
        precision: type -> precision per segment.
        recall: type -> recall per segment.
        fmeasure: type -> F-measure per segment.
        best_ref: type -> index of the reference chosen per segment (score_multi).
    """

    rouge_types: tuple[str, ...]
    precision: Mapping[str, FloatArray]
    recall: Mapping[str, FloatArray]
    fmeasure: Mapping[str, FloatArray]
    best_ref: Mapping[str, IntArray]

    def __len__(self) -> int:
        return len(self.fmeasure[self.rouge_types[0]])

    def mean(self, rouge_type: str) -> RougeScore:
        """Return the arithmetic mean over segments of P, R and F (no bootstrap).

        This is the "mean of sentence scores" people report from rouge-score; the
        mean F is not the F of the mean P and R.

        Raises:
            ConfigError: ``rouge_type`` was not computed.
        """
        if rouge_type not in self.rouge_types:
            raise ConfigError(f"rouge_type: {rouge_type!r} not computed; have {self.rouge_types}")
        return RougeScore(
            float(np.mean(self.precision[rouge_type])),
            float(np.mean(self.recall[rouge_type])),
            float(np.mean(self.fmeasure[rouge_type])),
        )

    def segment(self, index: int) -> dict[str, RougeScore]:
        """Return segment ``index``'s scores (0-based), as :func:`score_segment` gives them."""
        return {
            t: RougeScore(
                float(self.precision[t][index]),
                float(self.recall[t][index]),
                float(self.fmeasure[t][index]),
            )
            for t in self.rouge_types
        }


def _readonly(columns: Mapping[str, Sequence[float]], dtype: type) -> Mapping[str, Any]:
    arrays: dict[str, Any] = {}
    for key, values in columns.items():
        arrays[key] = np.array(values, dtype=dtype)
        arrays[key].flags.writeable = False
    return MappingProxyType(arrays)


def score_corpus(
    hyps: Sequence[str], refs: Sequence[Sequence[str]], config: RougeConfig
) -> CorpusRouge:
    """Score every segment, tokenizing each distinct string once for all types.

    Args:
        hyps: one hypothesis per segment.
        refs: one sequence of reference strings per segment (not one per stream).
        config: the types and stemming.

    Raises:
        InputError: no segments, counts differ, or a segment has no references.
    """
    if not hyps:
        raise InputError("hyps: no segments to score")
    if len(hyps) != len(refs):
        raise InputError(f"hyps has {len(hyps)} segments but refs has {len(refs)}")
    cache: dict[str, TokenizedText] = {}

    def tok(text: str) -> TokenizedText:
        if text not in cache:
            cache[text] = tokenize(text, config.use_stemmer)
        return cache[text]

    rows = []
    for index, (hyp, seg_refs) in enumerate(zip(hyps, refs, strict=True)):
        check_refs(seg_refs, f"refs[{index}]")
        rows.append(segment_stats(tok(hyp), [tok(ref) for ref in seg_refs], config))
    types = config.rouge_types
    scores = {t: [row[t][1].score() for row in rows] for t in types}
    return CorpusRouge(
        types,
        precision=_readonly({t: [s.precision for s in scores[t]] for t in types}, np.float64),
        recall=_readonly({t: [s.recall for s in scores[t]] for t in types}, np.float64),
        fmeasure=_readonly({t: [s.fmeasure for s in scores[t]] for t in types}, np.float64),
        best_ref=_readonly({t: [row[t][0] for row in rows] for t in types}, np.int64),
    )
