"""chrF step by step for one candidate: character and word n-grams, per order, to the F-score.

Replicates sacrebleu 2.6's ``CHRF`` sentence score (``sacrebleu/metrics/chrf.py``)
with its defaults (no whitespace in character n-grams, no epsilon smoothing):
character n-grams of the text with its whitespace removed, word n-grams of the
words ``CHRF._remove_punctuation`` splits (chrF++ only), per order the candidate's
and the reference's n-gram counts and the clipped matches; precision and recall
of each order where both sides have n-grams, their averages, and
F_β = (1 + β²)·P·R / (β²·P + R). With several references, sacrebleu keeps the
first reference of the highest F. The statistics are the same rows as
``bleuviz.metrics.chrf_columnar``'s and the final F is ``chrf_score.f_scores``
of them, so the score is the metric's own; the tests hold it against sacrebleu.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleuviz.errors import InputError
from bleuviz.metrics.chrf_punctuation import PUNCTUATION
from bleuviz.metrics.chrf_score import ChrfConfig, f_scores


@dataclass(frozen=True, slots=True)
class ChrfOrder:
    """One order of character or word n-grams: counts, precision and recall.

    ``precision`` and ``recall`` are None where one side has no n-gram of this
    order: sacrebleu leaves such an order out of the averages (its effective order).
    """

    kind: str  # "character" or "word"
    order: int
    hyp: int
    ref: int
    matches: int

    @property
    def used(self) -> bool:
        """Whether the order enters the averages (both sides have n-grams)."""
        return self.hyp > 0 and self.ref > 0

    @property
    def precision(self) -> float | None:
        """matches / candidate n-grams, or None for an order left out."""
        return self.matches / self.hyp if self.used else None

    @property
    def recall(self) -> float | None:
        """matches / reference n-grams, or None for an order left out."""
        return self.matches / self.ref if self.used else None


@dataclass(frozen=True, slots=True)
class ChrfReference:
    """The candidate against one reference: every order and the F-score (0-100)."""

    orders: tuple[ChrfOrder, ...]
    score: float

    @property
    def avg_precision(self) -> float:
        """The mean precision over the orders in use (0 if none)."""
        used = [o.precision for o in self.orders if o.precision is not None]
        return sum(used) / len(used) if used else 0.0

    @property
    def avg_recall(self) -> float:
        """The mean recall over the orders in use (0 if none)."""
        used = [o.recall for o in self.orders if o.recall is not None]
        return sum(used) / len(used) if used else 0.0


@dataclass(frozen=True, slots=True)
class ChrfWalk:
    """chrF of one candidate: each reference's steps and the one sacrebleu keeps."""

    config: ChrfConfig
    references: tuple[ChrfReference, ...]
    best: int

    @property
    def score(self) -> float:
        """The sentence score (0-100): the best reference's F."""
        return self.references[self.best].score


def chrf_words(line: str) -> list[str]:
    """``CHRF._remove_punctuation``: a word loses a trailing, else a leading, punctuation mark."""
    out: list[str] = []
    for word in line.split():
        if len(word) > 1 and word[-1] in PUNCTUATION:
            out += [word[:-1], word[-1]]
        elif len(word) > 1 and word[0] in PUNCTUATION:
            out += [word[0], word[1:]]
        else:
            out.append(word)
    return out


def _ngrams(items: Sequence[str], n: int, joiner: str) -> Counter[str]:
    return Counter(joiner.join(items[i : i + n]) for i in range(len(items) - n + 1))


def _orders(hyp: str, ref: str, config: ChrfConfig) -> tuple[ChrfOrder, ...]:
    """Counts of every character order, then every word order."""
    sides = [(list("".join(text.split())), chrf_words(text)) for text in (hyp, ref)]
    orders = []
    for kind, index, top, joiner in (
        ("character", 0, config.char_order, ""),
        ("word", 1, config.word_order, " "),
    ):
        for n in range(1, top + 1):
            h, r = (_ngrams(side[index], n, joiner) for side in sides)
            matches = sum(min(count, r[gram]) for gram, count in h.items())
            # sacrebleu's _get_match_statistics: "Don't count hits if no reference
            # exists for that n-gram": the candidate's count is 0 then.
            hyp_count = sum(h.values()) if r else 0
            orders.append(ChrfOrder(kind, n, hyp_count, sum(r.values()), matches))
    return tuple(orders)


def chrf_walkthrough(hyp: str, references: Sequence[str], config: ChrfConfig) -> ChrfWalk:
    """Compute chrF's steps against every reference and pick sacrebleu's best.

    Raises:
        InputError: no reference.
    """
    if not references:
        raise InputError("references: at least one reference is required")
    if config.lowercase:
        hyp, references = hyp.lower(), [r.lower() for r in references]
    walks = []
    for ref in references:
        orders = _orders(hyp, ref, config)
        stats = np.array([[v for o in orders for v in (o.hyp, o.ref, o.matches)]])
        walks.append(ChrfReference(orders, float(f_scores(stats, config.beta)[0])))
    scores = [w.score for w in walks]
    return ChrfWalk(config, tuple(walks), scores.index(max(scores)))
