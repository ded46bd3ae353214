"""compare-mt's salient n-gram analysis with per-segment Counters: the oracle of the columnar one.

This is compare-mt's own way of counting (``ngram_utils.compare_ngrams``: a
``Counter`` of n-gram tuples per sentence, ``min(hyp, ref)`` matches), on
sacrebleu's tokens, with the deviations ``bleuviz.analysis.salient`` documents:
the clip count over several references is the largest single-reference count,
each side lists only n-grams it matches more often, and ties go to the larger
total, then to the tokens. It was bleuviz's implementation before counting
became columnar, so every ranking rule here is spelled out in plain Python.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bleuviz.bleu.tokenize import TokenizeConfig, tokenize_lines

Ngram = tuple[str, ...]


@dataclass(frozen=True)
class OracleNgram:
    """One listed n-gram: tokens, both corpus counts, score, segments."""

    ngram: Ngram
    a_matches: int
    b_matches: int
    score: float
    segments: tuple[int, ...]


def ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[Ngram]:
    """Count every n-gram of orders 1..max_order in one token sequence."""
    return Counter(
        tuple(tokens[i : i + n])
        for n in range(1, max_order + 1)
        for i in range(len(tokens) - n + 1)
    )


def reference_clips(
    references: Sequence[Sequence[str]], tokenize: TokenizeConfig, max_order: int = 4
) -> list[Counter[Ngram]]:
    """Per segment, each reference n-gram's largest count in any single reference."""
    streams = [tokenize_lines(stream, tokenize) for stream in references]
    clips = []
    for lines in zip(*streams, strict=True):
        merged: Counter[Ngram] = Counter()
        for line in lines:
            merged |= ngram_counts(line.split(), max_order)
        clips.append(merged)
    return clips


def matched_ngrams(
    hypotheses: Sequence[str],
    clips: Sequence[Mapping[Ngram, int]],
    tokenize: TokenizeConfig,
    max_order: int = 4,
) -> list[Counter[Ngram]]:
    """Per segment, how many occurrences of each n-gram match: min(hyp, clip)."""
    out = []
    for line, clip in zip(tokenize_lines(hypotheses, tokenize), clips, strict=True):
        counts = ngram_counts(line.split(), max_order)
        out.append(Counter({g: min(c, clip[g]) for g, c in counts.items() if clip.get(g, 0) > 0}))
    return out


def salient_ngrams(
    a: Sequence[Mapping[Ngram, int]],
    b: Sequence[Mapping[Ngram, int]],
    alpha: float = 1.0,
    top: int = 50,
    orders: Iterable[int] = range(1, 5),
) -> tuple[list[OracleNgram], list[OracleNgram]]:
    """Return the "A better" and "B better" lists."""
    wanted = set(orders)
    total_a: Counter[Ngram] = Counter()
    total_b: Counter[Ngram] = Counter()
    for total, side in ((total_a, a), (total_b, b)):
        for counts in side:
            total.update({g: c for g, c in counts.items() if len(g) in wanted and c > 0})
    scored = [(g, total_a[g], total_b[g]) for g in set(total_a) | set(total_b)]

    def score(x: int, y: int) -> float:
        return (x + alpha) / (x + y + 2 * alpha)

    def rank(side: list[tuple[Ngram, int, int]], sign: int) -> list[OracleNgram]:
        best = sorted(side, key=lambda s: (-sign * score(s[1], s[2]), -s[1] - s[2], s[0]))[:top]
        return [
            OracleNgram(
                g,
                x,
                y,
                score(x, y),
                tuple(i for i in range(len(a)) if a[i].get(g, 0) > 0 or b[i].get(g, 0) > 0),
            )
            for g, x, y in best
        ]

    return rank([s for s in scored if s[1] > s[2]], 1), rank([s for s in scored if s[1] < s[2]], -1)
