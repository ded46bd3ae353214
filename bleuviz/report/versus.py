"""The first system against each other one: bucketed corpus BLEU and salient n-grams.

Buckets are ``bleuviz.analysis.buckets``'s (compare-mt's bucketers, by
properties of the first system and the references, so that every system's
bar in a bucket scores the same segments); salient n-grams are
``bleuviz.analysis.salient``'s (compare-mt's n-gram report), the report keeping
the top ``SALIENT_TOP`` of each side per pair rather than compare-mt's 50.
"""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.analysis.buckets import BUCKET_KINDS, bucket_table
from bleuviz.analysis.ngram_types import NgramTypes
from bleuviz.analysis.salient import MAX_ORDER, SalientNgram, salient_ngrams
from bleuviz.bleu.stats import pair_matches
from bleuviz.metrics.evaluation import Evaluation

#: Salient n-grams kept on each side of a pair.
SALIENT_TOP = 10


@dataclass(frozen=True, slots=True)
class BucketView:
    """One kind of bucket: the first system's property cut into buckets, every system's BLEU.

    Attributes:
        kind / title: the bucket kind and its title.
        labels: the buckets; counts: segments in each.
        scores: system -> corpus BLEU of each bucket's segments (NaN: empty bucket).
    """

    kind: str
    title: str
    labels: tuple[str, ...]
    counts: tuple[int, ...]
    scores: dict[str, tuple[float, ...]]


@dataclass(frozen=True, slots=True)
class SalientPair:
    """The n-grams A matches more often than B, and those B matches more often than A."""

    a: str
    b: str
    a_better: tuple[SalientNgram, ...]
    b_better: tuple[SalientNgram, ...]


def bucket_views(evaluation: Evaluation) -> tuple[BucketView, ...]:
    """Every bucket kind, bucketed by the first system, with every system's corpus BLEU."""
    names = list(evaluation.testset.systems)
    config = evaluation.settings.bleu
    first = evaluation.bleu(names[0]).stats
    views = []
    for kind, spec in BUCKET_KINDS.items():
        scores: dict[str, tuple[float, ...]] = {}
        counts: tuple[int, ...] = ()
        for other in names[1:] or names[:1]:
            table = bucket_table(kind, first, evaluation.bleu(other).stats, config)
            counts = tuple(int(c) for c in table["segments"])
            scores.setdefault(names[0], tuple(float(v) for v in table["bleu_a"]))
            scores[other] = tuple(float(v) for v in table["bleu_b"])
        views.append(BucketView(kind, spec.title, spec.labels, counts, scores))
    return tuple(views)


def salient_pairs(evaluation: Evaluation, top: int = SALIENT_TOP) -> tuple[SalientPair, ...]:
    """compare-mt's salient n-grams of the first system against each other one."""
    names = list(evaluation.testset.systems)
    if len(names) < 2:
        return ()
    testset = evaluation.testset
    types = NgramTypes.build(testset.references, evaluation.settings.tokenize, MAX_ORDER)
    first = pair_matches(testset.systems[names[0]], types.references)
    out = []
    for other in names[1:]:
        found = salient_ngrams(
            types, first, pair_matches(testset.systems[other], types.references), top=top
        )
        out.append(SalientPair(names[0], other, found.a_better, found.b_better))
    return tuple(out)
