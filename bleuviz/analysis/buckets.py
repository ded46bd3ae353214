"""Two systems segment by segment: sentence BLEU differences and bucketed corpus BLEU.

The buckets follow compare-mt's sentence bucketers (neulab/compare-mt,
``compare_mt/bucketers.py``: ``LengthSentenceBucketer``, ``ScoreSentenceBucketer``)
with fixed edges, and each bucket's score is the corpus BLEU of its segments
computed from their summed statistics (``group_scores``), never by re-tokenizing.

Deliberate deviations from compare-mt:

* Every kind buckets the segments *once*, by a property that system B does not
  change: the reference length, the baseline's sentence BLEU or the baseline's
  length ratio. compare-mt buckets each system by its own score or length, so
  its bars for two systems may cover different segments; here A's and B's bars
  in one bucket always score the same segments, and one count describes both.
* With several references, "reference length" is the shortest one: it does not
  depend on any hypothesis (the closest length does). compare-mt takes one reference.
* The length ratio uses the reference length the flavour's brevity penalty uses
  (closest; shortest for tf-nmt). An empty reference gives ratio 1 for an empty
  hypothesis and infinity otherwise (the flavours report 0 there).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pandas as pd

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu import BleuConfig, group_scores, sentence_scores
from bleuviz.bleu.stats import SegmentStats
from bleuviz.errors import ConfigError, InputError
from bleuviz.metrics.bleu_metric import BLEU
from bleuviz.metrics.spec import MetricSpec, Settings

#: Sentence BLEU differences within this distance count as ties.
TIE_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class BucketKind:
    """A way of bucketing segments: bucket ``i`` holds values in ``[edges[i-1], edges[i])``.

    The first bucket is open below and the last open above, so ``labels`` has
    one more entry than ``edges``.
    """

    name: str
    title: str
    edges: tuple[float, ...]
    labels: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.labels) != len(self.edges) + 1:
            raise ConfigError(
                f"labels: {len(self.labels)} labels for {len(self.edges)} edges of {self.name!r}"
            )


#: What a kind buckets segments by, from the baseline's statistics and BLEU's settings.
BucketValues = Callable[[SegmentStats, BleuConfig], FloatArray]


def _reference_length(stats: SegmentStats, config: BleuConfig) -> FloatArray:
    """The shortest reference's length, per segment (no hypothesis changes it)."""
    return stats.shortest_ref_len.astype(np.float64)


def _length_ratio(stats: SegmentStats, config: BleuConfig) -> FloatArray:
    """Hypothesis length over the flavour's reference length, per segment."""
    ref = config.flavor_spec.ref_lengths(stats)
    hyp = stats.hyp_len.astype(np.float64)
    empty = np.where(hyp > 0, np.inf, 1.0)
    return np.divide(hyp, ref, out=empty, where=ref > 0)


def _sentence_score(metric: MetricSpec) -> tuple[BucketKind, BucketValues]:
    """Bucket by the baseline's sentence score on ``metric``, at the metric's own edges.

    BLEU's are tens, as compare-mt's ``ScoreSentenceBucketer``; the first bucket
    starts at 0 and the last ends at the metric's scale ("0–10" ... "90–100").
    """
    bounds = (0.0, *metric.bucket_edges, metric.scale)
    labels = tuple(f"{lo:g}–{hi:g}" for lo, hi in pairwise(bounds))
    kind = BucketKind(
        metric.key.lower(), f"Sentence {metric.label} of A", metric.bucket_edges, labels
    )

    def scores(stats: SegmentStats, config: BleuConfig) -> FloatArray:
        return metric.sentence_scores(stats.to_matrix(), Settings(bleu=config))

    return kind, scores


_KINDS: tuple[tuple[BucketKind, BucketValues], ...] = (
    (
        BucketKind(
            "ref_len",
            "Reference length (tokens)",
            (10, 20, 30, 40),
            ("<10", "10–19", "20–29", "30–39", "40+"),
        ),
        _reference_length,
    ),
    _sentence_score(BLEU),
    (
        BucketKind(
            "ratio",
            "Length ratio of A (hyp / ref)",
            (0.8, 0.9, 1.0, 1.1, 1.2),
            ("<0.8", "0.8–0.9", "0.9–1.0", "1.0–1.1", "1.1–1.2", "≥1.2"),
        ),
        _length_ratio,
    ),
)
BUCKET_KINDS: dict[str, BucketKind] = {kind.name: kind for kind, _ in _KINDS}
_VALUES: dict[str, BucketValues] = {kind.name: values for kind, values in _KINDS}


def bucket_values(kind: str, baseline: SegmentStats, config: BleuConfig) -> FloatArray:
    """Return the value each segment is bucketed by (see the module notes).

    Raises:
        ConfigError: ``kind`` is not one of ``BUCKET_KINDS``.
    """
    if kind not in _VALUES:
        raise ConfigError(
            f"kind: unknown bucket kind {kind!r}; choose one of {', '.join(BUCKET_KINDS)}"
        )
    return _VALUES[kind](baseline, config)


def assign_buckets(kind: str, baseline: SegmentStats, config: BleuConfig) -> IntArray:
    """Return each segment's bucket number, ``0..len(labels)-1``."""
    values = bucket_values(kind, baseline, config)
    edges = np.asarray(BUCKET_KINDS[kind].edges, dtype=np.float64)
    return np.searchsorted(edges, values, side="right").astype(np.int64)


def bucket_table(
    kind: str, baseline: SegmentStats, system: SegmentStats, config: BleuConfig
) -> pd.DataFrame:
    """Return one row per bucket: label, segment count and corpus BLEU of A and B.

    Both scores come from each bucket's summed statistics; an empty bucket's
    scores are NaN (corpus BLEU of no segments is undefined, so it is not computed).
    """
    _check_pair(baseline, system)
    groups = assign_buckets(kind, baseline, config)
    return grouped_table(BUCKET_KINDS[kind].labels, groups, baseline, system, config)


def grouped_table(
    labels: tuple[str, ...],
    groups: IntArray,
    baseline: SegmentStats,
    system: SegmentStats,
    config: BleuConfig,
) -> pd.DataFrame:
    """One row per bucket of ``groups`` (bucket numbers into ``labels``): counts, corpus BLEU."""
    _check_pair(baseline, system)
    counts = np.bincount(groups, minlength=len(labels))
    present = np.flatnonzero(counts)
    codes = np.searchsorted(present, groups)  # bucket numbers renumbered without the empty ones
    return pd.DataFrame(
        {
            "bucket": list(labels),
            "segments": counts,
            "bleu_a": _scatter(
                group_scores(baseline, config, codes, len(present)).score, present, len(labels)
            ),
            "bleu_b": _scatter(
                group_scores(system, config, codes, len(present)).score, present, len(labels)
            ),
        }
    )


#: Label of the bucket that holds segments without an imported score.
NO_SCORE = "(no score)"


def quantile_edges(values: FloatArray, n_buckets: int = 4) -> tuple[float, ...]:
    """The ``n_buckets``-quantiles of the scored values (repeats merged), as bucket edges."""
    scores = np.asarray(values, dtype=np.float64)
    scored = scores[~np.isnan(scores)]
    if not len(scored):
        return ()
    quantiles = np.linspace(0, 1, n_buckets + 1)[1:-1]
    return tuple(float(e) for e in np.unique(np.quantile(scored, quantiles)))


def edge_buckets(values: FloatArray, edges: tuple[float, ...]) -> tuple[tuple[str, ...], IntArray]:
    """Bucket ``values`` at ``edges`` (bucket i holds [edges[i-1], edges[i])); NaN apart.

    Returns the labels ("<10", "10–20", ..., "≥90", and "(no score)" when a value
    is NaN) and each value's bucket number.

    Raises:
        ConfigError: the edges are not strictly increasing.
    """
    if any(b <= a for a, b in pairwise(edges)):
        raise ConfigError(f"edges: {list(edges)} must be strictly increasing")
    scores = np.asarray(values, dtype=np.float64)
    finite = scores[np.isfinite(scores)]
    digits = 4 if len(finite) and np.max(np.abs(finite)) <= 1 else 2
    shown = [f"{e:.{digits}f}".rstrip("0").rstrip(".") for e in edges]
    labels = [f"<{shown[0]}"] if shown else ["all"]
    labels += [f"{lo}–{hi}" for lo, hi in pairwise(shown)]
    labels += [f"≥{shown[-1]}"] if shown else []
    groups = np.searchsorted(np.asarray(edges), np.nan_to_num(scores), side="right").astype(
        np.int64
    )
    if np.isnan(scores).any():
        groups[np.isnan(scores)] = len(labels)
        labels.append(NO_SCORE)
    return tuple(labels), groups


def parse_edges(text: str) -> tuple[float, ...]:
    """Parse "10, 20, 30" (commas or spaces) into bucket edges.

    Raises:
        ConfigError: a part is not a finite number, or the edges do not increase.
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        edges = tuple(float(p) for p in parts)
    except ValueError:
        raise ConfigError(f"bucket edges: {text!r} is not a list of numbers") from None
    if not all(math.isfinite(e) for e in edges):  # nan passed the increase check below
        raise ConfigError(f"bucket edges: {text!r} must be finite numbers")
    if any(b <= a for a, b in pairwise(edges)):
        raise ConfigError(f"bucket edges: {text!r} must increase from left to right")
    return edges


def _scatter(values: FloatArray, positions: IntArray, size: int) -> FloatArray:
    """Place ``values`` at ``positions`` of a NaN array of ``size``."""
    out = np.full(size, np.nan)
    out[positions] = values
    return out


def bucket_segments(kind: str, baseline: SegmentStats, config: BleuConfig, label: str) -> IntArray:
    """Return the 0-based indices of the segments in the bucket called ``label``."""
    labels = BUCKET_KINDS[kind].labels
    if label not in labels:
        raise ConfigError(
            f"label: {label!r} is not a bucket of {kind!r}; choose {', '.join(labels)}"
        )
    groups = assign_buckets(kind, baseline, config)
    return segments_in(labels, groups, label)


def segments_in(labels: tuple[str, ...], groups: IntArray, label: str) -> IntArray:
    """Return the 0-based indices of the segments in the bucket called ``label``.

    Raises:
        ConfigError: ``label`` is not one of ``labels``.
    """
    if label not in labels:
        raise ConfigError(f"label: {label!r} is not a bucket; choose {', '.join(labels)}")
    return np.flatnonzero(groups == labels.index(label)).astype(np.int64)


@dataclass(frozen=True, slots=True)
class WinTieLoss:
    """How many segments B scores higher than A on, equal to, and lower than."""

    wins: int
    ties: int
    losses: int


def segment_comparison(
    baseline: SegmentStats, system: SegmentStats, config: BleuConfig
) -> pd.DataFrame:
    """Return :func:`score_comparison` of sentence BLEU of A and B."""
    _check_pair(baseline, system)
    return score_comparison(
        sentence_scores(baseline, config).score, sentence_scores(system, config).score
    )


def score_comparison(
    score_a: FloatArray, score_b: FloatArray, higher_is_better: bool = True
) -> pd.DataFrame:
    """Return one row per segment: number (from 1), the scores of A and B, and B's gain.

    The gain ``diff`` is B - A, or A - B for an error rate such as TER, so a
    positive difference always means B is better.
    """
    a, b = np.asarray(score_a, dtype=np.float64), np.asarray(score_b, dtype=np.float64)
    if a.shape != b.shape:
        raise InputError(f"score_b: {len(b)} segments but score_a has {len(a)}")
    return pd.DataFrame(
        {
            "seg": np.arange(1, len(a) + 1),
            "score_a": a,
            "score_b": b,
            "diff": b - a if higher_is_better else a - b,
        }
    )


def win_tie_loss(diff: FloatArray) -> WinTieLoss:
    """Count B's wins, ties and losses from per-segment differences B - A."""
    values = np.asarray(diff, dtype=np.float64)
    wins = int(np.sum(values > TIE_TOLERANCE))
    losses = int(np.sum(values < -TIE_TOLERANCE))
    return WinTieLoss(wins, len(values) - wins - losses, losses)


#: Orders of the sentence table: name -> (key to sort by, ascending).
SORTS: dict[str, str] = {
    "largest |B − A| first": "abs",
    "B better first": "desc",
    "A better first": "asc",
    "segment order": "seg",
}


def sort_comparison(frame: pd.DataFrame, how: str) -> pd.DataFrame:
    """Sort a ``segment_comparison`` frame by one of ``SORTS``' values; ties keep segment order."""
    if how == "seg":
        return frame.sort_values("seg", kind="stable")
    if how == "abs":
        key = -frame["diff"].abs()
    elif how == "desc":
        key = -frame["diff"]
    elif how == "asc":
        key = frame["diff"]
    else:
        raise ConfigError(f"how: unknown sort {how!r}; choose one of {', '.join(SORTS.values())}")
    return frame.iloc[np.argsort(key.to_numpy(), kind="stable")]


def _check_pair(baseline: SegmentStats, system: SegmentStats) -> None:
    """Refuse statistics of different lengths."""
    if len(baseline) != len(system):
        raise InputError(f"system: {len(system)} segments but the baseline has {len(baseline)}")
