"""One segment's n-grams: matched, clipped and unmatched occurrences.

Computed on demand for the segments on screen, never for a whole corpus. The
counts follow sacrebleu's ``_compute_segment_statistics``: an n-gram's clip
count is its maximum count in any single reference (Papineni et al., 2002,
"modified n-gram precision"), so its first ``min(hyp count, clip count)``
occurrences in the hypothesis are *matched* and the rest are *clipped*.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bleuviz.bleu.flavors.base import Flavor
from bleuviz.bleu.orders import DEFAULT_ORDER
from bleuviz.bleu.spans import Span, align_tokens
from bleuviz.bleu.tokenize import TokenizeConfig, preprocess

MATCH, CLIP, MISS = "match", "clip", "miss"
Ngram = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NgramRow:
    """One distinct hypothesis n-gram with its counts."""

    ngram: Ngram
    hyp_count: int
    max_ref_count: int
    best_ref: int | None  # index of the first reference holding max_ref_count; None if 0

    @property
    def matched(self) -> int:
        """Occurrences credited: min(hyp count, max reference count)."""
        return min(self.hyp_count, self.max_ref_count)

    @property
    def clipped(self) -> int:
        """Occurrences present in some reference but beyond the clip count."""
        return self.hyp_count - self.matched if self.max_ref_count else 0

    @property
    def text(self) -> str:
        """The n-gram's tokens joined by spaces."""
        return " ".join(self.ngram)


@dataclass(frozen=True, slots=True)
class SegmentExplanation:
    """Everything the app highlights about one segment.

    Attributes:
        hyp_tokens / ref_tokens: tokens after sacrebleu's preprocessing.
        hyp_spans / ref_spans: each token's character span in the original text,
            or None where the tokenizer changed the text so it cannot be aligned.
        rows: per order (index n-1), the distinct hypothesis n-grams in first-seen order.
        statuses: per order, the status of the n-gram occurrence starting at each position.
    """

    hyp_text: str
    ref_texts: tuple[str, ...]
    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[tuple[str, ...], ...]
    hyp_spans: tuple[Span, ...] | None
    ref_spans: tuple[tuple[Span, ...] | None, ...]
    rows: tuple[tuple[NgramRow, ...], ...]
    statuses: tuple[tuple[str, ...], ...]

    @property
    def max_order(self) -> int:
        """Number of orders explained."""
        return len(self.rows)

    def matches(self, order: int) -> int:
        """Clipped match count of ``order`` (equals the statistics row)."""
        return sum(row.matched for row in self.rows[order - 1])

    def totals(self, order: int) -> int:
        """Hypothesis n-grams of ``order``."""
        return max(len(self.hyp_tokens) - order + 1, 0)

    def token_statuses(self, order: int) -> tuple[str, ...]:
        """Status of each hypothesis token at ``order``.

        A token is *match* if some matched n-gram occurrence covers it, else *clip*
        if a clipped one does, else *miss*. At order 1 this is the occurrence status.
        """
        best = [MISS] * len(self.hyp_tokens)
        rank = {MISS: 0, CLIP: 1, MATCH: 2}
        for start, status in enumerate(self.statuses[order - 1]):
            for pos in range(start, start + order):
                if rank[status] > rank[best[pos]]:
                    best[pos] = status
        return tuple(best)

    def ref_coverage(self, order: int) -> tuple[tuple[bool, ...], ...]:
        """For each reference, which tokens lie in an occurrence the hypothesis matched.

        Each matched n-gram covers at most its matched count of occurrences in a
        reference, earliest first, so a reference word is not credited twice.
        """
        budget = {row.ngram: row.matched for row in self.rows[order - 1] if row.matched}
        return tuple(_cover(tokens, order, budget) for tokens in self.ref_tokens)

    def ref_len(self, flavor: Flavor) -> int:
        """Reference length ``flavor``'s brevity penalty uses (equals the statistics row).

        The closest length, ties to the shorter (sacrebleu, nltk), or the shortest
        (tf-nmt).
        """
        lengths = [len(r) for r in self.ref_tokens]
        if flavor.brevity_reference == "shortest":
            return min(lengths)
        hyp_len = len(self.hyp_tokens)
        return min(lengths, key=lambda r: (abs(r - hyp_len), r))


def explain_segment(
    hypothesis: str,
    references: Sequence[str],
    tokenize: TokenizeConfig,
    max_order: int = DEFAULT_ORDER,
) -> SegmentExplanation:
    """Tokenize one segment and classify every hypothesis n-gram occurrence."""
    hyp_tokens = tuple(preprocess(hypothesis, tokenize).split())
    ref_tokens = tuple(tuple(preprocess(ref, tokenize).split()) for ref in references)
    rows: list[tuple[NgramRow, ...]] = []
    statuses: list[tuple[str, ...]] = []
    for order in range(1, max_order + 1):
        order_rows, order_statuses = _explain_order(hyp_tokens, ref_tokens, order)
        rows.append(order_rows)
        statuses.append(order_statuses)
    return SegmentExplanation(
        hyp_text=hypothesis,
        ref_texts=tuple(references),
        hyp_tokens=hyp_tokens,
        ref_tokens=ref_tokens,
        hyp_spans=align_tokens(hypothesis, hyp_tokens, tokenize.lowercase),
        ref_spans=tuple(
            align_tokens(text, tokens, tokenize.lowercase)
            for text, tokens in zip(references, ref_tokens, strict=True)
        ),
        rows=tuple(rows),
        statuses=tuple(statuses),
    )


def _ngrams(tokens: Sequence[str], order: int) -> list[Ngram]:
    """Return the n-gram starting at every position, in order."""
    return [tuple(tokens[i : i + order]) for i in range(len(tokens) - order + 1)]


def _explain_order(
    hyp: tuple[str, ...], refs: tuple[tuple[str, ...], ...], order: int
) -> tuple[tuple[NgramRow, ...], tuple[str, ...]]:
    """Count one order's n-grams and give each hypothesis occurrence its status."""
    occurrences = _ngrams(hyp, order)
    hyp_counts = Counter(occurrences)
    ref_counts = [Counter(_ngrams(ref, order)) for ref in refs]
    rows = []
    for gram, count in hyp_counts.items():
        per_ref = [counts[gram] for counts in ref_counts]
        best = max(per_ref, default=0)
        rows.append(NgramRow(gram, count, best, per_ref.index(best) if best else None))
    by_gram = {row.ngram: row for row in rows}
    seen: Counter[Ngram] = Counter()
    out = []
    for gram in occurrences:
        seen[gram] += 1
        row = by_gram[gram]
        out.append(MATCH if seen[gram] <= row.matched else CLIP if row.max_ref_count else MISS)
    return tuple(rows), tuple(out)


def _cover(tokens: tuple[str, ...], order: int, budget: dict[Ngram, int]) -> tuple[bool, ...]:
    """Mark tokens of a reference covered by up to ``budget[g]`` occurrences of each n-gram g."""
    covered = [False] * len(tokens)
    used: Counter[Ngram] = Counter()
    for start, gram in enumerate(_ngrams(tokens, order)):
        if used[gram] < budget.get(gram, 0):
            used[gram] += 1
            covered[start : start + order] = [True] * order
    return tuple(covered)
